/**
 * The decoded, validated form of a TSM index, the same for every format version: full keys in
 * one byte buffer plus typed arrays per key and per block (structure of arrays, so a
 * million-block file costs a few flat arrays, not a million objects).
 *
 * TablesBuilder is fed by the version parsers (index-v1.ts, index-v2.ts) and enforces what
 * every version promises a reader: keys strictly ascending in byte order, known types, at
 * least one block per key, blocks of a key ascending and non-overlapping in time, non-empty
 * blocks inside the blocks section, the footer's counts. The parsers handle their own
 * encoding (lengths, varints, implied offsets) and pass the position for error reports.
 */
import { Buffer } from 'node:buffer';
import { CorruptionError } from '../errors.js';
import type { FieldType } from '../point.js';
import type { BlockStats } from './block-stats.js';
import { BLOCK_CHECKSUM_SIZE, HEADER_SIZE, MAX_U32, isFieldTypeCode } from './format.js';

/** What the footer says about the index, needed to validate it. */
export interface IndexLayout {
  /** File name for CorruptionError. */
  readonly file: string;
  /** File offset of the first index byte; blocks must end at or before it. */
  readonly indexOffset: number;
  readonly keyCount: number;
  readonly blockCount: number;
}

export interface IndexTables {
  /** Every key's UTF-8 bytes back to back; key i is keyBytes[keyStarts[i], keyStarts[i + 1]). */
  readonly keyBytes: Buffer;
  readonly keyStarts: Int32Array;
  readonly types: Uint8Array;
  /** Blocks of key i are firstEntry[i] .. firstEntry[i + 1] - 1. */
  readonly firstEntry: Int32Array;
  readonly minTimes: BigInt64Array;
  readonly maxTimes: BigInt64Array;
  readonly offsets: Float64Array;
  readonly sizes: Uint32Array;
  readonly counts: Uint32Array;
  /** Per-block stats columns; absent for version 1 files. */
  readonly stats: StatsColumns | undefined;
  readonly valueCount: number;
  readonly minTime: bigint;
  readonly maxTime: bigint;
}

/**
 * Tables posted from another thread (the flush worker parses the index of the file it wrote):
 * a structured clone keeps the arrays but not the Buffer and StatsColumns prototypes.
 */
export function reviveTables(t: IndexTables): IndexTables {
  const k = t.keyBytes;
  const stats = t.stats && (Object.setPrototypeOf(t.stats, StatsColumns.prototype) as StatsColumns);
  return { ...t, keyBytes: Buffer.from(k.buffer, k.byteOffset, k.byteLength), stats };
}

/** Block stats as columns; `has[b]` is 0 for blocks without stats, 2 when `sum` is set too. */
export class StatsColumns {
  readonly has: Uint8Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly sum: Float64Array;
  readonly minIndex: Uint32Array;
  readonly maxIndex: Uint32Array;

  constructor(blocks: number) {
    this.has = new Uint8Array(blocks);
    this.min = new Float64Array(blocks);
    this.max = new Float64Array(blocks);
    this.sum = new Float64Array(blocks);
    this.minIndex = new Uint32Array(blocks);
    this.maxIndex = new Uint32Array(blocks);
  }

  set(b: number, s: BlockStats | undefined): void {
    if (!s) return;
    this.has[b] = s.sum === undefined ? 1 : 2;
    this.min[b] = s.min;
    this.max[b] = s.max;
    this.sum[b] = s.sum ?? 0;
    this.minIndex[b] = s.minIndex;
    this.maxIndex[b] = s.maxIndex;
  }

  get(b: number): BlockStats | undefined {
    const has = this.has[b];
    if (!has) return undefined;
    // Two literals, not a spread: this runs once per block a query touches.
    if (has === 2) return { min: this.min[b]!, max: this.max[b]!, minIndex: this.minIndex[b]!, maxIndex: this.maxIndex[b]!, sum: this.sum[b]! };
    return { min: this.min[b]!, max: this.max[b]!, minIndex: this.minIndex[b]!, maxIndex: this.maxIndex[b]! };
  }
}

export class TablesBuilder {
  private keyBytes: Buffer;
  private keyLen = 0;
  private readonly keyStarts: Int32Array;
  private readonly types: Uint8Array;
  private readonly firstEntry: Int32Array;
  private readonly minTimes: BigInt64Array;
  private readonly maxTimes: BigInt64Array;
  private readonly offsets: Float64Array;
  private readonly sizes: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly stats: StatsColumns | undefined;
  private k = 0;
  private b = 0;
  private values = 0;
  private minTime = 0n;
  private maxTime = 0n;

  constructor(
    private readonly layout: IndexLayout,
    indexSize: number,
    /** Smallest number of index bytes one block entry can take in this version. */
    minEntryBytes: number,
    withStats: boolean,
  ) {
    const { keyCount, blockCount } = layout;
    if (keyCount === 0) throw this.corrupt(0, 'index has no keys (empty TSM files are never written)');
    // Refuse forged counts before allocating arrays for them.
    if (keyCount > blockCount || blockCount * minEntryBytes > indexSize) {
      throw this.corrupt(0, `footer counts (${keyCount} keys, ${blockCount} blocks) do not fit a ${indexSize}-byte index`);
    }
    this.keyBytes = Buffer.allocUnsafe(Math.max(64, indexSize));
    this.keyStarts = new Int32Array(keyCount + 1);
    this.types = new Uint8Array(keyCount);
    this.firstEntry = new Int32Array(keyCount + 1);
    this.minTimes = new BigInt64Array(blockCount);
    this.maxTimes = new BigInt64Array(blockCount);
    this.offsets = new Float64Array(blockCount);
    this.sizes = new Uint32Array(blockCount);
    this.counts = new Uint32Array(blockCount);
    this.stats = withStats ? new StatsColumns(blockCount) : undefined;
  }

  corrupt(pos: number, reason: string): CorruptionError {
    return new CorruptionError(this.layout.file, this.layout.indexOffset + pos, reason);
  }

  /** Bytes of the previous key (for prefix-compressed versions); empty before the first. */
  previousKey(): Buffer {
    return this.k === 0 ? this.keyBytes.subarray(0, 0) : this.keyBytes.subarray(this.keyStarts[this.k - 1]!, this.keyLen);
  }

  /** Starts key record `pos`: appends `parts` (concatenated) as the next key. */
  addKey(pos: number, parts: readonly Uint8Array[], type: number): void {
    if (this.k === this.layout.keyCount) throw this.corrupt(pos, `more keys than the footer's ${this.layout.keyCount}`);
    if (this.k > 0 && this.firstEntry[this.k - 1]! === this.b) throw this.corrupt(pos, 'key with no blocks');
    const start = this.keyLen;
    for (const p of parts) {
      this.reserve(p.length);
      this.keyBytes.set(p, this.keyLen);
      this.keyLen += p.length;
    }
    if (this.keyLen === start) throw this.corrupt(pos, 'empty key');
    if (this.k > 0) {
      const prev = this.keyStarts[this.k - 1]!;
      if (this.keyBytes.compare(this.keyBytes, prev, start, start, this.keyLen) <= 0) {
        throw this.corrupt(pos, 'keys not in strictly ascending byte order');
      }
    }
    if (!isFieldTypeCode(type)) throw this.corrupt(pos, `unknown block type ${type}`);
    this.keyStarts[this.k] = start;
    this.keyStarts[this.k + 1] = this.keyLen;
    this.types[this.k] = type;
    this.firstEntry[this.k] = this.b;
    this.k++;
    this.firstEntry[this.k] = this.b;
  }

  addEntry(pos: number, minTime: bigint, maxTime: bigint, offset: number, size: number, count: number, stats?: BlockStats): void {
    const b = this.b;
    if (b === this.layout.blockCount) throw this.corrupt(pos, `more blocks than the footer's ${this.layout.blockCount}`);
    if (minTime > maxTime) throw this.corrupt(pos, 'block minTime after maxTime');
    if (b > this.firstEntry[this.k - 1]! && this.maxTimes[b - 1]! >= minTime) throw this.corrupt(pos, 'blocks of a key overlap or are out of time order');
    if (!Number.isSafeInteger(offset) || offset < HEADER_SIZE || offset + BLOCK_CHECKSUM_SIZE + size > this.layout.indexOffset) {
      throw this.corrupt(pos, `block at ${offset} (+${size}) outside the blocks section`);
    }
    if (size === 0 || count === 0) throw this.corrupt(pos, 'empty block');
    if (size > MAX_U32 || count > MAX_U32) throw this.corrupt(pos, `block of ${size} bytes, ${count} values (u32 at most)`);
    this.minTimes[b] = minTime;
    this.maxTimes[b] = maxTime;
    this.offsets[b] = offset;
    this.sizes[b] = size;
    this.counts[b] = count;
    this.stats?.set(b, stats);
    if (b === 0 || minTime < this.minTime) this.minTime = minTime;
    if (b === 0 || maxTime > this.maxTime) this.maxTime = maxTime;
    this.values += count;
    this.b++;
    this.firstEntry[this.k] = this.b;
  }

  finish(pos: number): IndexTables {
    if (this.k !== this.layout.keyCount) throw this.corrupt(pos, `index has ${this.k} keys, footer says ${this.layout.keyCount}`);
    if (this.firstEntry[this.k - 1]! === this.b) throw this.corrupt(pos, 'key with no blocks');
    if (this.b !== this.layout.blockCount) throw this.corrupt(0, `index has ${this.b} blocks, footer says ${this.layout.blockCount}`);
    return {
      keyBytes: this.keyBytes.subarray(0, this.keyLen),
      keyStarts: this.keyStarts,
      types: this.types,
      firstEntry: this.firstEntry,
      minTimes: this.minTimes,
      maxTimes: this.maxTimes,
      offsets: this.offsets,
      sizes: this.sizes,
      counts: this.counts,
      stats: this.stats,
      valueCount: this.values,
      minTime: this.minTime,
      maxTime: this.maxTime,
    };
  }

  private reserve(n: number): void {
    if (this.keyLen + n <= this.keyBytes.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.keyBytes.length * 2, this.keyLen + n));
    this.keyBytes.copy(next, 0, 0, this.keyLen);
    this.keyBytes = next;
  }
}
