/**
 * The in-memory index of one TSM file: the raw index bytes as read from disk plus one Int32Array
 * of key-record offsets. A million-key file costs its index bytes + 4 MB, not a million JS
 * objects; entry fields are decoded on demand. Key lookup is a binary search comparing UTF-8
 * bytes (Buffer.compare order, the order the writer enforces); time lookup is a binary search
 * over a key's entries, which are ascending and non-overlapping.
 *
 * `parse` validates the whole structure once (lengths inside the section, keys strictly
 * ascending, known types, entries ordered and pointing inside the blocks section), so every
 * accessor afterwards can trust the bytes. Record layout: see format.ts.
 */
import { Buffer } from 'node:buffer';
import { CorruptionError, InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import {
  BLOCK_CHECKSUM_SIZE,
  ENTRY_COUNT_OFFSET,
  ENTRY_MAX_TIME_OFFSET,
  ENTRY_MIN_TIME_OFFSET,
  ENTRY_OFFSET_OFFSET,
  ENTRY_SIZE,
  ENTRY_SIZE_OFFSET,
  HEADER_SIZE,
  KEY_LENGTH_SIZE,
  KEY_TRAILER_SIZE,
  isFieldTypeCode,
} from './format.js';

/** One block of one key. Times are int64 nanoseconds, inclusive. */
export interface BlockEntry {
  readonly minTime: bigint;
  readonly maxTime: bigint;
  /** File offset of the block record (its checksum); the payload follows the checksum. */
  readonly offset: number;
  /** Payload bytes, without the checksum. */
  readonly size: number;
  /** Number of values encoded in the payload. */
  readonly count: number;
}

/** What the footer says about the index, needed to validate it. */
export interface IndexLayout {
  /** File name for CorruptionError. */
  readonly file: string;
  /** File offset of the first index byte; blocks must end at or before it. */
  readonly indexOffset: number;
  readonly keyCount: number;
  readonly blockCount: number;
}

/** Offsets inside a key record beyond Number.MAX_SAFE_INTEGER are refused at parse. */
const MAX_SAFE_HIGH_WORD = 0x1fffff;
const TWO_POW_32 = 0x1_0000_0000;

export class BlockIndex {
  private constructor(
    private readonly bytes: Buffer,
    private readonly view: DataView,
    private readonly keyOffsets: Int32Array,
    readonly blockCount: number,
    readonly valueCount: number,
    readonly minTime: bigint,
    readonly maxTime: bigint,
  ) {}

  /** Validates and wraps `bytes` (the whole index section). Throws CorruptionError. */
  static parse(bytes: Buffer, layout: IndexLayout): BlockIndex {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const corrupt = (pos: number, reason: string) => new CorruptionError(layout.file, layout.indexOffset + pos, reason);
    if (layout.keyCount === 0) throw corrupt(0, 'index has no keys (empty TSM files are never written)');
    const need = (pos: number, end: number) => {
      if (end > bytes.length) throw corrupt(pos, `index record runs past the index end (${end} > ${bytes.length})`);
    };
    const keyOffsets = new Int32Array(layout.keyCount);
    let pos = 0;
    let prevKeyStart = 0;
    let prevKeyEnd = 0;
    let blocks = 0;
    let values = 0;
    let minAt = -1;
    let maxAt = -1;
    for (let k = 0; k < layout.keyCount; k++) {
      need(pos, pos + KEY_LENGTH_SIZE);
      const keyLen = view.getUint16(pos);
      const keyStart = pos + KEY_LENGTH_SIZE;
      const keyEnd = keyStart + keyLen;
      need(pos, keyEnd + KEY_TRAILER_SIZE);
      if (keyLen === 0) throw corrupt(pos, 'empty key');
      if (k > 0 && bytes.compare(bytes, prevKeyStart, prevKeyEnd, keyStart, keyEnd) <= 0) {
        throw corrupt(pos, 'keys not in strictly ascending byte order');
      }
      const type = view.getUint8(keyEnd);
      if (!isFieldTypeCode(type)) throw corrupt(keyEnd, `unknown block type ${type}`);
      const n = view.getUint32(keyEnd + 1);
      if (n === 0) throw corrupt(keyEnd + 1, 'key with no blocks');
      const first = keyEnd + KEY_TRAILER_SIZE;
      need(pos, first + n * ENTRY_SIZE);
      for (let j = 0; j < n; j++) {
        const e = first + j * ENTRY_SIZE;
        if (compareI64(view, e + ENTRY_MIN_TIME_OFFSET, e + ENTRY_MAX_TIME_OFFSET) > 0) {
          throw corrupt(e, 'block minTime after maxTime');
        }
        if (j > 0 && compareI64(view, e - ENTRY_SIZE + ENTRY_MAX_TIME_OFFSET, e + ENTRY_MIN_TIME_OFFSET) >= 0) {
          throw corrupt(e, 'blocks of a key overlap or are out of time order');
        }
        const high = view.getUint32(e + ENTRY_OFFSET_OFFSET);
        const offset = u64At(view, e + ENTRY_OFFSET_OFFSET);
        const size = view.getUint32(e + ENTRY_SIZE_OFFSET);
        const count = view.getUint32(e + ENTRY_COUNT_OFFSET);
        if (high > MAX_SAFE_HIGH_WORD || offset < HEADER_SIZE || offset + BLOCK_CHECKSUM_SIZE + size > layout.indexOffset) {
          throw corrupt(e, `block at ${offset} (+${size}) outside the blocks section`);
        }
        if (size === 0 || count === 0) throw corrupt(e, 'empty block');
        values += count;
      }
      const last = first + (n - 1) * ENTRY_SIZE;
      if (minAt < 0 || compareI64(view, first + ENTRY_MIN_TIME_OFFSET, minAt) < 0) minAt = first + ENTRY_MIN_TIME_OFFSET;
      if (maxAt < 0 || compareI64(view, last + ENTRY_MAX_TIME_OFFSET, maxAt) > 0) maxAt = last + ENTRY_MAX_TIME_OFFSET;
      blocks += n;
      keyOffsets[k] = pos;
      prevKeyStart = keyStart;
      prevKeyEnd = keyEnd;
      pos = first + n * ENTRY_SIZE;
    }
    if (pos !== bytes.length) throw corrupt(pos, `${bytes.length - pos} bytes after the last key record`);
    if (blocks !== layout.blockCount) throw corrupt(0, `index has ${blocks} blocks, footer says ${layout.blockCount}`);
    return new BlockIndex(bytes, view, keyOffsets, blocks, values, view.getBigInt64(minAt), view.getBigInt64(maxAt));
  }

  get keyCount(): number {
    return this.keyOffsets.length;
  }

  /** Position of `key` in byte order, or -1. */
  findKey(key: string | Uint8Array): number {
    const target = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
    let lo = 0;
    let hi = this.keyOffsets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.record(mid);
      const start = p + KEY_LENGTH_SIZE;
      const c = this.bytes.compare(target, 0, target.length, start, start + this.view.getUint16(p));
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  keyAt(i: number): string {
    const p = this.record(i);
    return this.bytes.toString('utf8', p + KEY_LENGTH_SIZE, p + KEY_LENGTH_SIZE + this.view.getUint16(p));
  }

  /** The key's UTF-8 bytes, a view into the index (do not mutate). */
  keyBytesAt(i: number): Uint8Array {
    const p = this.record(i);
    return this.bytes.subarray(p + KEY_LENGTH_SIZE, p + KEY_LENGTH_SIZE + this.view.getUint16(p));
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.keyOffsets.length; i++) yield this.keyAt(i);
  }

  typeAt(i: number): FieldType {
    const type = this.view.getUint8(this.trailer(i));
    if (!isFieldTypeCode(type)) throw new InvariantError(`validated index holds type ${type}`);
    return type;
  }

  entryCountAt(i: number): number {
    return this.view.getUint32(this.trailer(i) + 1);
  }

  entryAt(i: number, j: number): BlockEntry {
    if (j < 0 || j >= this.entryCountAt(i) || !Number.isInteger(j)) {
      throw new InvariantError(`entry ${j} out of range for key ${i}`);
    }
    const e = this.trailer(i) + KEY_TRAILER_SIZE + j * ENTRY_SIZE;
    const v = this.view;
    return {
      minTime: v.getBigInt64(e + ENTRY_MIN_TIME_OFFSET),
      maxTime: v.getBigInt64(e + ENTRY_MAX_TIME_OFFSET),
      offset: u64At(v, e + ENTRY_OFFSET_OFFSET),
      size: v.getUint32(e + ENTRY_SIZE_OFFSET),
      count: v.getUint32(e + ENTRY_COUNT_OFFSET),
    };
  }

  entriesAt(i: number): BlockEntry[] {
    const n = this.entryCountAt(i);
    const out: BlockEntry[] = new Array<BlockEntry>(n);
    for (let j = 0; j < n; j++) out[j] = this.entryAt(i, j);
    return out;
  }

  /**
   * Entry positions [start, end) of key `i` whose blocks overlap [minTime, maxTime]
   * (both inclusive); start === end when none do.
   */
  entryRangeAt(i: number, minTime: bigint, maxTime: bigint): { start: number; end: number } {
    const first = this.trailer(i) + KEY_TRAILER_SIZE;
    const n = this.entryCountAt(i);
    const v = this.view;
    // Entries are sorted by both minTime and maxTime (non-overlapping), so two lower bounds do.
    const start = lowerBound(n, (j) => v.getBigInt64(first + j * ENTRY_SIZE + ENTRY_MAX_TIME_OFFSET) < minTime);
    const end = lowerBound(n, (j) => v.getBigInt64(first + j * ENTRY_SIZE + ENTRY_MIN_TIME_OFFSET) <= maxTime);
    return { start, end: Math.max(start, end) };
  }

  private record(i: number): number {
    const p = this.keyOffsets[i];
    if (p === undefined) throw new InvariantError(`key position ${i} out of range 0..${this.keyOffsets.length - 1}`);
    return p;
  }

  /** Offset of the type byte that follows key `i`. */
  private trailer(i: number): number {
    const p = this.record(i);
    return p + KEY_LENGTH_SIZE + this.view.getUint16(p);
  }
}

/** First j in [0, n) for which `before(j)` is false; `before` must be monotone (true…false). */
function lowerBound(n: number, before: (j: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const HIGH_WORD = 0;
const LOW_WORD = 4;

/** Compares two big-endian int64 fields without allocating BigInts (open walks every entry). */
function compareI64(view: DataView, a: number, b: number): number {
  return view.getInt32(a + HIGH_WORD) - view.getInt32(b + HIGH_WORD) || view.getUint32(a + LOW_WORD) - view.getUint32(b + LOW_WORD);
}

/** A big-endian u64 as a number; parse() guarantees offsets fit in 2^53. */
function u64At(view: DataView, at: number): number {
  return view.getUint32(at + HIGH_WORD) * TWO_POW_32 + view.getUint32(at + LOW_WORD);
}
