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

test('appendNumber stores what append stores, for every numeric column kind and any initial capacity', () => {
  const kinds = [FieldType.Float, FieldType.Integer, FieldType.Unsigned, FieldType.Boolean] as const;
  fc.assert(
    fc.property(
      fc.constantFrom(...kinds),
      fc.integer({ min: 0, max: 64 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 1000 })), { maxLength: 120 }),
      fc.boolean(),
      (type, capacity, writes, widen) => {
        const a = new CacheEntry(type);
        const b = new CacheEntry(type, capacity);
        const wide = widen && type !== FieldType.Float && type !== FieldType.Boolean;
        if (wide) {
          // A value beyond 2^53 switches the column to BigInt storage first.
          a.append(100, 2n ** 60n);
          b.append(100, 2n ** 60n);
        }
        for (const [t, raw] of writes) {
          const v = type === FieldType.Boolean ? raw % 2 : raw;
          a.append(t, type === FieldType.Boolean ? v === 1 : v);
          b.appendNumber(t, v);
        }
        const va = a.view();
        const vb = b.view();
        assert.deepEqual([...vb.offsets], [...va.offsets]);
        assert.deepEqual(Array.from(vb.column.values as ArrayLike<unknown>), Array.from(va.column.values as ArrayLike<unknown>));
      },
    ),
  );
});

test('appendNumber refuses a string column (a ColumnBatch boxes strings)', () => {
  assert.throws(() => new CacheEntry(FieldType.String).appendNumber(1, 1), /number appended/);
});
