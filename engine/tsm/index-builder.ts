/**
 * Writer-side index (version 2, format.ts): encodes key records and entries into one growing
 * byte buffer, so memory stays near the final index size (~10–30 bytes per block plus the
 * keys' distinct suffixes) and `finish` writes it with one call. The entries of the current key
 * wait in a list because the key header carries their count and time scale.
 * It also enforces the ordering contract every reader relies on: keys strictly ascending in
 * byte order, one type per key, blocks of a key ascending and non-overlapping, blocks back to
 * back in index order (offsets are implied). A violation is a caller bug: InvariantError, and
 * the index is left unchanged.
 */
import { Buffer } from 'node:buffer';
import { InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import { ByteWriter } from '../encoding/varint.js';
import type { BlockStats } from './block-stats.js';
import { BLOCK_CHECKSUM_SIZE, HEADER_SIZE, MAX_ENTRIES_PER_KEY, MAX_KEY_BYTES, MAX_U32, isFieldTypeCode } from './format.js';
import { appendKeyRecord, type EntryV2 } from './index-v2.js';

const INITIAL_CAPACITY = 64 * 1024;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
// A Buffer like every later key: a plain Uint8Array here gave appendKeyRecord a second map to
// meet at the first key of each file (a "wrong map" deopt).
const NO_KEY: Uint8Array = Buffer.alloc(0);

export interface NewEntry {
  readonly type: FieldType;
  readonly minTime: bigint;
  readonly maxTime: bigint;
  /** File offset of the block's checksum: must be where the previous block ended. */
  readonly offset: number;
  readonly size: number;
  readonly count: number;
  readonly stats?: BlockStats;
}

export class IndexBuilder {
  private readonly out = new ByteWriter(INITIAL_CAPACITY);
  /** Entries of the key being built (written when the key is complete: the header needs their count and time scale). */
  private pending: EntryV2[] = [];
  private lastKey: Buffer | null = null;
  /** The key written before `lastKey` (prefix compression is against it). */
  private writtenKey: Uint8Array = NO_KEY;
  private lastType = -1;
  private lastMaxTime = 0n;
  /** First minTime of the last key written: anchor of the next key's first entry. */
  private anchor = 0n;
  private entriesInKey = 0;
  private nextOffset = HEADER_SIZE;
  private sealed = false;

  keyCount = 0;
  blockCount = 0;
  valueCount = 0;
  minKey: string | null = null;
  maxKey: string | null = null;
  minTime: bigint | null = null;
  maxTime: bigint | null = null;

  add(key: string, e: NewEntry): void {
    if (this.sealed) throw new InvariantError('IndexBuilder.add() after bytes()');
    this.validate(e);
    // The footer counts blocks (and so keys) in u32; a compactor rolls to a new file long before.
    if (this.blockCount === MAX_U32) throw new InvariantError('TSM file holds the maximum number of blocks; start a new file');
    const keyBytes = Buffer.from(key, 'utf8');
    const order = this.lastKey === null ? 1 : Buffer.compare(keyBytes, this.lastKey);
    if (order < 0) throw new InvariantError(`TSM keys out of byte order: ${JSON.stringify(key)} after ${JSON.stringify(this.maxKey)}`);
    if (order === 0) {
      if (e.type !== this.lastType) throw new InvariantError(`key ${JSON.stringify(key)} changes type ${this.lastType} → ${e.type}`);
      if (e.minTime <= this.lastMaxTime) {
        throw new InvariantError(`blocks of ${JSON.stringify(key)} overlap or go back in time (${e.minTime} ≤ ${this.lastMaxTime})`);
      }
      if (this.entriesInKey === MAX_ENTRIES_PER_KEY) throw new InvariantError(`too many blocks for ${JSON.stringify(key)}`);
    } else {
      if (keyBytes.length === 0 || keyBytes.length > MAX_KEY_BYTES) {
        throw new InvariantError(`TSM key of ${keyBytes.length} bytes (must be 1..${MAX_KEY_BYTES})`);
      }
      this.closeKey();
      this.startKey(key, keyBytes, e);
    }
    this.pending.push(e);
    this.entriesInKey++;
    this.blockCount++;
    this.valueCount += e.count;
    this.nextOffset += BLOCK_CHECKSUM_SIZE + e.size;
    this.lastMaxTime = e.maxTime;
    if (this.minTime === null || e.minTime < this.minTime) this.minTime = e.minTime;
    if (this.maxTime === null || e.maxTime > this.maxTime) this.maxTime = e.maxTime;
  }

  /** The index section as it goes to disk. Ends the index: no `add` afterwards. */
  bytes(): Uint8Array {
    this.closeKey();
    this.sealed = true;
    return this.out.buf.subarray(0, this.out.len);
  }

  private validate(e: NewEntry): void {
    if (!isFieldTypeCode(e.type)) throw new InvariantError(`unknown block type ${String(e.type)}`);
    if (e.minTime < INT64_MIN || e.maxTime > INT64_MAX || e.minTime > e.maxTime) {
      throw new InvariantError(`bad block time range ${e.minTime}..${e.maxTime}`);
    }
    if (!Number.isInteger(e.count) || e.count < 1 || e.count > MAX_U32) throw new InvariantError(`bad block value count ${e.count}`);
    if (e.size < 1 || e.size > MAX_U32) throw new InvariantError(`bad block payload size ${e.size}`);
    if (e.offset !== this.nextOffset) throw new InvariantError(`block at ${e.offset}, expected back to back at ${this.nextOffset}`);
    const s = e.stats;
    if (s && (s.minIndex >= e.count || s.maxIndex >= e.count || !(s.min <= s.max))) throw new InvariantError('block stats inconsistent with the block');
  }

  private startKey(key: string, keyBytes: Buffer, e: NewEntry): void {
    this.lastKey = keyBytes;
    this.lastType = e.type;
    this.entriesInKey = 0;
    this.pending = [];
    this.keyCount++;
    this.minKey ??= key;
    this.maxKey = key;
  }

  /** Writes the current key's header and its pending entries. */
  private closeKey(): void {
    if (this.lastKey === null || this.entriesInKey === 0) return;
    appendKeyRecord(this.out, this.writtenKey, this.lastKey, this.lastType as FieldType, this.pending, this.anchor);
    this.anchor = this.pending[0]!.minTime;
    this.pending = [];
    this.writtenKey = this.lastKey;
    this.entriesInKey = 0;
  }
}
