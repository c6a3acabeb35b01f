import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { huffmanCost, appendHuffman, readHuffman } from './huffman.js';
import { BitWriter } from './bitstream.js';
import { ByteWriter, ByteReader } from './varint.js';
import { assertCorrupt } from './helpers.test.js';

function encode(xs: readonly number[]): { bytes: Uint8Array; bits: number } {
  const z = Float64Array.from(xs);
  const bits = huffmanCost(z, 0, z.length);
  const out = new ByteWriter(1);
  const w = new BitWriter(out);
  appendHuffman(w, z, 0, z.length);
  w.flush();
  return { bytes: out.finish(), bits };
}

function roundTrip(xs: readonly number[]): Uint8Array {
  const { bytes, bits } = encode(xs);
  assert.equal(bytes.length, Math.ceil(bits / 8), 'huffmanCost predicts the size');
  const out = new Float64Array(xs.length + 1);
  const r = new ByteReader(bytes);
  readHuffman(r, out, 1, xs.length);
  assert.deepEqual(Array.from(out.subarray(1)), [...xs]);
  assert.equal(r.pos, bytes.length);
  return bytes;
}

const small = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 16, max: 2 ** 24 - 1 }) },
);

test('small values and escapes round-trip; the cost is exact', () => {
  fc.assert(fc.property(fc.array(small, { minLength: 1, maxLength: 500 }), (xs) => void roundTrip(xs)));
});

test('pinned: one symbol, all escapes, skewed counts that need length limiting, 1000 values', () => {
  roundTrip([0]);
  roundTrip([3, 3, 3]);
  roundTrip([16, 17, 2 ** 24 - 1, 100]);
  // Geometric counts give a 16-deep tree; lengths are flattened to at most 10 bits.
  const skewed = Array.from({ length: 17 }, (_, s) => new Array<number>(2 ** (16 - s)).fill(s)).flat();
  roundTrip(skewed);
  const walk = Array.from({ length: 1000 }, (_, i) => [0, 0, 0, 1, 2, 1, 2, 3, 4, 0][i % 10]!);
  assert.ok(roundTrip(walk).length < 1000 * 0.3);
});

test('decode tables are kept per code: streams of the same and of other codes, interleaved, decode alike; nothing is written past count', () => {
  const streams = [
    [0, 1, 2, 1, 0, 3, 2, 1, 0, 0, 1],
    [5, 5, 6, 4, 5, 5, 5, 6],
    [0, 1, 2, 1, 0, 3, 2, 1, 0, 0, 1].reverse(),
    [16, 0, 0, 0, 1, 0, 0, 0, 2 ** 20],
  ];
  for (let round = 0; round < 2; round++) {
    for (const xs of streams) {
      const { bytes } = encode(xs);
      const out = new Float64Array(xs.length + 8).fill(-1);
      readHuffman(new ByteReader(bytes), out, 2, xs.length);
      assert.deepEqual(Array.from(out), [-1, -1, ...xs, ...new Array<number>(6).fill(-1)]);
    }
  }
});

test('values of 2^24 and above are refused', () => {
  assert.equal(huffmanCost(Float64Array.of(1, 2 ** 24), 0, 2), Infinity);
});

test('corrupt input is CorruptionError', () => {
  const bytes = roundTrip([0, 1, 2, 3, 20, 0, 1, 1000, 5]);
  for (let cut = 0; cut < bytes.length; cut++) {
    const b = bytes.subarray(0, cut);
    assertCorrupt(() => readHuffman(new ByteReader(b), new Float64Array(9), 0, 9));
  }
  const badLengths = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
  assertCorrupt(() => readHuffman(new ByteReader(badLengths), new Float64Array(1), 0, 1));
  const noCodes = new Uint8Array(12);
  assertCorrupt(() => readHuffman(new ByteReader(noCodes), new Float64Array(1), 0, 1));
});
