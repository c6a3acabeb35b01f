import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFloatDeltas, decodeFloatDeltas, planFloatDeltas, writeFloatDeltas } from './float-delta.js';
import { ByteWriter } from './varint.js';
import { InvariantError } from '../errors.js';
import { encodeFloats } from './float.js';
import { anyDouble, assertBitsEqual, assertCorrupt, blockOf, seq, SPECIAL_FLOATS, NAN_PAYLOADS, floatFromBits } from './helpers.test.js';

function roundTrip(values: Float64Array): Uint8Array {
  const bytes = encodeFloatDeltas(values, 0, values.length);
  assertBitsEqual(decodeFloatDeltas(bytes, values.length), values);
  return bytes;
}

test('any bit patterns round-trip bit for bit', () => {
  fc.assert(fc.property(blockOf(anyDouble, 400), (xs) => void roundTrip(Float64Array.from(xs))), { numRuns: 300 });
});

test('random walks round-trip and beat XOR on full-precision noise', () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { maxLength: 500 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (steps, start) => {
      let x = start;
      roundTrip(Float64Array.from(steps, (s) => (x += s)));
    }),
  );
  let x = 50;
  const walk = seq(1000, (i) => (x += Math.sin(i * 1.7)) + 1e-9 * i);
  assert.ok(roundTrip(walk).length < encodeFloats(walk, 0, 1000).length);
});

test('pinned: empty, one, identical, NaN payloads, ±Inf, -0, sign flips, 1000 values', () => {
  assert.equal(roundTrip(new Float64Array(0)).length, 0);
  assert.equal(roundTrip(Float64Array.of(1.5)).length, 8);
  roundTrip(new Float64Array(1000).fill(21.3));
  roundTrip(Float64Array.from(SPECIAL_FLOATS));
  roundTrip(Float64Array.from([...SPECIAL_FLOATS].reverse()));
  roundTrip(Float64Array.from(NAN_PAYLOADS.map(floatFromBits)));
  roundTrip(Float64Array.of(0, -0, 0, -0, Infinity, -Infinity, NaN, 0, -Number.MAX_VALUE, Number.MAX_VALUE));
  roundTrip(seq(1000, (i) => Math.sin(i) * 100));
});

test('truncated streams are CorruptionError', () => {
  const v = seq(50, (i) => Math.sqrt(i) * 1e3);
  const bytes = encodeFloatDeltas(v, 0, 50);
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeFloatDeltas(bytes.subarray(0, cut), 50));
});

test('planFloatDeltas predicts the encoded size exactly; writing needs a matching plan', () => {
  fc.assert(
    fc.property(blockOf(anyDouble, 300), (xs) => {
      const v = Float64Array.from(xs);
      const size = planFloatDeltas(v, 0, v.length);
      assert.equal(size, encodeFloatDeltas(v, 0, v.length).length);
    }),
  );
  planFloatDeltas(Float64Array.of(1, 2), 0, 2);
  assert.throws(() => writeFloatDeltas(new ByteWriter(), Float64Array.of(1, 2), 0, 2), InvariantError);
});
