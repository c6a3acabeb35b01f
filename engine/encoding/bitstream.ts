/**
 * Bit writer/reader, most significant bit first, over a growable Uint8Array.
 *
 * Format: bits are packed MSB-first into bytes; the last byte is zero-padded. The stream
 * stores no length: its owner knows how many values it holds and the reader fails with
 * CorruptionError when asked for bits past the end of its byte range.
 *
 * Limits: one `write`/`read` moves at most 32 bits; 64-bit quantities go as two halves.
 */
import { ByteWriter, BLOCK_FILE } from './varint.js';
import { CorruptionError } from '../errors.js';

export class BitWriter {
  /** Pending bits, left-aligned in a 32-bit word. */
  private acc = 0;
  private free = 32;

  constructor(readonly out: ByteWriter) {}

  /** Appends the low `n` bits of `v` (0 ≤ n ≤ 32); bits above `n` must be zero. */
  write(v: number, n: number): void {
    if (n < this.free) {
      this.acc |= v << (this.free - n);
      this.free -= n;
      return;
    }
    const r = n - this.free;
    this.flushWord(this.acc | (v >>> r));
    // r < 32 here, so the shift below is well defined; r = 0 leaves nothing pending.
    this.acc = r === 0 ? 0 : v << (32 - r);
    this.free = 32 - r;
  }

  private flushWord(w: number): void {
    const o = this.out;
    o.ensure(4);
    const b = o.buf;
    const p = o.len;
    b[p] = w >>> 24;
    b[p + 1] = w >>> 16;
    b[p + 2] = w >>> 8;
    b[p + 3] = w;
    o.len = p + 4;
  }

  /** Writes the pending partial word, zero-padded to a byte boundary. */
  flush(): void {
    const used = 32 - this.free;
    const o = this.out;
    o.ensure(4);
    for (let s = 24; s > 24 - used; s -= 8) o.buf[o.len++] = this.acc >>> s;
    this.acc = 0;
    this.free = 32;
  }
}

export class BitReader {
  /** Absolute bit position in `buf`. */
  pos: number;
  private readonly endBit: number;

  constructor(
    readonly buf: Uint8Array,
    start: number,
    end: number,
  ) {
    this.pos = start * 8;
    this.endBit = end * 8;
  }

  /** Byte offset just past the last bit read (where the next byte-aligned section starts). */
  byteEnd(): number {
    return (this.pos + 7) >>> 3;
  }

  /** Reads `n` bits (0 ≤ n ≤ 32) as an unsigned number. */
  read(n: number): number {
    if (n === 0) return 0;
    const p = this.pos;
    const q = p + n;
    if (q > this.endBit) throw new CorruptionError(BLOCK_FILE, p >>> 3, 'bit stream truncated');
    this.pos = q;
    const b = this.buf;
    const i = p >>> 3;
    const s = p & 7;
    if (i + 4 < b.length) {
      const w = (b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!;
      if (s + n <= 32) return (w << s) >>> (32 - n);
      return ((w << s) | (b[i + 4]! >>> (8 - s))) >>> (32 - n);
    }
    return this.readTail(i, s, n);
  }

  /** The last few bytes: pad with zeros instead of reading out of bounds (which deoptimizes). */
  private readTail(i: number, s: number, n: number): number {
    const b = this.buf;
    const at = (k: number): number => (k < b.length ? b[k]! : 0);
    const w = (at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3);
    return ((w << s) | (at(i + 4) >>> (8 - s))) >>> (32 - n);
  }

  /** The next `n` bits (1 ≤ n ≤ 25) without consuming them; bits past the end read as 0. */
  peek(n: number): number {
    const p = this.pos;
    const b = this.buf;
    const i = p >>> 3;
    if (i + 3 < this.endBit >>> 3) {
      const w = (b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!;
      return (w << (p & 7)) >>> (32 - n);
    }
    const end = this.endBit >>> 3;
    const at = (k: number): number => (k < end ? b[k]! : 0);
    const w = (at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3);
    return (w << (p & 7)) >>> (32 - n);
  }

  /** Consumes `n` bits already inspected with `peek`. */
  skip(n: number): void {
    const q = this.pos + n;
    if (q > this.endBit) throw new CorruptionError(BLOCK_FILE, this.pos >>> 3, 'bit stream truncated');
    this.pos = q;
  }

  /** Reads `n` bits (0 ≤ n ≤ 32) as a signed-agnostic uint32 bit pattern (int32 result). */
  read32(n: number): number {
    return this.read(n) | 0;
  }
}

/*
 * Hot decode loops (float.ts, float-delta.ts) skip BitReader: they read 32-bit windows from a
 * zero-padded copy of their section, so each read needs no bounds check and never loads out
 * of bounds (which deoptimizes); they check for overrun once per value instead.
 */
let padded = new Uint8Array(16384);

/**
 * buf[start..end) followed by 16 zero bytes, in shared scratch valid until the next call. One
 * decoded value reads at most ~80 bits past its start, so even the iteration that overruns a
 * truncated stream (and then throws) stays inside the padding.
 */
export function paddedCopy(buf: Uint8Array, start: number, end: number): Uint8Array {
  const size = end - start;
  if (padded.length < size + 16) padded = new Uint8Array(2 * size + 16);
  padded.set(buf.subarray(start, end));
  padded.fill(0, size, size + 16);
  return padded;
}

/** The 32 bits starting at bit `q` of `b` as an int32 pattern; `b` comes from paddedCopy. */
export function window32(b: Uint8Array, q: number): number {
  const i = q >>> 3;
  const s = q & 7;
  const w = (b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!;
  return s === 0 ? w : (w << s) | (b[i + 4]! >>> (8 - s));
}
