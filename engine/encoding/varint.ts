/**
 * Byte-level writer/reader shared by every encoding, with LEB128 varints and zigzag.
 *
 * Formats:
 *   uvarint   unsigned LEB128, 7 bits per byte, low group first, at most 10 bytes (64 bits).
 *   svarint   zigzag (0→0, -1→1, 1→2, …) then uvarint; covers the whole int64 range.
 *   int64     8 bytes big-endian two's complement, written as two uint32 halves.
 *
 * 64-bit quantities travel as two uint32 halves (`lo`, `hi`), never as one BigInt per value.
 * Number-valued helpers accept only safe integers (|n| ≤ 2^53 - 1); callers guarantee it.
 * Malformed input throws CorruptionError('<block>', offset, …).
 */
import { CorruptionError, InvariantError } from '../errors.js';

export const TWO_32 = 4294967296;
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
export const BLOCK_FILE = '<block>';
/** Upper bound on values per encoded section; larger counts in the bytes mean corruption. */
export const MAX_VALUES = 1 << 20;

// Every BigInt64Array ↔ Uint32Array alias in this folder assumes [lo, hi] order.
if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  throw new InvariantError('encoding requires a little-endian platform');
}

/** Growable output buffer; encoders append to it and the caller takes `finish()`. */
export class ByteWriter {
  buf: Uint8Array;
  len = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
  }

  ensure(n: number): void {
    if (this.len + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.len));
    this.buf = b;
  }

  byte(v: number): void {
    this.ensure(1);
    this.buf[this.len++] = v;
  }

  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.len);
    this.len += src.length;
  }

  /** `v` is a safe non-negative integer. */
  uvarint(v: number): void {
    this.ensure(8);
    const b = this.buf;
    while (v >= 128) {
      b[this.len++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    b[this.len++] = v;
  }

  uvarint64(lo: number, hi: number): void {
    this.ensure(10);
    const b = this.buf;
    lo >>>= 0;
    hi >>>= 0;
    while (hi !== 0 || lo >= 128) {
      b[this.len++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    b[this.len++] = lo;
  }

  /** zigzag + uvarint of the int64 held in two halves (`hi` read as signed). */
  svarint64(lo: number, hi: number): void {
    const s = hi >> 31;
    this.uvarint64((lo << 1) ^ s, ((hi << 1) | (lo >>> 31)) ^ s);
  }

  /** zigzag + uvarint of a safe integer. */
  svarint(n: number): void {
    const hi = Math.floor(n / TWO_32);
    this.svarint64(n - hi * TWO_32, hi);
  }

  u32be(v: number): void {
    this.ensure(4);
    const b = this.buf;
    const p = this.len;
    b[p] = v >>> 24;
    b[p + 1] = v >>> 16;
    b[p + 2] = v >>> 8;
    b[p + 3] = v;
    this.len = p + 4;
  }

  int64be(lo: number, hi: number): void {
    this.u32be(hi);
    this.u32be(lo);
  }

  /** Writes `v` (any int64 as bigint; one call per block, not per value). */
  bigInt64be(v: bigint): void {
    this.int64be(Number(BigInt.asUintN(32, v)), Number(BigInt.asUintN(32, v >> 32n)));
  }

  /** A copy of the written bytes, sized exactly. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Cursor over encoded bytes. Reads past `end` throw CorruptionError. */
export class ByteReader {
  pos: number;
  /**
   * Result halves of the last 64-bit read. They start as -0, a double, because they hold
   * doubles as soon as a half reaches 2^30: started as 0 (a small integer), the first such read
   * changed every ByteReader's hidden class, and each optimised reader method met "wrong map"
   * (perf/README.md section 17).
   */
  lo = -0;
  hi = -0;

  constructor(
    readonly buf: Uint8Array,
    pos = 0,
    readonly end = buf.length,
  ) {
    this.pos = pos;
  }

  corrupt(reason: string, at = this.pos): CorruptionError {
    return new CorruptionError(BLOCK_FILE, at, reason);
  }

  need(n: number): void {
    if (this.pos + n > this.end) throw this.corrupt(`truncated: need ${n} byte(s), ${this.end - this.pos} left`);
  }

  byte(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  uvarint(): number {
    this.uvarint64();
    if (this.hi >= 0x200000) throw this.corrupt('uvarint exceeds 2^53');
    return this.hi * TWO_32 + this.lo;
  }

  /** Reads into `lo`/`hi`. */
  uvarint64(): void {
    const b = this.buf;
    let lo = 0;
    let hi = 0;
    const start = this.pos;
    for (let shift = 0; ; shift += 7) {
      if (this.pos >= this.end) throw this.corrupt('truncated uvarint', start);
      if (shift > 63) throw this.corrupt('uvarint longer than 10 bytes', start);
      const x = b[this.pos++]!;
      const g = x & 127;
      // Bytes 1-5 go to `lo`, the top bits of byte 5 and bytes 6-10 to `hi`. Every byte runs
      // the same operations (the terms that do not apply are 0; a shift count is taken mod 32,
      // hence the two-step shift): branches for bytes 5 and 6 ran only on long varints, so code
      // optimised on short ones met them without type feedback and was thrown away.
      const low = shift < 32 ? g : 0;
      lo |= low << shift;
      hi |= ((low >>> 1) >>> (31 - shift)) | ((g - low) << (shift - 32));
      if (x < 128) break;
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** Reads a zigzag int64 into `lo`/`hi` (`hi` signed). */
  svarint64(): void {
    this.uvarint64();
    const m = -(this.lo & 1);
    this.lo = (((this.lo >>> 1) | (this.hi << 31)) ^ m) >>> 0;
    this.hi = (this.hi >>> 1) ^ m;
  }

  /** A zigzag value that must be a safe integer. */
  svarint(): number {
    const at = this.pos;
    this.svarint64();
    const n = this.hi * TWO_32 + this.lo;
    if (n > MAX_SAFE || n < -MAX_SAFE) throw this.corrupt('svarint outside the safe integer range', at);
    return n;
  }

  u32be(): number {
    this.need(4);
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  }

  /** Reads into `lo`/`hi` (`hi` signed). */
  int64be(): void {
    this.hi = this.u32be() | 0;
    this.lo = this.u32be();
  }

  bigInt64be(): bigint {
    this.int64be();
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }
}

/** zigzag of a safe integer with |n| < 2^52, so the result stays exact. */
export function zigzag(n: number): number {
  return n < 0 ? -2 * n - 1 : 2 * n;
}

export function unzigzag(z: number): number {
  // Bitwise fast path for the common small values; `%` on doubles is a slow fmod call.
  if (z < 2147483648) return (z >>> 1) ^ -(z & 1);
  return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
}
