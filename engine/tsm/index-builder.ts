/**
 * Writer-side index: appends key records and entries straight into one growing byte buffer in
 * the on-disk layout (format.ts), so memory stays at the final index size (≈ 32 bytes per block
 * plus the keys) and `finish` writes it with one call. It also enforces the ordering contract
 * every reader relies on: keys strictly ascending in byte order, one type per key, blocks of a
 * key ascending and non-overlapping. A violation is a caller bug: InvariantError, and the
 * index is left unchanged.
 */
import { Buffer } from 'node:buffer';
import { InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import {
  ENTRY_COUNT_OFFSET,
  ENTRY_MAX_TIME_OFFSET,
  ENTRY_MIN_TIME_OFFSET,
  ENTRY_OFFSET_OFFSET,
  ENTRY_SIZE,
  ENTRY_SIZE_OFFSET,
  KEY_LENGTH_SIZE,
  KEY_TRAILER_SIZE,
  MAX_ENTRIES_PER_KEY,
  MAX_KEY_BYTES,
  MAX_U32,
  isFieldTypeCode,
} from './format.js';

const INITIAL_CAPACITY = 64 * 1024;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface NewEntry {
  readonly type: FieldType;
  readonly minTime: bigint;
  readonly maxTime: bigint;
  readonly offset: number;
  readonly size: number;
  readonly count: number;
}

export class IndexBuilder {
  private buf = new Uint8Array(INITIAL_CAPACITY);
  private view = new DataView(this.buf.buffer);
  private length = 0;
  private lastKey: Buffer | null = null;
  private lastType = -1;
  private lastMaxTime = 0n;
  /** Position of the current key's entryCount field, patched as entries are added. */
  private countAt = -1;
  private entriesInKey = 0;

  keyCount = 0;
  blockCount = 0;
  valueCount = 0;
  minKey: string | null = null;
  maxKey: string | null = null;
  minTime: bigint | null = null;
  maxTime: bigint | null = null;

  add(key: string, e: NewEntry): void {
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
      this.startKey(key, keyBytes, e.type);
    }
    this.appendEntry(e);
    this.lastMaxTime = e.maxTime;
    if (this.minTime === null || e.minTime < this.minTime) this.minTime = e.minTime;
    if (this.maxTime === null || e.maxTime > this.maxTime) this.maxTime = e.maxTime;
  }

  /** The index section as it goes to disk (a view; valid until the next `add`). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  private validate(e: NewEntry): void {
    if (!isFieldTypeCode(e.type)) throw new InvariantError(`unknown block type ${String(e.type)}`);
    if (e.minTime < INT64_MIN || e.maxTime > INT64_MAX || e.minTime > e.maxTime) {
      throw new InvariantError(`bad block time range ${e.minTime}..${e.maxTime}`);
    }
    if (!Number.isInteger(e.count) || e.count < 1 || e.count > MAX_U32) throw new InvariantError(`bad block value count ${e.count}`);
    if (e.size < 1 || e.size > MAX_U32) throw new InvariantError(`bad block payload size ${e.size}`);
  }

  private startKey(key: string, keyBytes: Buffer, type: FieldType): void {
    this.reserve(KEY_LENGTH_SIZE + keyBytes.length + KEY_TRAILER_SIZE);
    this.view.setUint16(this.length, keyBytes.length);
    this.buf.set(keyBytes, this.length + KEY_LENGTH_SIZE);
    const trailer = this.length + KEY_LENGTH_SIZE + keyBytes.length;
    this.view.setUint8(trailer, type);
    this.countAt = trailer + 1;
    this.view.setUint32(this.countAt, 0);
    this.length = trailer + KEY_TRAILER_SIZE;
    this.entriesInKey = 0;
    this.lastKey = keyBytes;
    this.lastType = type;
    this.keyCount++;
    this.minKey ??= key;
    this.maxKey = key;
  }

  private appendEntry(e: NewEntry): void {
    this.reserve(ENTRY_SIZE);
    const at = this.length;
    const v = this.view;
    v.setBigInt64(at + ENTRY_MIN_TIME_OFFSET, e.minTime);
    v.setBigInt64(at + ENTRY_MAX_TIME_OFFSET, e.maxTime);
    v.setBigUint64(at + ENTRY_OFFSET_OFFSET, BigInt(e.offset));
    v.setUint32(at + ENTRY_SIZE_OFFSET, e.size);
    v.setUint32(at + ENTRY_COUNT_OFFSET, e.count);
    this.length += ENTRY_SIZE;
    this.entriesInKey++;
    v.setUint32(this.countAt, this.entriesInKey);
    this.blockCount++;
    this.valueCount += e.count;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}
