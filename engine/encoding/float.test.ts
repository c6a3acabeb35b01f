import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeFloats, decodeFloats, floatsSize } from './float.js';
import { anyDouble, assertBitsEqual, assertCorrupt, blockOf, seq, SPECIAL_FLOATS, NAN_PAYLOADS, floatFromBits } from './helpers.test.js';

function roundTrip(values: Float64Array): Uint8Array {
  const bytes = encodeFloats(values, 0, values.length);
  assertBitsEqual(decodeFloats(bytes, values.length), values);
  return bytes;
}

test('any bit patterns round-trip bit for bit', () => {
  fc.assert(fc.property(blockOf(anyDouble, 400), (xs) => void roundTrip(Float64Array.from(xs))), { numRuns: 300 });
});

test('random walks round-trip', () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { maxLength: 500 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (steps, start) => {
      let x = start;
      roundTrip(Float64Array.from(steps, (s) => (x += s)));
    }),
  );
});

test('pinned: empty, one, identical, NaN payloads, ±Inf, -0, 1000 values', () => {
  assert.equal(roundTrip(new Float64Array(0)).length, 0);
  assert.equal(roundTrip(Float64Array.of(1.5)).length, 8);
  const same = roundTrip(new Float64Array(1000).fill(21.3));
  assert.ok(same.length <= 8 + 250, `identical values cost 2 bits each, got ${same.length} bytes`);
  roundTrip(Float64Array.from(SPECIAL_FLOATS));
  roundTrip(Float64Array.from([...SPECIAL_FLOATS].reverse()));
  roundTrip(Float64Array.from(NAN_PAYLOADS.map(floatFromBits)));
  roundTrip(Float64Array.of(0, -0, 0, -0, Infinity, -Infinity, NaN, 0));
  roundTrip(seq(1000, (i) => Math.sin(i) * 100));
  roundTrip(seq(1000, (i) => i));
});

test('decoding into a caller buffer and sub-range encoding', () => {
  const v = seq(100, (i) => i / 3);
  const buf = new Float64Array(128);
  const out = decodeFloats(encodeFloats(v, 20, 60), 40, buf);
  assert.equal(out.buffer, buf.buffer);
  assertBitsEqual(out, v.subarray(20, 60));
});

test('truncated streams are CorruptionError', () => {
  const v = seq(50, (i) => Math.sqrt(i));
  const bytes = encodeFloats(v, 0, 50);
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeFloats(bytes.subarray(0, cut), 50));
});

test('floatsSize predicts the encoded size exactly', () => {
  fc.assert(
    fc.property(blockOf(anyDouble, 300), (xs) => {
      const v = Float64Array.from(xs);
      assert.equal(floatsSize(v, 0, v.length), encodeFloats(v, 0, v.length).length);
    }),
  );
});
