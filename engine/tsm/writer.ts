/**
 * Streaming TSM writer. Blocks go to `<path>.tmp` through a bounded write buffer as they are
 * written; only the index (≈ 12–30 bytes per block plus keys, see index-builder.ts) stays in
 * memory. `finish` appends index and footer, fsyncs and publishes the file atomically through
 * engine/fs/atomic.ts, so `path` either does not exist or is a complete, verified-on-open file.
 *
 * Contract:
 * - Calls are sequential: await each `writeBlock` before the next (a concurrent call is an
 *   InvariantError). Keys in byte order, blocks of a key ascending and non-overlapping in time,
 *   one type per key; a violation throws InvariantError and leaves the writer usable.
 * - `stats` (block-stats.ts, from `columnStats` over the block's values) go into the index so
 *   queries can aggregate the block without decoding it; callers without the values omit them.
 *   They are trusted: wrong stats give wrong answers, so pass only stats of this payload.
 * - `payload` is copied into the write buffer, except a payload larger than the buffer, which is
 *   written directly: do not mutate it until the returned promise resolves.
 * - An I/O error poisons the writer (StorageIoError); the caller then calls `abort()`.
 * - A writer with no blocks cannot `finish()` (no empty TSM files exist, see format.ts);
 *   check `blockCount` and `abort()` instead (e.g. a compaction whose input was all deleted).
 */
import { open, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { InvariantError, StorageIoError, StrataError } from '../errors.js';
import { publishFile, TEMP_SUFFIX } from '../fs/atomic.js';
import { writeAt } from '../fs/write-at.js';
import { checksum32, checksum64, initChecksum } from '../fs/checksum.js';
import type { FieldType } from '../point.js';
import { BLOCK_CHECKSUM_SIZE, FOOTER_SIZE, MAX_LEVEL } from './format.js';
import type { BlockStats } from './block-stats.js';
import { IndexBuilder } from './index-builder.js';
import { encodeFooter, encodeHeader } from './sections.js';

export interface TsmWriterOptions {
  /** Compaction level recorded in the header (0 = flushed from the cache). */
  readonly level: number;
  /** Bytes buffered before a write to disk (default 256 KiB: a few SD-card erase blocks). */
  readonly bufferSize?: number;
}

/** Summary of a published file (also what TsmReader reports after open). */
export interface TsmFileInfo {
  readonly path: string;
  readonly level: number;
  readonly size: number;
  readonly keyCount: number;
  readonly blockCount: number;
  readonly valueCount: number;
  readonly minKey: string;
  readonly maxKey: string;
  readonly minTime: bigint;
  readonly maxTime: bigint;
}

const DEFAULT_BUFFER_SIZE = 256 * 1024;
const MIN_BUFFER_SIZE = 4096;

type State = 'open' | 'busy' | 'failed' | 'finished' | 'aborted';

export class TsmWriter {
  private readonly index = new IndexBuilder();
  private readonly buf: Uint8Array;
  private readonly bufView: DataView;
  private buffered = 0;
  /** Bytes already handed to the file; the next block starts at flushed + buffered. */
  private flushed = 0;
  private state: State = 'open';

  private constructor(
    readonly path: string,
    private readonly tmpPath: string,
    private readonly fh: FileHandle,
    private readonly header: Uint8Array,
    readonly level: number,
    bufferSize: number,
  ) {
    this.buf = new Uint8Array(bufferSize);
    this.bufView = new DataView(this.buf.buffer);
    this.buf.set(header);
    this.buffered = header.length;
  }

  static async create(path: string, options: TsmWriterOptions): Promise<TsmWriter> {
    const { level } = options;
    if (!Number.isInteger(level) || level < 0 || level > MAX_LEVEL) throw new InvariantError(`TSM level ${level} outside 0..${MAX_LEVEL}`);
    const bufferSize = Math.max(MIN_BUFFER_SIZE, options.bufferSize ?? DEFAULT_BUFFER_SIZE);
    await initChecksum();
    const tmpPath = path + TEMP_SUFFIX;
    const fh = await io(`cannot create ${tmpPath}`, () => open(tmpPath, 'w'));
    return new TsmWriter(path, tmpPath, fh, encodeHeader(level), level, bufferSize);
  }

  get blockCount(): number {
    return this.index.blockCount;
  }

  async writeBlock(
    key: string,
    type: FieldType,
    minTime: bigint,
    maxTime: bigint,
    count: number,
    payload: Uint8Array,
    stats?: BlockStats,
  ): Promise<void> {
    this.enter('writeBlock');
    try {
      const offset = this.flushed + this.buffered;
      this.index.add(key, { type, minTime, maxTime, offset, size: payload.length, count, stats });
    } catch (err) {
      this.state = 'open'; // validation failed before any I/O: the writer is unchanged
      throw err;
    }
    await this.guard(this.appendBlock(payload));
    if (this.state === 'busy') this.state = 'open'; // unless abort() ran meanwhile
  }

  private async appendBlock(payload: Uint8Array): Promise<void> {
    const sum = checksum32(payload);
    if (this.buffered + BLOCK_CHECKSUM_SIZE + payload.length > this.buf.length) await this.flush();
    this.bufView.setUint32(this.buffered, sum);
    this.buffered += BLOCK_CHECKSUM_SIZE;
    if (this.buffered + payload.length <= this.buf.length) {
      this.buf.set(payload, this.buffered);
      this.buffered += payload.length;
    } else {
      await this.flush();
      await this.writeAt(payload, this.flushed);
      this.flushed += payload.length;
    }
  }

  /** Writes index and footer, fsyncs and publishes. The writer is done afterwards. */
  async finish(): Promise<TsmFileInfo> {
    this.enter('finish');
    const { index } = this;
    if (index.blockCount === 0 || index.minKey === null || index.maxKey === null || index.minTime === null || index.maxTime === null) {
      await this.discard();
      throw new InvariantError('finish() on a TSM writer with no blocks; abort() it instead');
    }
    const info: TsmFileInfo = {
      path: this.path,
      level: this.level,
      size: 0,
      keyCount: index.keyCount,
      blockCount: index.blockCount,
      valueCount: index.valueCount,
      minKey: index.minKey,
      maxKey: index.maxKey,
      minTime: index.minTime,
      maxTime: index.maxTime,
    };
    const size = await this.guard(this.publish(index));
    this.state = 'finished';
    return { ...info, size };
  }

  /** Index, footer, fsync, close, then the temp file takes the final name; the file's size. */
  private async publish(index: IndexBuilder): Promise<number> {
    await this.flush();
    const indexBytes = index.bytes();
    const indexOffset = this.flushed;
    await this.writeAt(indexBytes, indexOffset);
    const footer = encodeFooter(this.header, {
      indexOffset,
      indexSize: indexBytes.length,
      keyCount: index.keyCount,
      blockCount: index.blockCount,
      indexChecksum: checksum64(indexBytes),
    });
    await this.writeAt(footer, indexOffset + indexBytes.length);
    await this.fh.sync();
    await this.fh.close();
    // Publishing would silently replace a live file: a name clash is a generation-counter bug.
    if (await exists(this.path)) throw new InvariantError(`TSM file ${this.path} already exists`);
    await publishFile(this.tmpPath, this.path);
    return indexOffset + indexBytes.length + FOOTER_SIZE;
  }

  /** Drops the temp file. Safe to call in any state, more than once. */
  async abort(): Promise<void> {
    if (this.state === 'finished' || this.state === 'aborted') return;
    await this.discard();
  }

  private async discard(): Promise<void> {
    this.state = 'aborted';
    await this.fh.close().catch(() => undefined); // may already be closed by a failed finish
    await io(`cannot remove ${this.tmpPath}`, () => rm(this.tmpPath, { force: true }));
  }

  private enter(op: string): void {
    if (this.state !== 'open') throw new InvariantError(`TsmWriter.${op}() while ${this.state} (${this.path})`);
    this.state = 'busy';
  }

  /**
   * Awaits I/O; any failure poisons the writer and surfaces as a typed error. Takes the
   * running promise, not a callback: a closure per block was optimised again for every block.
   */
  private async guard<T>(io: Promise<T>): Promise<T> {
    try {
      return await io;
    } catch (err) {
      this.state = 'failed';
      if (err instanceof StrataError) throw err;
      throw new StorageIoError(`cannot write ${this.tmpPath}`, { cause: err });
    }
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    await this.writeAt(this.buf.subarray(0, this.buffered), this.flushed);
    this.flushed += this.buffered;
    this.buffered = 0;
  }

  private writeAt(bytes: Uint8Array, position: number): Promise<void> {
    return writeAt(this.fh, bytes, position);
  }
}

async function io<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new StorageIoError(what, { cause: err });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
