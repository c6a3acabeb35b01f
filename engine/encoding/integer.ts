/**
 * Signed int64 column encoding: zigzag deltas packed with simple8b or a per-block Huffman
 * code, RLE for constant deltas, raw fallback. The value count is stored by the caller.
 *
 *   u8 mode
 *   0 RAW          count × int64 BE
 *   1 RLE narrow   svarint first, svarint delta                (count ≥ 2; count 1: first only)
 *   2 S8B narrow   svarint first, simple8b of zigzag deltas    (count − 1 values)
 *   3 RLE wide     as 1, deltas taken modulo 2^64
 *   4 S8B wide     as 2, deltas taken modulo 2^64
 *   5 HUF narrow   svarint first, huffman.ts code of the zigzag deltas (count − 1 values);
 *                  chosen over 2 when smaller (random walks: ≈ 2.3 instead of 3 bits/value)
 *
 * "Narrow" promises the decoder that every value is a safe integer and every delta is below
 * 2^52 in magnitude, so it may run on doubles. "Wide" blocks (values beyond 2^53, or huge
 * jumps) run on uint32 halves with wrapping 64-bit arithmetic; RAW is used when a zigzag
 * delta reaches 2^60 (simple8b's limit). int64 min/max round-trip through the wide path.
 *
 * Input: Float64Array when every value is a safe integer, else BigInt64Array. Output follows
 * the same rule. The unsigned encoding (unsigned.ts) shares this core with `signed = false`.
 */
import { ByteWriter, ByteReader, TWO_32, MAX_SAFE, zigzag, unzigzag } from './varint.js';
import { packHalves, unpackNumbers, unpackHalves, fitsSimple8b, sumPackedDeltas } from './simple8b.js';
import { readHuffman, sumHuffmanDeltas } from './huffman.js';
import { appendPacked, prefersHuffman } from './packing.js';

export const INT_RAW = 0;
export const INT_RLE = 1;
export const INT_S8B = 2;
export const INT_RLE_WIDE = 3;
export const INT_S8B_WIDE = 4;
export const INT_HUF = 5;

const NARROW_DELTA = 2 ** 52;
let scratch = new Float64Array(1024);
let wide = new Uint32Array(2048);

export function halvesOf(a: Float64Array | BigInt64Array | BigUint64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
}

export function appendIntegers(out: ByteWriter, values: Float64Array | BigInt64Array, start: number, end: number): void {
  appendInt64(out, values, start, end);
}

export function encodeIntegers(values: Float64Array | BigInt64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(16 + (end - start) * 2);
  appendInt64(w, values, start, end);
  return w.finish();
}

/** Shared by integer and unsigned columns: the bit patterns are what is encoded. */
export function appendInt64(
  out: ByteWriter,
  values: Float64Array | BigInt64Array | BigUint64Array,
  start: number,
  end: number,
): void {
  const n = end - start;
  if (n <= 0) {
    out.byte(INT_S8B);
    return;
  }
  if (values instanceof Float64Array && appendNarrow(out, values, start, end)) return;
  if (wide.length < 2 * n) wide = new Uint32Array(4 * n);
  const h = wide;
  if (values instanceof Float64Array) {
    for (let i = 0; i < n; i++) {
      const v = values[start + i]!;
      const hi = Math.floor(v / TWO_32);
      h[2 * i] = v - hi * TWO_32;
      h[2 * i + 1] = hi;
    }
  } else {
    h.set(halvesOf(values).subarray(2 * start, 2 * end));
  }
  appendWide(out, h, n);
}

function appendNarrow(out: ByteWriter, v: Float64Array, start: number, end: number): boolean {
  const n = end - start;
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  const z = scratch;
  const d0 = n > 1 ? v[start + 1]! - v[start]! : 0;
  let same = true;
  if (!Number.isSafeInteger(v[start]!)) return false;
  for (let i = start + 1, j = 0; i < end; i++, j++) {
    const x = v[i]!;
    const d = x - v[i - 1]!;
    // Integral doubles beyond 2^53 are accepted too: they take the wide path.
    if (d >= NARROW_DELTA || d <= -NARROW_DELTA || x > MAX_SAFE || x < -MAX_SAFE) return false;
    if (d !== d0) same = false;
    z[j] = zigzag(d);
  }
  if (same) {
    out.byte(INT_RLE);
    out.svarint(v[start]!);
    if (n > 1) out.svarint(d0);
    return true;
  }
  const huffman = prefersHuffman(z, 0, n - 1);
  out.byte(huffman ? INT_HUF : INT_S8B);
  out.svarint(v[start]!);
  appendPacked(out, z, 0, n - 1, huffman);
  return true;
}

/** h holds n values as halves; rewrites entries 1..n-1 into zigzag deltas. */
function appendWide(out: ByteWriter, h: Uint32Array, n: number): void {
  const firstLo = h[0]!;
  const firstHi = h[1]!;
  let plo = firstLo;
  let phi = firstHi;
  for (let i = 1; i < n; i++) {
    const lo = h[2 * i]!;
    const hi = h[2 * i + 1]!;
    const dlo = (lo - plo) >>> 0;
    const dhi = (hi - phi - (lo < plo ? 1 : 0)) | 0;
    plo = lo;
    phi = hi;
    const s = dhi >> 31;
    h[2 * i] = (dlo << 1) ^ s;
    h[2 * i + 1] = ((dhi << 1) | (dlo >>> 31)) ^ s;
  }
  let same = true;
  for (let i = 2; i < n && same; i++) same = h[2 * i] === h[2] && h[2 * i + 1] === h[3];
  if (same) {
    out.byte(INT_RLE_WIDE);
    out.svarint64(firstLo, firstHi);
    if (n > 1) out.uvarint64(h[2]!, h[3]!);
    return;
  }
  if (fitsSimple8b(h, 1, n)) {
    out.byte(INT_S8B_WIDE);
    out.svarint64(firstLo, firstHi);
    packHalves(out, h, 1, n - 1);
    return;
  }
  // Undo the zigzag deltas: raw stores the values themselves.
  out.byte(INT_RAW);
  out.int64be(firstLo, firstHi);
  let lo = firstLo;
  let hi = firstHi;
  for (let i = 1; i < n; i++) {
    const zlo = h[2 * i]!;
    const zhi = h[2 * i + 1]!;
    const m = -(zlo & 1);
    const dlo = (((zlo >>> 1) | (zhi << 31)) ^ m) >>> 0;
    const dhi = ((zhi >>> 1) ^ m) >>> 0;
    const nlo = (lo + dlo) >>> 0;
    hi = (hi + dhi + (nlo < lo ? 1 : 0)) >>> 0;
    lo = nlo;
    out.int64be(lo, hi);
  }
}

export function decodeIntegers(bytes: Uint8Array, count: number): Float64Array | BigInt64Array {
  return readIntegers(new ByteReader(bytes), count);
}

export function readIntegers(r: ByteReader, count: number, out?: Float64Array, limit = count): Float64Array | BigInt64Array {
  const v = readInt64(r, count, true, out, limit);
  return v instanceof Float64Array ? v : new BigInt64Array(v.buffer, v.byteOffset, count);
}

/**
 * Decodes `count` values. Returns a Float64Array when every value is a safe integer (for
 * `signed = false`: in [0, 2^53)), else the raw bit patterns as interleaved uint32 halves.
 * Narrow blocks decode into `out` when it is given and large enough (the common case).
 * `limit` (1..count): a reader that needs only the first values; narrow blocks then stop
 * there and return exactly `limit` values (the reader is left inside the section, so only
 * for a section read last), the other modes still return all `count`.
 */
export function readInt64(r: ByteReader, count: number, signed: boolean, out?: Float64Array, limit = count): Float64Array | Uint32Array {
  const at = r.pos;
  const mode = r.byte();
  if (count === 0) return new Float64Array(0);
  if (mode === INT_RLE || mode === INT_S8B || mode === INT_HUF) {
    const n = limit > 0 && limit < count ? limit : count;
    const o = out && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
    let v = r.svarint();
    o[0] = v;
    if (mode === INT_RLE) {
      const d = n > 1 ? r.svarint() : 0;
      for (let i = 1; i < n; i++) o[i] = v += d;
    } else {
      if (mode === INT_S8B) {
        unpackNumbers(r, o, 1, n - 1);
      } else {
        readHuffman(r, o, 1, n - 1);
      }
      // unzigzag's small-value branch written out: a call per value was most of a young process's decode.
      for (let i = 1; i < n; i++) {
        const z = o[i]!;
        o[i] = v += z < 2147483648 ? (z >>> 1) ^ -(z & 1) : unzigzag(z);
      }
    }
    return o;
  }
  const h = new Uint32Array(2 * count);
  if (mode === INT_RAW) {
    r.need(8 * count);
    for (let i = 0; i < count; i++) {
      r.int64be();
      h[2 * i] = r.lo;
      h[2 * i + 1] = r.hi;
    }
  } else if (mode === INT_RLE_WIDE || mode === INT_S8B_WIDE) {
    r.svarint64();
    h[0] = r.lo;
    h[1] = r.hi;
    if (mode === INT_RLE_WIDE) {
      if (count > 1) r.uvarint64();
      for (let i = 1; i < count; i++) {
        h[2 * i] = r.lo;
        h[2 * i + 1] = r.hi;
      }
    } else {
      unpackHalves(r, h, 1, count - 1);
    }
    undelta(h, count);
  } else {
    throw r.corrupt(`unknown integer encoding ${mode}`, at);
  }
  return narrowIfSafe(h, count, signed) ?? h;
}

/** readIntegers' last value alone, as a one-element array (readInt64Last). */
export function readLastInteger(r: ByteReader, count: number): Float64Array | BigInt64Array {
  const v = readInt64Last(r, count, true);
  return v instanceof Float64Array ? v : new BigInt64Array(v.buffer, v.byteOffset, 1);
}

/**
 * The last of `count` values, as readInt64 would give it, in a one-element array (empty for
 * count 0). Narrow blocks add up their deltas without storing them (a descending read of a
 * block's newest row, ORDER BY time DESC LIMIT 1, needs no other value); the other modes
 * decode the block and take its last value. `r` ends past the section.
 */
export function readInt64Last(r: ByteReader, count: number, signed: boolean): Float64Array | Uint32Array {
  const at = r.pos;
  const mode = r.byte();
  if (count === 0) return new Float64Array(0);
  if (mode === INT_RLE || mode === INT_S8B || mode === INT_HUF) {
    let v = r.svarint();
    if (mode === INT_RLE) {
      // Added step by step, as the full decode does: d * (count - 1) may round beyond 2^53.
      const d = count > 1 ? r.svarint() : 0;
      for (let i = 1; i < count; i++) v += d;
    } else if (mode === INT_S8B) {
      v = sumPackedDeltas(r, v, count - 1);
    } else {
      v = sumHuffmanDeltas(r, v, count - 1);
    }
    return Float64Array.of(v);
  }
  r.pos = at;
  const all = readInt64(r, count, signed);
  return all instanceof Float64Array ? all.subarray(count - 1) : all.subarray(2 * (count - 1));
}

/** Turns entries 1..n-1 (zigzag deltas) into values, wrapping modulo 2^64. */
function undelta(h: Uint32Array, n: number): void {
  let lo = h[0]!;
  let hi = h[1]!;
  for (let i = 1; i < n; i++) {
    const zlo = h[2 * i]!;
    const zhi = h[2 * i + 1]!;
    const m = -(zlo & 1);
    const dlo = (((zlo >>> 1) | (zhi << 31)) ^ m) >>> 0;
    const dhi = (zhi >>> 1) ^ m;
    const nlo = (lo + dlo) >>> 0;
    hi = (hi + dhi + (nlo < lo ? 1 : 0)) >>> 0;
    lo = nlo;
    h[2 * i] = lo;
    h[2 * i + 1] = hi;
  }
}

function narrowIfSafe(h: Uint32Array, n: number, signed: boolean): Float64Array | null {
  const o = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const hi = h[2 * i + 1]!;
    const v = (signed ? hi | 0 : hi) * TWO_32 + h[2 * i]!;
    if (v > MAX_SAFE || v < -MAX_SAFE) return null;
    o[i] = v;
  }
  return o;
}
