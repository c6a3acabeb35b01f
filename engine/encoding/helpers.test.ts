// Shared arbitraries and bit-exact comparisons for the encoding tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CorruptionError } from '../errors.js';

/** Bit patterns of a Float64Array, so NaN payloads and -0 compare exactly. */
export function bits(a: Float64Array): bigint[] {
  return Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length));
}

export function assertBitsEqual(actual: Float64Array, expected: Float64Array): void {
  assert.equal(actual.length, expected.length, 'length');
  assert.deepEqual(bits(actual), bits(expected));
}

export function floatFromBits(b: bigint): number {
  return new Float64Array(new BigUint64Array([b]).buffer)[0]!;
}

export const NAN_PAYLOADS: readonly bigint[] = [
  0x7ff8000000000000n, // canonical quiet NaN
  0x7ff8000000000001n,
  0x7ff0000000000001n, // signalling
  0xfff8000000000000n, // negative quiet
  0x7fffffffffffffffn,
  0xffffffffffffffffn,
  0x7ff4000000dead00n,
];

/** Special doubles every float test pins. */
export const SPECIAL_FLOATS: readonly number[] = [
  ...NAN_PAYLOADS.map(floatFromBits),
  Infinity,
  -Infinity,
  -0,
  0,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.EPSILON,
  2 ** 53,
  0.1,
  21.3,
];

/** Any 64-bit pattern as a double, plus ordinary and special values. */
export const anyDouble: fc.Arbitrary<number> = fc.oneof(
  fc.bigInt(0n, 2n ** 64n - 1n).map(floatFromBits),
  fc.double(),
  fc.constantFrom(...SPECIAL_FLOATS),
  fc.integer({ min: -1000, max: 1000 }).map((i) => i / 10),
);

/** Arrays that mix random values with runs and walks, the shapes real blocks have. */
export function blockOf<T>(item: fc.Arbitrary<T>, maxLength = 300): fc.Arbitrary<T[]> {
  return fc.oneof(
    fc.array(item, { maxLength }),
    fc.tuple(item, fc.integer({ min: 1, max: maxLength })).map(([v, n]) => new Array<T>(n).fill(v)),
    fc.array(fc.tuple(item, fc.integer({ min: 1, max: 20 })), { maxLength: 30 }).map((runs) =>
      runs.flatMap(([v, n]) => new Array<T>(n).fill(v)),
    ),
  );
}

export function seq(n: number, f: (i: number) => number): Float64Array {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = f(i);
  return a;
}

/** Runs `fn` and asserts it throws a CorruptionError (not a RangeError or a silent result). */
export function assertCorrupt(fn: () => unknown): void {
  assert.throws(fn, (e: unknown) => e instanceof CorruptionError);
}

test('bit comparison distinguishes -0 from 0 and NaN payloads', () => {
  assert.notDeepEqual(bits(new Float64Array([-0])), bits(new Float64Array([0])));
  const a = new Float64Array([floatFromBits(NAN_PAYLOADS[0]!), floatFromBits(NAN_PAYLOADS[1]!)]);
  assert.notEqual(bits(a)[0], bits(a)[1]);
});
