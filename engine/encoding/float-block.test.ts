import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFloatColumn, decodeFloatColumn, FLOAT_XOR, FLOAT_DECIMAL, FLOAT_DELTA } from './float-block.js';
import { encodeFloatDeltas } from './float-delta.js';
import { encodeFloats } from './float.js';
import { encodeDecimals } from './decimal.js';
import { anyDouble, assertBitsEqual, assertCorrupt, blockOf, seq, SPECIAL_FLOATS } from './helpers.test.js';

function roundTrip(values: Float64Array): Uint8Array {
  const bytes = encodeFloatColumn(values, 0, values.length);
  assertBitsEqual(decodeFloatColumn(bytes, values.length), values);
  return bytes;
}

test('any doubles round-trip, and the choice is never larger than any encoding', () => {
  const mixed = fc.oneof(anyDouble, fc.integer({ min: -500, max: 500 }).map((i) => i / 20));
  fc.assert(
    fc.property(blockOf(mixed, 300), (xs) => {
      const v = Float64Array.from(xs);
      const bytes = roundTrip(v);
      const xor = encodeFloats(v, 0, v.length).length;
      const dec = encodeDecimals(v, 0, v.length)?.length ?? Infinity;
      const delta = encodeFloatDeltas(v, 0, v.length).length;
      assert.equal(bytes.length, 1 + Math.min(xor, dec, delta));
    }),
    { numRuns: 300 },
  );
});

test('quantised readings choose decimal, noisy walks deltas, repeats and specials XOR', () => {
  let t = 21;
  assert.equal(roundTrip(seq(1000, (i) => Math.round((t += Math.sin(i) / 10) * 10) / 10))[0], FLOAT_DECIMAL);
  let x = 50;
  assert.equal(roundTrip(seq(1000, (i) => (x += Math.sin(i * 1.7)) + 1e-9 * i))[0], FLOAT_DELTA);
  assert.equal(roundTrip(seq(1000, (i) => (i % 50 === 0 ? Math.PI * i : Math.PI)))[0], FLOAT_DELTA);
  // Huge integers with short mantissas: XOR's trailing-zero code wins.
  assert.equal(roundTrip(seq(1000, (i) => ((i * 7919) % 1000) * 2 ** 80))[0], FLOAT_XOR);
  roundTrip(Float64Array.from(SPECIAL_FLOATS));
  roundTrip(new Float64Array(0));
  roundTrip(Float64Array.of(-0));
});

test('unknown kind byte is CorruptionError', () => {
  assertCorrupt(() => decodeFloatColumn(Uint8Array.of(7, 0, 0), 1));
  assertCorrupt(() => decodeFloatColumn(new Uint8Array(0), 1));
});
