import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeDecimals, decodeDecimals, MAX_EXPONENT } from './decimal.js';
import { assertBitsEqual, assertCorrupt, blockOf, seq, NAN_PAYLOADS, floatFromBits } from './helpers.test.js';

function roundTrip(values: Float64Array): Uint8Array {
  const bytes = encodeDecimals(values, 0, values.length);
  assert.ok(bytes, 'decimal applies');
  assertBitsEqual(decodeDecimals(bytes, values.length), values);
  return bytes;
}

/** Values as a parser reads "21.3": the nearest double to m / 10^e. */
const decimal = fc
  .record({ m: fc.integer({ min: -1e9, max: 1e9 }), e: fc.integer({ min: 0, max: 6 }) })
  .map(({ m, e }) => m / 10 ** e);

test('short decimals round-trip bit for bit', () => {
  fc.assert(fc.property(blockOf(decimal, 400), (xs) => void roundTrip(Float64Array.from(xs))), { numRuns: 300 });
});

test('quantised random walks round-trip (exercises the Huffman packing)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -100000, max: 100000 }),
      fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 100, maxLength: 1000 }),
      fc.constantFrom(1, 5, 10),
      fc.integer({ min: 0, max: 3 }),
      (start, steps, unit, e) => {
        let m = start;
        roundTrip(Float64Array.from(steps, (s) => (m += s * unit) / 10 ** e));
      },
    ),
    { numRuns: 150 },
  );
});

test('the smallest exponent is chosen and quantised steps shrink to small integers', () => {
  assert.equal(roundTrip(Float64Array.of(21, 22, 20))[0], 0);
  assert.equal(roundTrip(Float64Array.of(21.3, 21.4))[0], 1);
  assert.equal(roundTrip(Float64Array.of(21.3, 21.35))[0], 2);
  assert.equal(roundTrip(Float64Array.of(1e-18))[0], 18);
  let h = 40;
  const humidity = seq(1000, (i) => Math.round((h += ((i * 7) % 5) - 2) * 20) / 20);
  const bytes = roundTrip(humidity);
  assert.ok(bytes.length < 1000 * 0.5, `0.05 steps packed in ${bytes.length} bytes`);
});

test('slow quantised walks pack the deltas with a Huffman code (flag in bit 7)', () => {
  let t = 2150;
  const temps = seq(1000, (i) => (t += [0, 0, 0, 1, 0, -1, 0, 0, 2, 0, 0, -1][i % 12]!) / 100);
  const bytes = roundTrip(temps);
  assert.equal(bytes[0], 0x80 | 2);
  assert.ok(bytes.length <= 200, `${bytes.length} bytes`);
});

test('pinned: empty, one, identical, negative, large mantissas', () => {
  roundTrip(new Float64Array(0));
  roundTrip(Float64Array.of(0));
  roundTrip(Float64Array.of(-273.15));
  const same = roundTrip(new Float64Array(1000).fill(21.3));
  assert.ok(same.length < 8, `identical values: ${same.length} bytes`);
  roundTrip(Float64Array.of(2 ** 50, -(2 ** 50), 0));
  roundTrip(seq(1000, (i) => ((i % 17) - 8) / 100));
});

test('values that are not short decimals make the encoding inapplicable', () => {
  const nan = NAN_PAYLOADS.map(floatFromBits);
  for (const bad of [NaN, ...nan, Infinity, -Infinity, -0, Math.PI, 0.1 + 0.2, 2 ** 53, 1e300, Number.MIN_VALUE, 1 / 3]) {
    assert.equal(encodeDecimals(Float64Array.of(1.5, bad, 2), 0, 3), null, `value ${bad}`);
  }
  assert.equal(encodeDecimals(Float64Array.of(10 ** -(MAX_EXPONENT + 1)), 0, 1), null);
});

test('truncated input is CorruptionError', () => {
  const bytes = encodeDecimals(seq(100, (i) => (i * i) / 10), 0, 100)!;
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeDecimals(bytes.subarray(0, cut), 100));
  assertCorrupt(() => decodeDecimals(Uint8Array.of(MAX_EXPONENT + 1, 0, 0), 1));
});
