/**
 * The write-ahead log: a locked directory of segments, one writer with group commit,
 * streaming replay, and truncation once entries are flushed to storage (spec "Flush
 * pipeline": read after the last flushed seq, insert, then truncate up to it).
 *
 * The config layer maps spec keys onto WalOptions: flush.wal_batch_size → batchSize,
 * flush.wal_batch_delay_us → batchDelayUs. segmentSizeBytes has no spec key.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineClosedError, InvalidRequestError } from '../errors.js';
import { fsyncDir } from '../fs/atomic.js';
import { lockDirectory } from '../fs/lock.js';
import type { DirectoryLock } from '../fs/lock.js';
import type { EngineLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { DEFAULT_SEGMENT_SIZE_BYTES, MIN_SEGMENT_SIZE_BYTES } from './record.js';
import type { WalAppend, WalWriteEntry } from './record.js';
import { openWal, replaySegments } from './reader.js';
import { ActiveSegment } from './segment.js';
import type { SegmentIo, SegmentRef } from './segment.js';
import { WalWriter } from './writer.js';
import type { WalWriterOptions } from './writer.js';
import { makeDirDurable } from '../fs/atomic.js';

export type { WalAppend, WalWriteEntry } from './record.js';

export interface WalOptions extends WalWriterOptions {
  /**
   * Seqs continue above max(highest seq found in the WAL, minLastSeq). The engine passes
   * its flushed-up-to seq: if damage at the very end of the WAL lost acknowledged entries,
   * new entries must still not reuse seqs at or below the watermark, or the next replay
   * (which starts after the watermark) would skip them.
   */
  readonly minLastSeq: bigint;
}

export const DEFAULT_WAL_OPTIONS: WalOptions = {
  segmentSizeBytes: DEFAULT_SEGMENT_SIZE_BYTES,
  batchSize: 64,
  batchDelayUs: 200,
  minLastSeq: 0n,
};

export class Wal {
  private closed = false;
  /** Serialises truncations: each one edits the head of `segments` across awaits. */
  private truncating: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly lock: DirectoryLock,
    private readonly writer: WalWriter,
    /** Sealed and active segments, ascending; the last one is the writer's. */
    private readonly segments: SegmentRef[],
    private readonly logger: EngineLogger,
  ) {}

  /**
   * Lock `dir`, check and repair its segments (see reader.ts for the rules; damage never
   * fails the open) and get ready to append after the highest seq found.
   * `io` replaces the write/fdatasync calls, for fault-injection tests only.
   */
  static async open(dir: string, options: Partial<WalOptions> = {}, logger: EngineLogger = silentLogger, io?: SegmentIo): Promise<Wal> {
    const opts: WalOptions = { ...DEFAULT_WAL_OPTIONS, ...options };
    validateOptions(opts);
    await makeDirDurable(dir);
    const lock = await lockDirectory(dir, logger);
    try {
      const recovered = await openWal(dir, logger);
      const segments = recovered.segments.slice();
      const lastSeq = recovered.lastSeq > opts.minLastSeq ? recovered.lastSeq : opts.minLastSeq;
      let active: ActiveSegment;
      if (recovered.tail) {
        active = await ActiveSegment.open(dir, recovered.tail.ref, recovered.tail.size);
      } else {
        active = await ActiveSegment.create(dir, lastSeq + 1n);
        segments.push(active.ref);
      }
      const writer = new WalWriter(dir, active, lastSeq, opts, logger, (ref) => segments.push(ref), io);
      logger.info({ dir, segments: segments.length, lastSeq: String(lastSeq) }, 'WAL opened');
      return new Wal(dir, lock, writer, segments, logger);
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  /** Log an entry; resolves with its seq once it is written and fdatasync'ed. */
  append(entry: WalAppend): Promise<bigint> {
    if (this.closed) return Promise.reject(new EngineClosedError());
    return this.writer.append(entry);
  }

  /** Cancel the durable record `seq` ahead of the next append (its own cancel could not be appended: writer.ts). */
  cancelLater(seq: bigint): void {
    this.writer.cancelLater(seq);
  }

  /** No entry below this seq is left in the WAL (truncation removed it, or it never was). */
  get firstSeq(): bigint {
    return this.segments[0]?.firstSeq ?? this.writer.lastSeq + 1n;
  }

  /** Highest acknowledged seq (0n for an empty WAL). */
  get lastSeq(): bigint {
    return this.writer.lastSeq;
  }

  /** fdatasync calls made by appends since open. */
  get syncCount(): number {
    return this.writer.syncCount;
  }

  /** Number of segment files currently making up the WAL. */
  get segmentCount(): number {
    return this.segments.length;
  }

  /**
   * Entries with seq > afterSeq in seq order, streamed. Sees every append acknowledged
   * before the call; appends acknowledged later may or may not be included. Safe to run
   * while appending and truncating.
   */
  replay(afterSeq = 0n): AsyncGenerator<WalWriteEntry> {
    const active = this.writer.active;
    return replaySegments(this.dir, this.segments.slice(), { name: active.ref.name, size: active.size }, afterSeq, this.logger);
  }

  /**
   * Delete every segment whose entries all have seq <= `seq` (they are in storage now).
   * When the active segment itself is entirely <= seq it is sealed first (a new segment
   * is started), so a fully flushed WAL shrinks to one empty segment. Returns the number
   * of segments deleted.
   */
  truncateUpTo(seq: bigint): Promise<number> {
    if (this.closed) return Promise.reject(new EngineClosedError());
    const run = this.truncating.then(() => this.truncate(seq));
    this.truncating = run.catch(() => {});
    return run;
  }

  private async truncate(seq: bigint): Promise<number> {
    if (this.writer.lastSeq <= seq) await this.writer.rollIfNotEmpty();
    let removed = 0;
    // A segment's entries end where the next segment's first seq begins.
    while (this.segments.length > 1) {
      const [head, next] = this.segments;
      if (head === undefined || next === undefined || next.firstSeq - 1n > seq) break;
      await rm(join(this.dir, head.name), { force: true });
      this.segments.shift();
      removed++;
    }
    if (removed > 0) {
      await fsyncDir(this.dir);
      this.logger.debug({ dir: this.dir, removed, upTo: String(seq) }, 'WAL truncated');
    }
    return removed;
  }

  /** Wait for accepted appends to become durable, then release the files and the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.truncating;
      await this.writer.close();
    } finally {
      await this.lock.release();
    }
  }
}

/** The config layer validates spec keys; this guards direct library use. */
function validateOptions(o: WalOptions): void {
  if (!Number.isSafeInteger(o.segmentSizeBytes) || o.segmentSizeBytes < MIN_SEGMENT_SIZE_BYTES) {
    throw new InvalidRequestError(`WAL segmentSizeBytes must be an integer >= ${MIN_SEGMENT_SIZE_BYTES}`);
  }
  if (!Number.isSafeInteger(o.batchSize) || o.batchSize < 0) throw new InvalidRequestError('WAL batchSize must be an integer >= 0');
  if (!Number.isFinite(o.batchDelayUs) || o.batchDelayUs < 0) throw new InvalidRequestError('WAL batchDelayUs must be >= 0');
  if (o.minLastSeq < 0n) throw new InvalidRequestError('WAL minLastSeq must be >= 0');
}
