import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { packNumbers, packHalves, packedBitsWithin, unpackNumbers, unpackHalves, fitsSimple8b } from './simple8b.js';
import { ByteWriter, ByteReader } from './varint.js';
import { InvariantError } from '../errors.js';
import { assertCorrupt, blockOf } from './helpers.test.js';

/** Naturals of every bit width up to 2^53, biased towards small values and zero runs. */
const natural = fc.integer({ min: 0, max: 53 }).chain((w) =>
  w === 0 ? fc.constant(0) : fc.integer({ min: 0, max: 2 ** Math.min(w, 31) - 1 }).map((x) => (w > 31 ? x * 2 ** (w - 31) + (w % 7) : x)),
);

function roundTripNumbers(xs: number[]): void {
  const src = Float64Array.from(xs);
  const w = new ByteWriter(1);
  packNumbers(w, src, 0, src.length);
  assert.equal(w.len % 8, 0);
  const out = new Float64Array(src.length);
  const r = new ByteReader(w.finish());
  unpackNumbers(r, out, 0, src.length);
  assert.deepEqual(Array.from(out), xs);
  assert.equal(r.pos, w.len, 'consumes exactly its words');
}

test('numbers below 2^53 round-trip', () => {
  fc.assert(fc.property(blockOf(natural, 600), roundTripNumbers));
});

test('packedBitsWithin is the packed size when within the budget, and above the budget otherwise', () => {
  fc.assert(
    fc.property(blockOf(natural, 600), fc.nat({ max: 40_000 }), (xs, budget) => {
      const src = Float64Array.from(xs);
      const w = new ByteWriter(1);
      packNumbers(w, src, 0, src.length);
      const exact = w.len * 8;
      assert.equal(packedBitsWithin(src, 0, src.length, Infinity), exact);
      const within = packedBitsWithin(src, 0, src.length, budget);
      if (exact <= budget) assert.equal(within, exact);
      else assert.ok(within > budget, `${within} > ${budget}`);
    }),
  );
});

test('pinned shapes: empty, one, zero runs, each selector width, 1000 values', () => {
  roundTripNumbers([]);
  roundTripNumbers([0]);
  roundTripNumbers([2 ** 53 - 1]);
  roundTripNumbers(new Array<number>(1000).fill(0));
  for (const width of [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 31, 32, 33, 52, 53]) {
    roundTripNumbers(Array.from({ length: 250 }, (_, i) => (i % 2 === 0 ? 2 ** width - 1 : i % 3)));
  }
  roundTripNumbers(Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000));
});

test('runs of zeros pack 240 to a word', () => {
  const w = new ByteWriter();
  packNumbers(w, new Float64Array(480), 0, 480);
  assert.equal(w.len, 16);
});

test('halves up to 2^60 − 1 round-trip', () => {
  fc.assert(
    fc.property(blockOf(fc.oneof(fc.bigInt(0n, 2n ** 60n - 1n), fc.bigInt(0n, 100n)), 300), (xs) => {
      const src = BigUint64Array.from(xs);
      const h = new Uint32Array(src.buffer);
      assert.ok(fitsSimple8b(h, 0, xs.length));
      const w = new ByteWriter(1);
      packHalves(w, h, 0, xs.length);
      const out = new BigUint64Array(xs.length);
      unpackHalves(new ByteReader(w.finish()), new Uint32Array(out.buffer), 0, xs.length);
      assert.deepEqual(Array.from(out), xs);
    }),
  );
});

test('values of 2^60 and above are refused', () => {
  const h = new Uint32Array(new BigUint64Array([1n, 2n ** 60n]).buffer);
  assert.equal(fitsSimple8b(h, 0, 2), false);
  assert.throws(() => packHalves(new ByteWriter(), h, 0, 2), InvariantError);
});

test('truncated words are CorruptionError', () => {
  const w = new ByteWriter();
  packNumbers(w, Float64Array.from([1, 2, 3, 1000, 2 ** 40]), 0, 5);
  const bytes = w.finish();
  for (let cut = 0; cut < bytes.length; cut++) {
    assertCorrupt(() => unpackNumbers(new ByteReader(bytes.subarray(0, cut)), new Float64Array(5), 0, 5));
  }
});
