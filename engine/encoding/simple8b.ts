/**
 * simple8b: packs runs of unsigned integers below 2^60 into 64-bit words.
 *
 * Word (8 bytes, big-endian): selector in the top 4 bits, 60 payload bits below it. Value j of
 * the word occupies payload bits [j*w, (j+1)*w), counted from the least significant bit.
 *
 *   selector   0    1    2   3   4   5   6   7   8   9  10  11  12  13  14  15
 *   values   240  120   60  30  20  15  12  10   8   7   6   5   4   3   2   1
 *   bits       0    0    1   2   3   4   5   6   7   8  10  12  15  20  30  60
 *
 * Selectors 0 and 1 are runs of zeros (our callers feed frame-of-reference and zigzag deltas,
 * where 0 is the common value; InfluxDB uses runs of ones). The last word may hold fewer
 * values than its selector allows: the count is stored by the caller, and padding is zero.
 *
 * Inputs come as numbers (< 2^53) or as interleaved uint32 halves [lo, hi, lo, hi, …] (the
 * Uint32Array view of a BigUint64Array). A value ≥ 2^60 is a caller bug: check `fitsSimple8b`
 * first and use a raw encoding instead.
 */
import { ByteWriter, ByteReader, TWO_32, unzigzag } from './varint.js';
import { InvariantError } from '../errors.js';

const N = [240, 120, 60, 30, 20, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1] as const;
const W = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 60] as const;

let widths = new Uint8Array(1024);
let halvesScratch = new Uint32Array(2048);
/** Prefix maxima of `widths` for the word being built (one slot per candidate value). */
const prefixMax = new Uint8Array(241);

function bitWidth(lo: number, hi: number): number {
  return hi !== 0 ? 64 - Math.clz32(hi) : 32 - Math.clz32(lo);
}

/** True when every value in halves[2*start..2*end) is below 2^60. */
export function fitsSimple8b(halves: Uint32Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (halves[2 * i + 1]! >= 0x10000000) return false;
  return true;
}

/** Packs `count` numbers (each an integer in [0, 2^53)) from src[start..]. */
export function packNumbers(out: ByteWriter, src: Float64Array, start: number, count: number): void {
  if (halvesScratch.length < 2 * count) halvesScratch = new Uint32Array(2 * count * 2);
  const h = halvesScratch;
  for (let i = 0; i < count; i++) {
    const v = src[start + i]!;
    if (v < TWO_32) {
      h[2 * i] = v;
      h[2 * i + 1] = 0;
    } else {
      const hi = Math.floor(v / TWO_32);
      h[2 * i] = v - hi * TWO_32;
      h[2 * i + 1] = hi;
    }
  }
  packHalves(out, h, 0, count);
}

/** Packs values start..start+count of the interleaved halves array. */
export function packHalves(out: ByteWriter, h: Uint32Array, start: number, count: number): void {
  if (widths.length < count) widths = new Uint8Array(count * 2);
  const wd = widths;
  for (let i = 0; i < count; i++) {
    const w = bitWidth(h[2 * (start + i)]!, h[2 * (start + i) + 1]!);
    if (w > 60) throw new InvariantError('simple8b value ≥ 2^60; caller must use a raw encoding');
    wd[i] = w;
  }
  for (let i = 0; i < count; ) {
    const sel = selectorAt(wd, i, count);
    const n = count - i < N[sel]! ? count - i : N[sel]!;
    writeWord(out, h, start + i, n, sel);
    i += n;
  }
}

/**
 * The bits packNumbers would write for `count` numbers from src[start..] (whole words), or,
 * as soon as that is certain to exceed `budget`, some number above it. Callers weigh simple8b
 * against another encoding of known size and pack only when simple8b wins, so the losing
 * side's words are neither converted to halves nor written, and its search stops early.
 */
export function packedBitsWithin(src: Float64Array, start: number, count: number, budget: number): number {
  if (widths.length < count) widths = new Uint8Array(count * 2);
  const wd = widths;
  for (let i = 0; i < count; i++) {
    const v = src[start + i]!;
    const w = v < TWO_32 ? 32 - Math.clz32(v) : 64 - Math.clz32(Math.floor(v / TWO_32));
    if (w > 60) throw new InvariantError('simple8b value ≥ 2^60; caller must use a raw encoding');
    wd[i] = w;
  }
  let bits = 0;
  for (let i = 0; i < count; ) {
    const sel = selectorAt(wd, i, count);
    bits += 64;
    if (bits > budget) return bits;
    // `rem` outside the choice: a subtraction only in the last word's arm had no type feedback
    // when this was optimised (the search mostly stops early) and deoptimised it there.
    const rem = count - i;
    i += rem < N[sel]! ? rem : N[sel]!;
  }
  return bits;
}

/** The densest selector whose width fits the values from wd[i] on (as many as it holds). */
function selectorAt(wd: Uint8Array, i: number, count: number): number {
  const rem = count - i;
  let known = 0; // prefixMax[0..known) computed
  let max = 0;
  for (let s = 0; s < 16; s++) {
    const need = rem < N[s]! ? rem : N[s]!;
    const limit = W[s]!;
    while (known < need && max <= limit) {
      const w = wd[i + known]!;
      if (w > max) max = w;
      prefixMax[known++] = max;
    }
    if (known >= need && prefixMax[need - 1]! <= limit) return s;
  }
  return 15;
}

function writeWord(out: ByteWriter, h: Uint32Array, from: number, n: number, sel: number): void {
  let lo = 0;
  let hi = 0;
  if (sel === 15) {
    lo = h[2 * from]!;
    hi = h[2 * from + 1]!;
  } else if (sel >= 2) {
    const w = W[sel]!;
    // Every width here is ≤ 30, so a value sits in `lo` and may straddle into `hi`. The
    // straddling part is added for every value below bit 32 (it is 0 unless the value crosses
    // bit 32; two shifts because a shift by 32 is a shift by 0): a branch of its own ran only
    // for some widths, so optimised code met it without type feedback and was thrown away
    // (five deopts of packHalves in one cold 3 h sensor run, perf/README.md section 17).
    for (let j = 0, p = 0; j < n; j++, p += w) {
      const v = h[2 * (from + j)]!;
      if (p < 32) {
        lo |= v << p;
        hi |= (v >>> 1) >>> (31 - p);
      } else {
        hi |= v << (p - 32);
      }
    }
  }
  out.int64be(lo, (hi | (sel << 28)) >>> 0);
}

/** Reads words until `count` values are written to out[outStart..]; values as numbers. */
export function unpackNumbers(r: ByteReader, out: Float64Array, outStart: number, count: number): void {
  walkPacked(r, out, outStart, count, 0);
}

/**
 * `from` plus the next `count` values read as zigzag deltas (varint.ts unzigzag), without
 * storing them: the last value of a delta-coded column (integer.ts). Every partial sum is a
 * value of that column, so for a column of safe integers the running double is exact.
 */
export function sumPackedDeltas(r: ByteReader, from: number, count: number): number {
  return walkPacked(r, null, 0, count, from);
}

/** The one unpacking loop of both: stores values into `out` when given, else adds them to `acc` as zigzag deltas. */
function walkPacked(r: ByteReader, out: Float64Array | null, outStart: number, count: number, acc: number): number {
  const b = r.buf;
  let p = r.pos;
  let i = outStart;
  const end = outStart + count;
  while (i < end) {
    if (p + 8 > r.end) {
      r.pos = p;
      throw r.corrupt('simple8b: truncated word');
    }
    const hiw = ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
    const lo = ((b[p + 4]! << 24) | (b[p + 5]! << 16) | (b[p + 6]! << 8) | b[p + 7]!) >>> 0;
    p += 8;
    const sel = hiw >>> 28;
    const hi = hiw & 0x0fffffff;
    const rem = end - i;
    const n = rem < N[sel]! ? rem : N[sel]!;
    if (sel <= 1) {
      if (out !== null) out.fill(0, i, i + n);
    } else if (sel === 15) {
      if (out !== null) out[i] = hi * TWO_32 + lo;
      else acc += unzigzag(hi * TWO_32 + lo);
    } else {
      const w = W[sel]!;
      const mask = (1 << w) - 1;
      // Values wholly in lo, then the one straddling, then those wholly in hi.
      let j = 0;
      let q = 0;
      if (out === null) {
        // unzigzag's small-value branch written out (a call per value otherwise), as integer.ts does.
        for (; q + w <= 32 && j < n; j++, q += w) {
          const z = (lo >>> q) & mask;
          acc += z < 2147483648 ? (z >>> 1) ^ -(z & 1) : unzigzag(z);
        }
        if (j < n && q < 32) {
          acc += unzigzag(((lo >>> q) | (hi << (32 - q))) & mask);
          j++;
          q += w;
        }
        for (; j < n; j++, q += w) {
          const z = (hi >>> (q - 32)) & mask;
          acc += z < 2147483648 ? (z >>> 1) ^ -(z & 1) : unzigzag(z);
        }
      } else {
        for (; q + w <= 32 && j < n; j++, q += w) out[i + j] = (lo >>> q) & mask;
        if (j < n && q < 32) {
          out[i + j] = ((lo >>> q) | (hi << (32 - q))) & mask;
          j++;
          q += w;
        }
        for (; j < n; j++, q += w) out[i + j] = (hi >>> (q - 32)) & mask;
      }
    }
    i += n;
  }
  r.pos = p;
  return acc;
}

/** Like unpackNumbers, into interleaved halves out[2*outStart..]. */
export function unpackHalves(r: ByteReader, out: Uint32Array, outStart: number, count: number): void {
  const tmp = new Float64Array(count);
  const save = r.pos;
  // Only selector 15 carries values ≥ 2^32; decode as numbers except for those words.
  let i = 0;
  let p = save;
  const b = r.buf;
  while (i < count) {
    if (p + 8 > r.end) {
      r.pos = p;
      throw r.corrupt('simple8b: truncated word');
    }
    const sel = b[p]! >>> 4;
    const rem = count - i;
    const n = rem < N[sel]! ? rem : N[sel]!;
    if (sel === 15) {
      r.pos = p;
      r.int64be();
      out[2 * (outStart + i)] = r.lo;
      out[2 * (outStart + i) + 1] = r.hi & 0x0fffffff;
      p += 8;
    } else {
      r.pos = p;
      unpackNumbers(r, tmp, i, n);
      p = r.pos;
      for (let j = i; j < i + n; j++) {
        out[2 * (outStart + j)] = tmp[j]!;
        out[2 * (outStart + j) + 1] = 0;
      }
    }
    i += n;
  }
  r.pos = p;
}
