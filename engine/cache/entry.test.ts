import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CacheEntry } from './entry.js';
import { FieldType } from '../point.js';

test('appends in order are returned as written', () => {
  const e = new CacheEntry(FieldType.Float);
  for (let i = 0; i < 100; i++) e.append(i * 10, i / 3);
  const { offsets, column } = e.view();
  assert.equal(offsets.length, 100);
  assert.equal(offsets[99], 990);
  assert.equal(column.values[3], 1);
});

test('out-of-order and duplicate timestamps: sorted, last write wins', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer()), { maxLength: 200 }), (writes) => {
      const e = new CacheEntry(FieldType.Integer);
      const model = new Map<number, number>();
      for (const [t, v] of writes) {
        e.append(t, v);
        model.set(t, v);
      }
      const expected = [...model.entries()].sort((a, b) => a[0] - b[0]);
      const { offsets, column } = e.view();
      assert.deepEqual([...offsets], expected.map((x) => x[0]));
      assert.deepEqual([...(column.values as Float64Array)], expected.map((x) => x[1]));
    }),
  );
});

test('integers beyond 2^53 widen the column without losing earlier values', () => {
  const e = new CacheEntry(FieldType.Integer);
  e.append(1, 5);
  e.append(2, 2n ** 62n);
  e.append(3, -7);
  const { column } = e.view();
  assert.ok(column.values instanceof BigInt64Array);
  assert.deepEqual([...(column.values as BigInt64Array)], [5n, 2n ** 62n, -7n]);
});

test('strings and booleans; removeRange deletes an inclusive range', () => {
  const s = new CacheEntry(FieldType.String);
  s.append(3, 'c');
  s.append(1, 'a');
  s.append(2, 'b');
  assert.equal(s.removeRange(2, 2), 1);
  assert.deepEqual(s.view().column.values, ['a', 'c']);
  s.append(5, 'e');
  assert.deepEqual(s.view().column.values, ['a', 'c', 'e']);
  const b = new CacheEntry(FieldType.Boolean);
  b.append(1, true);
  b.append(1, false);
  assert.deepEqual([...(b.view().column.values as Uint8Array)], [0]);
});
