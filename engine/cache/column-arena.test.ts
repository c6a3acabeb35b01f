/**
 * The cache's column arena: carved columns are aligned and disjoint, slabs go back to the pool
 * only through recycle and are reused by the next arena, large columns get their own buffer,
 * and a released cache keeps its memory while a reader holds it (Cache.pin).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ColumnArena, pooledSlabs, trimColumnPool } from './column-arena.js';
import { Cache } from './cache.js';
import { FieldType } from '../point.js';

test('carved columns are aligned and never overlap; a column larger than a quarter slab gets its own buffer', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom('float64', 'bytes', 'int64', 'uint64'), fc.nat(40_000)), { maxLength: 200 }), (asks) => {
      const arena = new ColumnArena();
      const spans = new Map<ArrayBufferLike, [number, number][]>();
      for (const [kind, n] of asks) {
        const a = arena[kind as 'float64'](n);
        assert.equal(a.length, n);
        assert.equal(a.byteOffset % 8, 0);
        const list = spans.get(a.buffer) ?? [];
        for (const [from, to] of list) assert.ok(a.byteOffset >= to || a.byteOffset + a.byteLength <= from, 'disjoint');
        list.push([a.byteOffset, a.byteOffset + a.byteLength]);
        spans.set(a.buffer, list);
        if (a.byteLength > (1 << 20) / 4) assert.equal(a.buffer.byteLength, a.byteLength, 'own buffer');
      }
      arena.recycle();
    }),
    { numRuns: 50 },
  );
  trimColumnPool();
});

test('recycled slabs go to the pool and the next arena takes them instead of allocating', () => {
  trimColumnPool();
  const first = new ColumnArena();
  const a = first.float64(1000);
  a.fill(7);
  for (let i = 0; i < 5; i++) first.float64(30_000); // 240 KB each: the fifth needs a second slab
  assert.equal(first.slabCount, 2);
  assert.equal(pooledSlabs(), 0);
  first.recycle();
  assert.equal(pooledSlabs(), 2);
  const next = new ColumnArena();
  const b = next.float64(1000);
  assert.equal(pooledSlabs(), 1);
  assert.ok(b.buffer === a.buffer || pooledSlabs() === 1, 'a pooled slab was reused');
  trimColumnPool();
  assert.equal(pooledSlabs(), 0);
});

test('a released cache keeps its columns while pinned, and its memory is reused after the last unpin', () => {
  trimColumnPool();
  const old = new Cache();
  const e = old.entry(old.fields('m,host=a'), 'v', FieldType.Float);
  for (let i = 0; i < 5000; i++) e.appendNumber(i, i * 1.5);
  const held = e.view();
  old.pin();
  old.pin();
  old.release();
  old.unpin();
  assert.equal(pooledSlabs(), 0, 'still pinned once');
  const other = new Cache();
  const o = other.entry(other.fields('m,host=b'), 'v', FieldType.Float);
  for (let i = 0; i < 5000; i++) o.appendNumber(i, -1);
  assert.equal((held.column.values as Float64Array)[4999], 4999 * 1.5, 'a pinned cache is not overwritten');
  assert.equal(held.offsets[4999], 4999);
  old.unpin();
  assert.ok(pooledSlabs() > 0, 'memory back in the pool after the last unpin');
  const reuse = new Cache();
  const r = reuse.entry(reuse.fields('m,host=c'), 'v', FieldType.Float);
  for (let i = 0; i < 5000; i++) r.appendNumber(i + 1e9, 42);
  assert.equal(r.view().offsets[0], 1e9);
  trimColumnPool();
});

test('an unreleased cache never recycles, whatever its pins', () => {
  trimColumnPool();
  const c = new Cache();
  c.entry(c.fields('m'), 'v', FieldType.Integer).appendNumber(1, 1);
  c.pin();
  c.unpin();
  assert.equal(pooledSlabs(), 0);
});
