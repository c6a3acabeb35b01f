import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mergedRunOrder } from './run-order.js';
import { CacheEntry } from './entry.js';
import { FieldType } from '../point.js';

/** Ascending runs with duplicates across runs, as concurrent writers produce them. */
const runs = fc.array(
  fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }).map((xs) => [...new Set(xs)].sort((a, b) => a - b)),
  { maxLength: 12 },
);

function layout(rs: number[][]): { times: Float64Array; starts: number[] } {
  const flat = rs.flat();
  const starts: number[] = [];
  let at = 0;
  for (const r of rs) {
    if (at > 0) starts.push(at);
    at += r.length;
  }
  return { times: Float64Array.from(flat), starts };
}

test('merged run order equals a stable sort by (time, index)', () => {
  fc.assert(
    fc.property(runs, (rs) => {
      const { times, starts } = layout(rs);
      const n = times.length;
      const expected = [...Array(n).keys()].sort((a, b) => times[a]! - times[b]! || a - b);
      assert.deepEqual([...mergedRunOrder(times, n, starts)], expected);
    }),
  );
});

test('a cache entry appended as runs keeps the last write of each time', () => {
  fc.assert(
    fc.property(runs, (rs) => {
      const e = new CacheEntry(FieldType.Integer);
      const model = new Map<number, number>();
      let v = 0;
      for (const r of rs) {
        for (const t of r) {
          e.append(t, ++v);
          model.set(t, v);
        }
      }
      const expected = [...model.entries()].sort((a, b) => a[0] - b[0]);
      const { offsets, column } = e.view();
      assert.deepEqual([...offsets], expected.map((x) => x[0]));
      assert.deepEqual([...(column.values as Float64Array)], expected.map((x) => x[1]));
    }),
  );
});

test('more runs than are tracked still sort (descending appends), and appends after a view merge again', () => {
  const e = new CacheEntry(FieldType.Float);
  for (let t = 9999; t >= 0; t--) e.append(t, t * 2);
  const first = e.view();
  assert.equal(first.offsets.length, 10_000);
  assert.ok(first.offsets.every((t, i) => t === i && first.column.values[i] === i * 2));
  e.append(5, -1);
  e.append(10_000, 1);
  e.append(3, -2);
  const { offsets, column } = e.view();
  assert.equal(offsets.length, 10_001);
  assert.equal(column.values[5], -1);
  assert.equal(column.values[3], -2);
  assert.equal(column.values[10_000], 1);
});
