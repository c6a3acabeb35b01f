import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeIntegers, decodeIntegers, INT_RAW, INT_RLE, INT_S8B, INT_RLE_WIDE, INT_S8B_WIDE, INT_HUF } from './integer.js';
import { assertCorrupt, blockOf, seq } from './helpers.test.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Encodes in the representation the engine would use and checks value and output type. */
function roundTrip(xs: readonly bigint[]): Uint8Array {
  const safe = xs.every((x) => x >= -SAFE && x <= SAFE);
  const input = safe ? Float64Array.from(xs, Number) : BigInt64Array.from(xs);
  const bytes = encodeIntegers(input, 0, xs.length);
  const back = decodeIntegers(bytes, xs.length);
  assert.equal(back instanceof Float64Array, safe, 'Float64Array exactly when every value is safe');
  assert.deepEqual(Array.from(back as ArrayLike<number | bigint>, (v) => BigInt(v)), [...xs]);
  return bytes;
}

const int64 = fc.oneof(
  fc.bigInt(MIN, MAX),
  fc.bigInt(-1000n, 1000n),
  fc.bigInt(-SAFE, SAFE),
  fc.constantFrom(MIN, MAX, 0n, -1n, SAFE, -SAFE, SAFE + 1n, -SAFE - 1n),
);

test('int64 values round-trip with the documented output type', () => {
  fc.assert(fc.property(blockOf(int64, 300), (xs) => void roundTrip(xs)), { numRuns: 400 });
});

test('random walks and counters stay narrow and small', () => {
  fc.assert(
    fc.property(fc.bigInt(-SAFE / 2n, SAFE / 2n), fc.array(fc.bigInt(-3n, 3n), { maxLength: 600 }), (start, steps) => {
      let x = start;
      const bytes = roundTrip([start, ...steps.map((s) => (x += s))]);
      assert.equal(bytes[0] === INT_S8B || bytes[0] === INT_RLE || bytes[0] === INT_HUF, true);
    }),
  );
});

test('mode selection: RLE, narrow, wide, raw', () => {
  assert.equal(roundTrip(Array.from({ length: 1000 }, (_, i) => 5n + 10n * BigInt(i)))[0], INT_RLE);
  assert.equal(roundTrip(new Array<bigint>(1000).fill(42n))[0], INT_RLE);
  assert.equal(roundTrip([1n, 5n, 2n])[0], INT_S8B);
  // A TSBS-like walk (deltas mostly −1..1): the Huffman code beats simple8b's 3-bit words.
  const walk = Array.from({ length: 1000 }, (_, i) => BigInt(50 + (((i * 2654435761) >>> 0) % 5) - 2));
  let acc = 0n;
  assert.equal(roundTrip(walk.map((d) => (acc += d - 50n)))[0], INT_HUF);
  assert.equal(roundTrip([MAX, MAX - 1n, MAX - 2n])[0], INT_RLE_WIDE);
  assert.equal(roundTrip([SAFE + 5n, SAFE + 9n, SAFE + 10n])[0], INT_S8B_WIDE);
  assert.equal(roundTrip([MIN, MAX, MIN, 0n])[0], INT_RAW);
  // Safe values with a jump beyond 2^52: encoded wide, decoded back to a Float64Array.
  assert.equal(roundTrip([-SAFE, SAFE, 0n])[0], INT_S8B_WIDE);
  assert.equal(roundTrip([0n, 2n ** 52n, 1n])[0], INT_S8B_WIDE);
});

test('pinned: empty, one, int64 min/max, 1000 values', () => {
  roundTrip([]);
  roundTrip([0n]);
  roundTrip([MIN]);
  roundTrip([MAX]);
  roundTrip([MIN, MAX]);
  roundTrip([MAX, MIN]);
  roundTrip(new Array<bigint>(10).fill(MIN));
  roundTrip(Array.from({ length: 1000 }, (_, i) => BigInt((i * 7919) % 1013) - 500n));
});

test('integral doubles beyond 2^53 in a Float64Array take the wide path', () => {
  const v = Float64Array.of(2 ** 60, 2 ** 60 + 256, 1);
  const back = decodeIntegers(encodeIntegers(v, 0, 3), 3);
  assert.deepEqual(Array.from(back as ArrayLike<number | bigint>, (x) => BigInt(x)), [2n ** 60n, 2n ** 60n + 256n, 1n]);
});

test('sub-range encoding', () => {
  const v = seq(100, (i) => i * i);
  assert.deepEqual(decodeIntegers(encodeIntegers(v, 10, 20), 10), v.slice(10, 20));
});

test('corrupt input is CorruptionError', () => {
  for (const xs of [[1n, 5n, 2n, 1000n], [MIN, MAX, 0n], [SAFE + 5n, SAFE + 9n, SAFE + 10n]]) {
    const bytes = roundTrip(xs);
    for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeIntegers(bytes.subarray(0, cut), xs.length));
  }
  assertCorrupt(() => decodeIntegers(Uint8Array.of(9, 0), 1));
});
