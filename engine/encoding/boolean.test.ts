import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeBooleans, decodeBooleans, BOOL_CONST, BOOL_PACKED } from './boolean.js';
import { assertCorrupt, blockOf } from './helpers.test.js';

function roundTrip(xs: readonly boolean[]): Uint8Array {
  const v = Uint8Array.from(xs, (b) => (b ? 1 : 0));
  const bytes = encodeBooleans(v, 0, v.length);
  assert.deepEqual(Array.from(decodeBooleans(bytes, v.length)), Array.from(v));
  return bytes;
}

test('booleans round-trip', () => {
  fc.assert(fc.property(blockOf(fc.boolean(), 1100), (xs) => void roundTrip(xs)));
});

test('pinned: empty, one, constant blocks, 1000 values, non-zero bytes read as true', () => {
  roundTrip([]);
  assert.deepEqual(Array.from(roundTrip([true])), [BOOL_CONST, 1]);
  assert.deepEqual(Array.from(roundTrip(new Array<boolean>(1000).fill(false))), [BOOL_CONST, 0]);
  const packed = roundTrip(Array.from({ length: 1000 }, (_, i) => i % 3 === 0));
  assert.equal(packed[0], BOOL_PACKED);
  assert.equal(packed.length, 1 + 125);
  const odd = Uint8Array.of(0, 7, 255, 0);
  assert.deepEqual(Array.from(decodeBooleans(encodeBooleans(odd, 0, 4), 4)), [0, 1, 1, 0]);
});

test('corrupt input is CorruptionError', () => {
  const bytes = roundTrip(Array.from({ length: 20 }, (_, i) => i % 2 === 0));
  for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeBooleans(bytes.subarray(0, cut), 20));
  assertCorrupt(() => decodeBooleans(Uint8Array.of(BOOL_CONST, 2), 3));
  assertCorrupt(() => decodeBooleans(Uint8Array.of(5), 3));
});
