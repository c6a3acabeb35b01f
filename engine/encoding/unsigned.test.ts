import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeUnsigned, decodeUnsigned } from './unsigned.js';
import { assertCorrupt, blockOf } from './helpers.test.js';

const U64_MAX = 2n ** 64n - 1n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function roundTrip(xs: readonly bigint[]): Uint8Array {
  const safe = xs.every((x) => x <= SAFE);
  const input = safe ? Float64Array.from(xs, Number) : BigUint64Array.from(xs);
  const bytes = encodeUnsigned(input, 0, xs.length);
  const back = decodeUnsigned(bytes, xs.length);
  assert.equal(back instanceof Float64Array, safe, 'Float64Array exactly when every value is below 2^53');
  if (!safe) assert.ok(back instanceof BigUint64Array);
  assert.deepEqual(Array.from(back as ArrayLike<number | bigint>, (v) => BigInt(v)), [...xs]);
  return bytes;
}

const u64 = fc.oneof(fc.bigInt(0n, U64_MAX), fc.bigInt(0n, 1000n), fc.bigInt(0n, SAFE), fc.constantFrom(0n, U64_MAX, 2n ** 63n, 2n ** 63n - 1n, SAFE, SAFE + 1n));

test('uint64 values round-trip with the documented output type', () => {
  fc.assert(fc.property(blockOf(u64, 300), (xs) => void roundTrip(xs)), { numRuns: 400 });
});

test('pinned: empty, one, u64 max, counters, 1000 values', () => {
  roundTrip([]);
  roundTrip([0n]);
  roundTrip([U64_MAX]);
  roundTrip([0n, U64_MAX, 0n]);
  roundTrip(new Array<bigint>(1000).fill(U64_MAX));
  roundTrip(Array.from({ length: 1000 }, (_, i) => U64_MAX - BigInt(i)));
  const counter = roundTrip(Array.from({ length: 1000 }, (_, i) => BigInt(i * 3)));
  assert.ok(counter.length < 8, 'a steady counter is RLE');
});

test('truncated input is CorruptionError', () => {
  const xs = [U64_MAX, 3n, 2n ** 63n];
  const bytes = roundTrip(xs);
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeUnsigned(bytes.subarray(0, cut), 3));
});
