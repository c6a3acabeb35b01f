/**
 * Timestamp encoding. Input and output are Float64Array offsets (ns) from a caller-chosen
 * `base: bigint`; on disk the first timestamp is absolute so a block is self-contained.
 *
 *   u8       header: high nibble = mode, low nibble = k, deltas are multiples of 10^k ns
 *   uvarint  count
 *   mode 0 RAW     count × int64 BE absolute timestamps
 *   mode 1 RLE     int64 BE first; if count ≥ 2: svarint delta / 10^k   (all deltas equal)
 *   mode 2 PACKED  int64 BE first; svarint m = min(delta) / 10^k;
 *                  simple8b of (delta / 10^k − m) for the count − 1 deltas
 *
 * Deltas may be negative (out-of-order input): the frame of reference `m` makes every packed
 * value non-negative, and regular series with jitter pack as runs of zeros. PACKED needs every
 * delta and the spread max − min below 2^53; otherwise (offsets spanning more than ~104 days
 * between neighbours, or blocks mixing ±2^52 offsets) RAW is used, which pays one BigInt per
 * value. Absolute timestamps must fit int64; offsets must satisfy |offset| ≤ 2^53 − 1;
 * a section holds at most MAX_VALUES (2^20) timestamps, far above TSM block sizes.
 */
import { ByteWriter, ByteReader, MAX_SAFE, MAX_VALUES } from './varint.js';
import { packNumbers, unpackNumbers } from './simple8b.js';
import { CorruptionError, InvariantError } from '../errors.js';

export const TS_RAW = 0;
export const TS_RLE = 1;
export const TS_PACKED = 2;

const POW10: readonly number[] = Array.from({ length: 16 }, (_, k) => 10 ** k);
let scratch = new Float64Array(1024);

export function encodeTimestamps(base: bigint, offsets: Float64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(32 + (end - start) / 4);
  appendTimestamps(w, base, offsets, start, end);
  return w.finish();
}

export function appendTimestamps(w: ByteWriter, base: bigint, offsets: Float64Array, start: number, end: number): void {
  const n = end - start;
  if (n > MAX_VALUES) throw new InvariantError(`block of ${n} values exceeds MAX_VALUES (${MAX_VALUES})`);
  if (n <= 0) {
    w.byte(TS_RLE << 4);
    w.uvarint(0);
    return;
  }
  const first = offsets[start]!;
  let k = 15;
  let div = POW10[15]!;
  let min = Infinity;
  let max = -Infinity;
  let same = true;
  let safe = true;
  const d0 = n > 1 ? offsets[start + 1]! - first : 0;
  let checked = NaN;
  for (let i = start + 1; i < end; i++) {
    const d = offsets[i]! - offsets[i - 1]!;
    if (d !== d0) same = false;
    if (d < min) min = d;
    if (d > max) max = d;
    if (d > MAX_SAFE || d < -MAX_SAFE) safe = false;
    // `%` on doubles is an fmod call: test each distinct run of deltas once.
    if (d !== checked) {
      while (k > 0 && d % div !== 0) div = POW10[--k]!;
      checked = d;
    }
  }
  if (!safe || (!same && max - min > MAX_SAFE)) {
    w.byte(TS_RAW << 4);
    w.uvarint(n);
    for (let i = start; i < end; i++) w.bigInt64be(base + BigInt(offsets[i]!));
    return;
  }
  if (n === 1) k = 0;
  w.byte(((same ? TS_RLE : TS_PACKED) << 4) | k);
  w.uvarint(n);
  w.bigInt64be(base + BigInt(first));
  if (n === 1) return;
  if (same) {
    w.svarint(d0 / div);
    return;
  }
  const m = min / div;
  w.svarint(m);
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  const s = scratch;
  for (let i = start + 1, j = 0; i < end; i++, j++) s[j] = (offsets[i]! - offsets[i - 1]!) / div - m;
  packNumbers(w, s, 0, n - 1);
}

/** Number of timestamps in an encoded section, without decoding it. */
export function timestampCount(bytes: Uint8Array, pos = 0): number {
  const r = new ByteReader(bytes, pos);
  r.byte();
  return r.uvarint();
}

/**
 * Decodes into `out` (when given and large enough) and returns the filled prefix view.
 * Offsets are relative to `base`; a timestamp whose offset exceeds 2^53 − 1 in magnitude
 * means the caller chose a base too far from the data (or the bytes are corrupt).
 */
export function decodeTimestamps(bytes: Uint8Array, base: bigint, out?: Float64Array): Float64Array {
  return readTimestamps(new ByteReader(bytes), base, out);
}

export function readTimestamps(r: ByteReader, base: bigint, out?: Float64Array): Float64Array {
  const at = r.pos;
  const h = r.byte();
  const mode = h >>> 4;
  const k = h & 15;
  const n = r.uvarint();
  if (mode > TS_PACKED) throw r.corrupt(`unknown timestamp encoding ${mode}`, at);
  if (n > MAX_VALUES || (mode === TS_PACKED && n > (r.end - r.pos) * 240 + 1)) {
    throw r.corrupt(`timestamp count ${n} exceeds what the bytes can hold`, at);
  }
  if (mode === TS_RAW) r.need(8 * n);
  const o = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
  if (n === 0) return o;
  if (mode === TS_RAW) {
    for (let i = 0; i < n; i++) o[i] = toOffset(r, r.bigInt64be() - base);
    return o;
  }
  const first = toOffset(r, r.bigInt64be() - base);
  o[0] = first;
  if (n === 1) return o;
  const div = POW10[k]!;
  if (mode === TS_RLE) {
    const d = r.svarint() * div;
    let v = first;
    for (let i = 1; i < n; i++) o[i] = v += d;
  } else {
    const m = r.svarint();
    unpackNumbers(r, o, 1, n - 1);
    let v = first;
    if (div === 1) {
      for (let i = 1; i < n; i++) o[i] = v += o[i]! + m;
    } else {
      for (let i = 1; i < n; i++) o[i] = v += (o[i]! + m) * div;
    }
  }
  const last = o[n - 1]!;
  if (last > MAX_SAFE || last < -MAX_SAFE) throw r.corrupt('timestamp offset outside ±2^53 of the base', at);
  return o;
}

/** Offsets `first + i * step` (i < count) from a section's base: a regular series' timestamps, not materialised. */
export interface TimeGrid {
  readonly first: number;
  readonly step: number;
  readonly count: number;
}

/**
 * The timestamps of an RLE section of at least two values with a positive delta, as a grid
 * relative to `base`, checked as readTimestamps checks them; undefined for any other section
 * (the caller then decodes it). Lets a reader find the rows of a time range by arithmetic.
 */
export function readTimeGrid(r: ByteReader, base: bigint): TimeGrid | undefined {
  const at = r.pos;
  const h = r.byte();
  const n = r.uvarint();
  if (h >>> 4 !== TS_RLE || n < 2 || n > MAX_VALUES) return undefined;
  const first = toOffset(r, r.bigInt64be() - base);
  const step = r.svarint() * POW10[h & 15]!;
  if (!(step > 0)) return undefined;
  if (first + (n - 1) * step > MAX_SAFE) throw r.corrupt('timestamp offset outside ±2^53 of the base', at);
  return { first, step, count: n };
}

function toOffset(r: ByteReader, d: bigint): number {
  const n = Number(d);
  if (n > MAX_SAFE || n < -MAX_SAFE) {
    throw new CorruptionError('<block>', r.pos - 8, 'timestamp offset outside ±2^53 of the base');
  }
  return n;
}
