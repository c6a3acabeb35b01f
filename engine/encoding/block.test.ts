import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeBlock, decodeBlock, decodeBlockLastValue, decodeBlockValues, blockType, blockCount } from './block.js';
import { INT_HUF, INT_RLE, INT_S8B } from './integer.js';
import { FieldType } from '../point.js';
import type { ValueColumn } from '../point.js';
import { InvariantError, CorruptionError } from '../errors.js';
import { anyDouble, assertBitsEqual, assertCorrupt, bits, seq } from './helpers.test.js';

const BASE = 1_700_000_000_000_000_000n;

function comparable(c: ValueColumn): unknown {
  if (c.type === FieldType.Float) return bits(c.values);
  if (c.type === FieldType.String) return [...c.values];
  return Array.from(c.values as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? v : BigInt(v)));
}

function roundTrip(offsets: Float64Array, column: ValueColumn, base = BASE): Uint8Array {
  const bytes = encodeBlock(base, offsets, column, 0, offsets.length);
  assert.equal(blockType(bytes), column.type);
  assert.equal(blockCount(bytes), offsets.length);
  const back = decodeBlock(bytes, base);
  assertBitsEqual(back.offsets, offsets);
  assert.equal(back.column.type, column.type);
  assert.deepEqual(comparable(back.column), comparable(column));
  assert.equal(back.column.values.constructor, column.values.constructor, 'same column representation');
  return bytes;
}

const columnOf = (n: number): fc.Arbitrary<ValueColumn> =>
  fc.oneof(
    fc.array(anyDouble, { minLength: n, maxLength: n }).map((v): ValueColumn => ({ type: FieldType.Float, values: Float64Array.from(v) })),
    fc.array(fc.maxSafeInteger(), { minLength: n, maxLength: n }).map((v): ValueColumn => ({ type: FieldType.Integer, values: Float64Array.from(v) })),
    fc
      .array(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n), { minLength: n, maxLength: n })
      .map((v): ValueColumn => ({ type: FieldType.Integer, values: BigInt64Array.from(v.map((x, i) => (i === 0 ? -(2n ** 63n) : x))) })),
    fc.array(fc.maxSafeNat(), { minLength: n, maxLength: n }).map((v): ValueColumn => ({ type: FieldType.Unsigned, values: Float64Array.from(v) })),
    fc
      .array(fc.bigInt(0n, 2n ** 64n - 1n), { minLength: n, maxLength: n })
      .map((v): ValueColumn => ({ type: FieldType.Unsigned, values: BigUint64Array.from(v.map((x, i) => (i === 0 ? 2n ** 64n - 1n : x))) })),
    fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((v): ValueColumn => ({ type: FieldType.Boolean, values: Uint8Array.from(v, Number) })),
    fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: n, maxLength: n }).map((v): ValueColumn => ({ type: FieldType.String, values: v })),
  );

test('every block type round-trips with its timestamps', () => {
  const block = fc.array(fc.integer({ min: -1e12, max: 1e12 }), { minLength: 1, maxLength: 120 }).chain((offs) =>
    fc.tuple(fc.constant(Float64Array.from(offs)), columnOf(offs.length)),
  );
  fc.assert(fc.property(block, ([offs, col]) => void roundTrip(offs, col)), { numRuns: 300 });
});

test('decodeBlockValues equals the column of decodeBlock and checks the count', () => {
  const block = fc.array(fc.integer({ min: -1e12, max: 1e12 }), { minLength: 1, maxLength: 120 }).chain((offs) =>
    fc.tuple(fc.constant(Float64Array.from(offs)), columnOf(offs.length)),
  );
  fc.assert(
    fc.property(block, ([offs, col]) => {
      const bytes = encodeBlock(BASE, offs, col, 0, offs.length);
      const values = decodeBlockValues(bytes, offs.length);
      assert.equal(values.type, col.type);
      assert.deepEqual(comparable(values), comparable(decodeBlock(bytes, BASE).column));
      assertCorrupt(() => decodeBlockValues(bytes, offs.length + 1));
    }),
    { numRuns: 200 },
  );
});

test('decodeBlockValues with a limit: at least `limit` values, the first ones of the whole column', () => {
  // Random walks (Huffman), constant steps (RLE) and the general columns (simple8b, raw, wide, other types).
  const walk = (steps: number[], from: number): ValueColumn => ({ type: FieldType.Integer, values: Float64Array.from(steps, (d) => (from += d)) });
  const column = (n: number): fc.Arbitrary<ValueColumn> =>
    fc.oneof(
      columnOf(n),
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).map((d) => walk(d, 50)),
      fc.integer({ min: -5, max: 5 }).map((d) => walk(new Array<number>(n).fill(d), 7)),
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).map((d): ValueColumn => ({ type: FieldType.Unsigned, values: Float64Array.from(d, (x, i) => 1000 + x + i) })),
    );
  const block = fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.constant(Float64Array.from({ length: n }, (_, i) => i * 10)), column(n), fc.integer({ min: 1, max: n })));
  const buffers = { numbers: new Float64Array(300), booleans: new Uint8Array(300) };
  fc.assert(
    fc.property(block, ([offs, col, limit]) => {
      const bytes = encodeBlock(BASE, offs, col, 0, offs.length);
      const whole = comparable(decodeBlock(bytes, BASE).column) as unknown[];
      for (const b of [undefined, buffers]) {
        const values = decodeBlockValues(bytes, offs.length, b, limit);
        assert.equal(values.type, col.type);
        assert.ok(values.values.length >= limit);
        assert.deepEqual((comparable(values) as unknown[]).slice(0, limit), whole.slice(0, limit));
      }
    }),
    { numRuns: 400 },
  );
});

test('decodeBlockLastValue equals the last value of the whole column, in its representation, and checks the count', () => {
  // Walks whose deltas are small (Huffman), mixed with escapes and huge jumps (simple8b's wide
  // selectors, Huffman escapes), constant (RLE), plus every general column.
  const delta = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -3, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }) });
  const walk = (type: typeof FieldType.Integer | typeof FieldType.Unsigned, steps: number[], from: number): ValueColumn => ({ type, values: Float64Array.from(steps, (d) => (from += d)) });
  const column = (n: number): fc.Arbitrary<ValueColumn> =>
    fc.oneof(
      columnOf(n),
      fc.array(delta, { minLength: n, maxLength: n }).map((d) => walk(FieldType.Integer, d, -(2 ** 45))),
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: n, maxLength: n }).map((d) => walk(FieldType.Integer, d, 50)),
      fc.integer({ min: -5, max: 5 }).map((d) => walk(FieldType.Integer, new Array<number>(n).fill(d), 7)),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }).map((d) => walk(FieldType.Unsigned, d, 1000)),
    );
  const block = fc.integer({ min: 1, max: 1000 }).chain((n) => fc.tuple(fc.constant(Float64Array.from({ length: n }, (_, i) => i * 10)), column(n)));
  const modes = new Set<number>();
  fc.assert(
    fc.property(block, ([offs, col]) => {
      const bytes = encodeBlock(BASE, offs, col, 0, offs.length);
      const whole = decodeBlock(bytes, BASE).column;
      const last = decodeBlockLastValue(bytes, offs.length);
      assert.equal(last.type, col.type);
      assert.equal(last.values.length, 1);
      assert.equal(last.values.constructor, whole.values.constructor, 'same column representation');
      assert.deepEqual(comparable(last), (comparable(whole) as unknown[]).slice(-1));
      assertCorrupt(() => decodeBlockLastValue(bytes, offs.length + 1));
      if (col.type === FieldType.Integer) modes.add(valueMode(bytes));
    }),
    { numRuns: 400 },
  );
  for (const m of [INT_RLE, INT_S8B, INT_HUF]) assert.ok(modes.has(m), `integer mode ${m} generated`);
});

/** The integer encoding mode byte of a block (past the type and the timestamp section). */
function valueMode(bytes: Uint8Array): number {
  let p = 1;
  let tlen = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[p++]!;
    tlen += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  return bytes[p + tlen]!;
}

test('pinned: 1000-value blocks of each type, empty and single-value blocks', () => {
  const t = seq(1000, (i) => i * 10e9);
  roundTrip(t, { type: FieldType.Float, values: seq(1000, (i) => Math.round(Math.sin(i) * 1000) / 10) });
  roundTrip(t, { type: FieldType.Integer, values: seq(1000, (i) => (i * 37) % 101) });
  roundTrip(t, { type: FieldType.Integer, values: BigInt64Array.from({ length: 1000 }, (_, i) => (i % 2 ? -(2n ** 63n) : 2n ** 63n - 1n)) });
  roundTrip(t, { type: FieldType.Unsigned, values: BigUint64Array.from({ length: 1000 }, () => 2n ** 64n - 1n) });
  roundTrip(t, { type: FieldType.Boolean, values: Uint8Array.from({ length: 1000 }, (_, i) => i & 1) });
  roundTrip(t, { type: FieldType.String, values: Array.from({ length: 1000 }, (_, i) => `état ${i % 4} 🌡`) });
  roundTrip(new Float64Array(0), { type: FieldType.Float, values: new Float64Array(0) });
  roundTrip(new Float64Array(0), { type: FieldType.String, values: [] });
  roundTrip(Float64Array.of(0), { type: FieldType.Float, values: Float64Array.of(-0) });
});

test('absolute timestamps near the int64 limits', () => {
  const col: ValueColumn = { type: FieldType.Integer, values: Float64Array.of(1, 2, 3) };
  roundTrip(Float64Array.of(-3, -2, -1), col, 2n ** 63n - 1n);
  roundTrip(Float64Array.of(0, 1, 2), col, -(2n ** 63n));
});

test('a regular float block is small', () => {
  const bytes = roundTrip(seq(1000, (i) => i * 1e9), { type: FieldType.Float, values: new Float64Array(1000).fill(21.5) });
  assert.ok(bytes.length < 32, `${bytes.length} bytes`);
});

test('encodes a sub-range', () => {
  const t = seq(100, (i) => i);
  const v = seq(100, (i) => i * 2);
  const back = decodeBlock(encodeBlock(0n, t, { type: FieldType.Float, values: v }, 30, 40), 0n);
  assertBitsEqual(back.offsets, t.subarray(30, 40));
  assertBitsEqual(back.column.values as Float64Array, v.subarray(30, 40));
});

test('bad range is an InvariantError; corrupt bytes are CorruptionError', () => {
  assert.throws(() => encodeBlock(0n, new Float64Array(2), { type: FieldType.Float, values: new Float64Array(1) }, 0, 2), InvariantError);
  const bytes = encodeBlock(BASE, seq(30, (i) => i * i), { type: FieldType.String, values: Array.from({ length: 30 }, String) }, 0, 30);
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeBlock(bytes.subarray(0, cut), BASE));
  const bad = bytes.slice();
  bad[0] = 9;
  assertCorrupt(() => decodeBlock(bad, BASE));
  assertCorrupt(() => blockType(bad));
  assertCorrupt(() => blockCount(new Uint8Array(0)));
});

test('bit flips in valid blocks decode or throw CorruptionError, never anything else', () => {
  const t = seq(200, (i) => i * 10e9);
  let w = 50;
  const blocks = [
    encodeBlock(BASE, t, { type: FieldType.Integer, values: seq(200, (i) => (w = Math.max(0, w + ((i * 7) % 5) - 2))) }, 0, 200),
    encodeBlock(BASE, t, { type: FieldType.Float, values: seq(200, (i) => Math.round(Math.sin(i) * 100) / 10) }, 0, 200),
    encodeBlock(BASE, t, { type: FieldType.Float, values: seq(200, (i) => 50 + Math.sin(i) * 7.123456789) }, 0, 200),
    encodeBlock(BASE, t, { type: FieldType.Float, values: seq(200, (i) => (i % 9) * 2 ** 70) }, 0, 200),
    encodeBlock(BASE, seq(3, (i) => i * i), { type: FieldType.String, values: ['a', 'héllo', 'x'.repeat(200)] }, 0, 3),
    encodeBlock(BASE, seq(3, (i) => -i), { type: FieldType.Boolean, values: Uint8Array.of(1, 0, 1) }, 0, 3),
    encodeBlock(BASE, seq(3, (i) => i), { type: FieldType.Unsigned, values: BigUint64Array.of(2n ** 64n - 1n, 0n, 5n) }, 0, 3),
    encodeBlock(BASE, seq(3, (i) => i), { type: FieldType.Integer, values: BigInt64Array.of(-(2n ** 63n), 0n, 5n) }, 0, 3),
  ];
  fc.assert(
    fc.property(fc.nat(blocks.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(7)), { minLength: 1, maxLength: 3 }), (k, flips) => {
      const b = blocks[k]!.slice();
      for (const [at, bit] of flips) b[at % b.length]! ^= 1 << bit;
      try {
        decodeBlock(b, BASE);
      } catch (e) {
        assert.ok(e instanceof CorruptionError, String(e));
      }
    }),
    { numRuns: 1500 },
  );
});

test('decoding into caller buffers returns views of them', () => {
  const t = seq(100, (i) => i * 1e9);
  const buffers = { offsets: new Float64Array(1000), numbers: new Float64Array(1000), booleans: new Uint8Array(1000) };
  for (const column of [
    { type: FieldType.Float, values: seq(100, (i) => i / 10) },
    { type: FieldType.Integer, values: seq(100, (i) => i * 3) },
    { type: FieldType.Unsigned, values: seq(100, (i) => i) },
    { type: FieldType.Boolean, values: Uint8Array.from({ length: 100 }, (_, i) => i & 1) },
  ] as ValueColumn[]) {
    const back = decodeBlock(encodeBlock(BASE, t, column, 0, 100), BASE, buffers);
    assert.equal(back.offsets.buffer, buffers.offsets.buffer);
    const target = column.type === FieldType.Boolean ? buffers.booleans : buffers.numbers;
    assert.equal(back.column.values.length, 100);
    assert.equal((back.column.values as Float64Array | Uint8Array).buffer, target.buffer);
    assert.deepEqual(comparable(back.column), comparable(column));
  }
});
