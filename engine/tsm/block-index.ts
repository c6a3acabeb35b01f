/**
 * The in-memory index of one TSM file, whatever its format version: the decoded tables of
 * index-tables.ts (full keys in one buffer, typed arrays per key and per block). Key lookup is
 * a binary search comparing UTF-8 bytes (Buffer.compare order, the order the writer enforces);
 * time lookup is a binary search over a key's entries, which are ascending and non-overlapping.
 *
 * `parse` validates the whole structure once (index-v1.ts / index-v2.ts with the shared rules
 * of TablesBuilder), so every accessor afterwards can trust the tables.
 */
import { Buffer } from 'node:buffer';
import { InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import type { BlockStats } from './block-stats.js';
import { VERSION, VERSION_1 } from './format.js';
import type { IndexLayout, IndexTables } from './index-tables.js';
import { parseIndexV1 } from './index-v1.js';
import { parseIndexV2 } from './index-v2.js';

export type { IndexLayout } from './index-tables.js';

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
  /** Value statistics of the whole block, when the file stores them (block-stats.ts). */
  readonly stats?: BlockStats;
}

/**
 * Bound of a BlockIndex's key-position memo; past it the memo starts over (a scan of every key
 * must not grow it without end). About 1 MiB per file index at most (key strings of ~100
 * bytes plus the map entry), held only by files that are queried.
 */
const KEY_MEMO_LIMIT = 8192;

export class BlockIndex {
  /**
   * Positions (or -1) of keys looked up by string: queries look up the same series-field keys
   * over and over (one per cursor per file), and a memo hit skips encoding the key to UTF-8
   * and the binary search of Buffer.compare calls.
   */
  private readonly keyMemo = new Map<string, number>();
  /**
   * The same memo by series key, then field (`findSeriesField`): a cursor's key string is
   * built anew per query, and hashing it for `keyMemo` (flattening the concatenation first)
   * cost more than the lookup; the series key and field strings come from the index and the
   * plan and keep their hashes.
   */
  private readonly fieldMemo = new Map<string, Map<string, number>>();
  private fieldMemoSize = 0;

  private constructor(private readonly t: IndexTables) {}

  /** The decoded tables (posted from the flush worker, revived with reviveTables). */
  get tables(): IndexTables {
    return this.t;
  }

  /** An index from tables another reader of the same file decoded and validated. */
  static fromTables(t: IndexTables): BlockIndex {
    return new BlockIndex(t);
  }

  /** Validates and decodes `bytes` (the whole index section) of a file of `version`. Throws CorruptionError. */
  static parse(bytes: Buffer, layout: IndexLayout, version: number = VERSION): BlockIndex {
    if (version === VERSION_1) return new BlockIndex(parseIndexV1(bytes, layout));
    if (version === VERSION) return new BlockIndex(parseIndexV2(bytes, layout));
    throw new InvariantError(`no index parser for TSM version ${version}`);
  }

  get keyCount(): number {
    return this.t.types.length;
  }

  get blockCount(): number {
    return this.t.counts.length;
  }

  get valueCount(): number {
    return this.t.valueCount;
  }

  get minTime(): bigint {
    return this.t.minTime;
  }

  get maxTime(): bigint {
    return this.t.maxTime;
  }

  /** Position of `key` in byte order, or -1. */
  findKey(key: string | Uint8Array): number {
    if (typeof key !== 'string') return this.searchKey(key);
    let i = this.keyMemo.get(key);
    if (i === undefined) {
      i = this.searchKey(Buffer.from(key, 'utf8'));
      if (this.keyMemo.size >= KEY_MEMO_LIMIT) this.keyMemo.clear();
      this.keyMemo.set(key, i);
    }
    return i;
  }

  /** `findKey(key)` where `key` is `seriesKey`'s TSM key for `field`, memoised by the two parts. */
  findSeriesField(seriesKey: string, field: string, key: string): number {
    let byField = this.fieldMemo.get(seriesKey);
    if (byField === undefined) {
      if (this.fieldMemoSize >= KEY_MEMO_LIMIT) {
        this.fieldMemo.clear();
        this.fieldMemoSize = 0;
      }
      byField = new Map();
      this.fieldMemo.set(seriesKey, byField);
    }
    let i = byField.get(field);
    if (i === undefined) {
      i = this.searchKey(Buffer.from(key, 'utf8'));
      byField.set(field, i);
      this.fieldMemoSize++;
    }
    return i;
  }

  /** Binary search for the key's UTF-8 bytes. */
  private searchKey(target: Uint8Array): number {
    const { keyBytes, keyStarts } = this.t;
    let lo = 0;
    let hi = this.keyCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = keyBytes.compare(target, 0, target.length, keyStarts[mid]!, keyStarts[mid + 1]!);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  keyAt(i: number): string {
    this.check(i);
    return this.t.keyBytes.toString('utf8', this.t.keyStarts[i]!, this.t.keyStarts[i + 1]!);
  }

  /** The key's UTF-8 bytes, a view into the index (do not mutate). */
  keyBytesAt(i: number): Uint8Array {
    this.check(i);
    return this.t.keyBytes.subarray(this.t.keyStarts[i]!, this.t.keyStarts[i + 1]!);
  }

  *keys(): IterableIterator<string> {
    for (let i = 0; i < this.keyCount; i++) yield this.keyAt(i);
  }

  typeAt(i: number): FieldType {
    this.check(i);
    return this.t.types[i] as FieldType;
  }

  entryCountAt(i: number): number {
    this.check(i);
    return this.t.firstEntry[i + 1]! - this.t.firstEntry[i]!;
  }

  entryAt(i: number, j: number): BlockEntry {
    if (j < 0 || j >= this.entryCountAt(i) || !Number.isInteger(j)) {
      throw new InvariantError(`entry ${j} out of range for key ${i}`);
    }
    const t = this.t;
    const b = t.firstEntry[i]! + j;
    const stats = t.stats?.get(b);
    if (stats) return { minTime: t.minTimes[b]!, maxTime: t.maxTimes[b]!, offset: t.offsets[b]!, size: t.sizes[b]!, count: t.counts[b]!, stats };
    return { minTime: t.minTimes[b]!, maxTime: t.maxTimes[b]!, offset: t.offsets[b]!, size: t.sizes[b]!, count: t.counts[b]! };
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
    const n = this.entryCountAt(i);
    const first = this.t.firstEntry[i]!;
    const { minTimes, maxTimes } = this.t;
    // Entries are sorted by both minTime and maxTime (non-overlapping), so two lower bounds do
    // (written out: a closure per bound per cursor was most of this call's cost).
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (maxTimes[first + mid]! < minTime) lo = mid + 1;
      else hi = mid;
    }
    const start = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (minTimes[first + mid]! <= maxTime) lo = mid + 1;
      else hi = mid;
    }
    return { start, end: lo };
  }

  private check(i: number): void {
    if (!(i >= 0 && i < this.keyCount)) throw new InvariantError(`key position ${i} out of range 0..${this.keyCount - 1}`);
  }
}
