import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BLOCK_CACHE_ENTRY_OVERHEAD, BlockCache } from './block-cache.js';

/**
 * Small ids and offsets, and the ones around the bounds where keys turn from packed numbers
 * into strings (file id 2^21, offset 2^32): a packed key must never name another file's block.
 */
const FILES = [0, 1, 2, 3, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1];
const OFFSETS = [...Array.from({ length: 21 }, (_, i) => i), 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 33];
const fileArb = fc.constantFrom(...FILES);
const offsetArb = fc.constantFrom(...OFFSETS);

test('the byte bound holds after every operation (fast-check against a model)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4096 }),
      fc.array(
        fc.oneof(
          fc.record({ op: fc.constant('set' as const), file: fileArb, offset: offsetArb, size: fc.nat(1500) }),
          fc.record({ op: fc.constant('get' as const), file: fileArb, offset: offsetArb }),
          fc.record({ op: fc.constant('evict' as const), file: fileArb }),
        ),
        { maxLength: 200 },
      ),
      (maxBytes, ops) => {
        const cache = new BlockCache({ maxBytes });
        const present = new Map<string, Uint8Array>();
        for (const o of ops) {
          if (o.op === 'set') {
            const p = new Uint8Array(o.size);
            cache.set(o.file, o.offset, p);
            present.set(`${o.file}:${o.offset}`, p);
          } else if (o.op === 'get') {
            const got = cache.get(o.file, o.offset);
            // A hit returns exactly what was stored for that key, never another block.
            if (got) assert.equal(got, present.get(`${o.file}:${o.offset}`));
          } else {
            cache.evictFile(o.file);
            for (const k of [...present.keys()]) if (k.startsWith(`${o.file}:`)) present.delete(k);
            for (const off of OFFSETS) assert.equal(cache.get(o.file, off), undefined);
          }
          const s = cache.stats();
          assert.ok(s.bytes <= maxBytes, `${s.bytes} > ${maxBytes}`);
          assert.ok(s.bytes >= 0);
          assert.equal(s.bytes === 0, s.entries === 0);
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('entries used since the clock last passed get a second chance; unused ones go first; hits and misses are counted', () => {
  const unit = 100 + BLOCK_CACHE_ENTRY_OVERHEAD;
  const cache = new BlockCache({ maxBytes: 3 * unit });
  const block = () => new Uint8Array(100);
  cache.set(1, 0, block());
  cache.set(1, 1, block());
  cache.set(1, 2, block());
  assert.ok(cache.get(1, 0)); // 0 becomes most recent; 1 is now the oldest
  cache.set(1, 3, block());
  assert.equal(cache.get(1, 1), undefined);
  assert.ok(cache.get(1, 0));
  assert.ok(cache.get(1, 2));
  assert.ok(cache.get(1, 3));
  assert.deepEqual(cache.stats(), { hits: 4, misses: 1, evictions: 1, entries: 3, bytes: 3 * unit, maxBytes: 3 * unit });
});

test('a payload larger than the bound is not cached and evicts nothing', () => {
  const cache = new BlockCache({ maxBytes: 1000 });
  cache.set(1, 0, new Uint8Array(10));
  cache.set(1, 8, new Uint8Array(5000));
  assert.equal(cache.get(1, 8), undefined);
  assert.ok(cache.get(1, 0));
  assert.equal(cache.stats().evictions, 0);
});

test('second chance: every used entry survives one eviction round, then the oldest goes', () => {
  const unit = 100 + BLOCK_CACHE_ENTRY_OVERHEAD;
  const cache = new BlockCache({ maxBytes: 3 * unit });
  const block = () => new Uint8Array(100);
  for (let i = 0; i < 3; i++) cache.set(1, i, block());
  for (let i = 0; i < 3; i++) assert.ok(cache.get(1, i)); // all used
  cache.set(1, 3, block()); // one round clears every mark, then 0 (the oldest) goes
  assert.equal(cache.get(1, 0), undefined);
  assert.ok(cache.get(1, 1)); // used again
  cache.set(1, 4, block()); // 1 has its second chance: 2 goes
  assert.equal(cache.get(1, 2), undefined);
  assert.ok(cache.get(1, 1));
  assert.ok(cache.get(1, 3));
  assert.ok(cache.get(1, 4));
  assert.equal(cache.stats().evictions, 2);
});
