import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeTimestamps, decodeTimestamps, readTimeGrid, timestampCount, TS_RAW, TS_RLE, TS_PACKED } from './timestamp.js';
import { ByteReader } from './varint.js';
import { assertBitsEqual, assertCorrupt, seq } from './helpers.test.js';
import { MAX_VALUES } from './varint.js';
import { InvariantError } from '../errors.js';

const MAX = Number.MAX_SAFE_INTEGER;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
/** Bases that put absolute timestamps far above 2^53 and next to the int64 limits. */
const BASES: readonly bigint[] = [0n, 1_700_000_000_000_000_000n, INT64_MAX - 2n ** 53n, INT64_MIN + 2n ** 53n, -1n];

function roundTrip(base: bigint, offsets: Float64Array, decodeBase = base): Uint8Array {
  const bytes = encodeTimestamps(base, offsets, 0, offsets.length);
  assert.equal(timestampCount(bytes), offsets.length);
  const back = decodeTimestamps(bytes, decodeBase);
  const shift = Number(base - decodeBase);
  assertBitsEqual(back, offsets.map((o) => o + shift));
  return bytes;
}

const offset = fc.oneof(fc.integer({ min: -MAX, max: MAX }), fc.integer({ min: -1e6, max: 1e6 }));
const regular = fc
  .record({
    start: fc.integer({ min: -1e15, max: 1e15 }),
    step: fc.constantFrom(1, 1000, 1e6, 1e9, 10e9, 60e9, 7, 3_600_000_000_000),
    n: fc.integer({ min: 0, max: 1000 }),
    jitter: fc.constantFrom(0, 1, 1000, 1e6),
    seed: fc.nat(),
  })
  .map(({ start, step, n, jitter, seed }) =>
    seq(n, (i) => start + i * step + (jitter ? (((i * 2654435761 + seed) >>> 0) % 3) * jitter - jitter : 0)),
  );

test('random, regular, jittered and out-of-order offsets round-trip for every base', () => {
  fc.assert(
    fc.property(fc.constantFrom(...BASES), fc.oneof(fc.array(offset, { maxLength: 300 }).map((a) => Float64Array.from(a)), regular), (base, offs) => {
      roundTrip(base, offs);
    }),
    { numRuns: 300 },
  );
});

test('decoding against a different base shifts every offset', () => {
  const base = 1_700_000_000_000_000_000n;
  roundTrip(base, seq(100, (i) => i * 1e9), base - 5_000_000_000n);
});

test('regular series are RLE with a power-of-ten scale', () => {
  const bytes = roundTrip(1_700_000_000_000_000_000n, seq(1000, (i) => i * 10e9));
  assert.equal(bytes[0]! >>> 4, TS_RLE);
  assert.equal(bytes[0]! & 15, 10);
  assert.ok(bytes.length <= 13, `${bytes.length} bytes`);
});

test('readTimeGrid: regular sections as first + i * step, exactly the decoded offsets; anything else undefined', () => {
  const base = 1_700_000_000_000_000_000n;
  fc.assert(
    fc.property(fc.integer({ min: -1e15, max: 1e15 }), fc.integer({ min: -1e6, max: 1e9 }), fc.integer({ min: 1, max: 300 }), fc.option(fc.nat(299)), (first, step, n, jitterAt) => {
      const offs = Float64Array.from({ length: n }, (_, i) => first + i * step + (jitterAt !== null && i === jitterAt && i > 0 ? 1 : 0));
      const bytes = encodeTimestamps(base, offs, 0, n);
      const grid = readTimeGrid(new ByteReader(bytes), base);
      const deltas = offs.slice(1).map((t, i) => t - offs[i]!);
      const regular = n >= 2 && deltas[0]! > 0 && deltas.every((d) => d === deltas[0]);
      assert.equal(grid !== undefined, regular && (bytes[0]! >>> 4) === TS_RLE);
      if (grid) assert.deepEqual(Float64Array.from({ length: grid.count }, (_, i) => grid.first + i * grid.step), decodeTimestamps(bytes, base));
    }),
    { numRuns: 500 },
  );
});

test('pinned edge cases', () => {
  for (const base of BASES) {
    roundTrip(base, new Float64Array(0));
    roundTrip(base, Float64Array.of(0));
    roundTrip(base, Float64Array.of(MAX));
    roundTrip(base, Float64Array.of(-MAX));
    roundTrip(base, Float64Array.of(5, 5, 5, 5)); // duplicate timestamps
    roundTrip(base, Float64Array.of(3, 2, 1, 0, -1)); // descending
    roundTrip(base, Float64Array.of(0, 10, 5, 15, 10, 20)); // out of order
    const packed = roundTrip(base, seq(1000, (i) => i * 1e9 + (i % 10 === 0 ? 1e6 : 0)));
    assert.equal(packed[0]! >>> 4, TS_PACKED);
    // Neighbours 2^53 apart: deltas are not exact doubles, so RAW must be used.
    const raw = roundTrip(base, Float64Array.of(-MAX, MAX, -MAX, 0, MAX));
    assert.equal(raw[0]! >>> 4, TS_RAW);
  }
});

test('the last int64 nanosecond round-trips', () => {
  roundTrip(INT64_MAX - 10n, Float64Array.of(0, 5, 10));
  roundTrip(INT64_MIN + 10n, Float64Array.of(0, -5, -10));
});

test('decode into a caller buffer reuses it', () => {
  const offs = seq(50, (i) => i * 3);
  const buf = new Float64Array(64);
  const out = decodeTimestamps(encodeTimestamps(0n, offs, 0, 50), 0n, buf);
  assert.equal(out.buffer, buf.buffer);
  assertBitsEqual(out, offs);
});

test('encodes a sub-range', () => {
  const offs = seq(100, (i) => i * i);
  assertBitsEqual(decodeTimestamps(encodeTimestamps(7n, offs, 10, 20), 7n), offs.subarray(10, 20));
});

test('corrupt input: truncations, unknown mode, base too far away', () => {
  for (const offs of [seq(100, (i) => i * 1e9), seq(100, (i) => i * i), Float64Array.of(-MAX, MAX)]) {
    const bytes = encodeTimestamps(0n, offs, 0, offs.length);
    for (let cut = 0; cut < bytes.length; cut++) assertCorrupt(() => decodeTimestamps(bytes.subarray(0, cut), 0n));
  }
  assertCorrupt(() => decodeTimestamps(Uint8Array.of(0x30, 1), 0n));
  const far = encodeTimestamps(0n, Float64Array.of(0, 1), 0, 2);
  assertCorrupt(() => decodeTimestamps(far, 2n ** 60n));
});

test('blocks larger than MAX_VALUES are refused on write and on read', () => {
  assert.throws(() => encodeTimestamps(0n, new Float64Array(MAX_VALUES + 1), 0, MAX_VALUES + 1), InvariantError);
  // RLE header claiming MAX_VALUES + 1 timestamps.
  const w = Uint8Array.of(0x10, 0x81, 0x80, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 2);
  assertCorrupt(() => decodeTimestamps(w, 0n));
});
