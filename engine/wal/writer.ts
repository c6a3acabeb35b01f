/**
 * WalWriter: append with group commit. An append resolves only after its bytes are written
 * and fdatasync'ed.
 *
 * Group commit (spec [flush] wal_batch_size / wal_batch_delay_us): appends that arrive while
 * a group is being written and synced, or within `batchDelayUs` of the first append of an
 * idle period, share one write() and one fdatasync, up to `batchSize` entries (and at most
 * `segmentSizeBytes`, or one entry) per group.
 * `batchSize` 0 disables batching: one sync per append. Seqs are assigned at append() in
 * call order and groups are committed one at a time in queue order, so the file holds
 * records in seq order.
 *
 * Failure: if the write or the sync of a group fails, every append of that group rejects
 * with StorageIoError and the seqs are skipped (seqs stay strictly increasing, with a gap).
 * The segment is cut back to its last synced byte and the writer rolls to a new segment
 * before the next group: after a failed fsync the kernel may have dropped dirty pages and
 * cleared the error (the 2018 "fsyncgate"), so the old file is not trusted for more appends.
 * If even the roll fails, each later group retries it and rejects until it succeeds.
 * If cutting back fails, the refused records stay in the old segment, where replay would find
 * them: the next append is preceded by a cancel record for each (the record kind the engine
 * uses for refused bodies), so a restart does not bring back points the client was told failed.
 * The engine hands over its own cancel records the same way when appending one failed
 * (`cancelLater`). Pending cancels are committed in the same group as the append that follows
 * them, so no later append is acknowledged before they are durable: the group fails as a whole.
 */
import { hrtime } from 'node:process';
import { EngineClosedError, InvariantError, StorageIoError, StrataError } from '../errors.js';
import type { EngineLogger } from '../logger.js';
import { encodeRecordInto, isCancel, writeRecordSize } from './record.js';
import type { WalAppend } from './record.js';
import { ActiveSegment, defaultSegmentIo } from './segment.js';
import type { SegmentIo, SegmentRef } from './segment.js';

export interface WalWriterOptions {
  /** Roll to a new segment before a group would grow the active one past this size. */
  readonly segmentSizeBytes: number;
  /** Most entries per group; 0 = no batching. */
  readonly batchSize: number;
  /** How long the first append of an idle period waits for company, in microseconds. */
  readonly batchDelayUs: number;
}

interface Pending {
  readonly entry: WalAppend;
  readonly seq: bigint;
  readonly size: number;
  readonly resolve: (seq: bigint) => void;
  readonly reject: (err: unknown) => void;
}

/** Below this many microseconds of delay, waiting polls the event loop (setImmediate): Node timers have 1 ms granularity. */
const TIMER_THRESHOLD_US = 2000n;

export class WalWriter {
  private readonly queue: Pending[] = [];
  private draining = false;
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private lane: Promise<unknown> = Promise.resolve();
  private nextSeq: bigint;
  private durableSeq: bigint;
  /** Last seq of the latest group tried, failed or not: every later record is above it. */
  private attemptedSeq: bigint;
  private mustRoll = false;
  /** Seqs of refused records left in a sealed segment (cutting back failed), not yet cancelled. */
  private uncut: bigint[] = [];
  private closed = false;
  private syncs = 0;
  /** Reused for every group (groups are written one at a time); see groupBuffer. */
  private scratch: Buffer | undefined;

  /**
   * @param segment the segment to append to (already validated and positioned)
   * @param lastSeq highest seq already in the WAL; appends continue after it
   * @param onRoll called after a new segment was created and became active
   */
  constructor(
    private readonly dir: string,
    private segment: ActiveSegment,
    lastSeq: bigint,
    private readonly options: WalWriterOptions,
    private readonly logger: EngineLogger,
    private readonly onRoll: (ref: SegmentRef) => void = () => {},
    private readonly io: SegmentIo = defaultSegmentIo,
  ) {
    this.nextSeq = lastSeq + 1n;
    this.durableSeq = lastSeq;
    this.attemptedSeq = lastSeq;
  }

  /** Highest seq whose append has been acknowledged (written and synced). */
  get lastSeq(): bigint {
    return this.durableSeq;
  }

  /** Number of fdatasync calls issued by group commits (for tests and metrics). */
  get syncCount(): number {
    return this.syncs;
  }

  /** The active segment and its committed size: replay reads no further than this. */
  get active(): { readonly ref: SegmentRef; readonly size: number } {
    return { ref: this.segment.ref, size: this.segment.size };
  }

  /**
   * Log `entry`; resolves with its seq once durable. `entry.lines` must not be modified until
   * then (it is copied when its group is written, not at call time).
   */
  append(entry: WalAppend): Promise<bigint> {
    if (this.closed) return Promise.reject(new EngineClosedError());
    let size: number;
    try {
      size = writeRecordSize(entry);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.uncut.length > 0) this.queueCancels();
    const seq = this.nextSeq++;
    const done = new Promise<bigint>((resolve, reject) => this.queue.push({ entry, seq, size, resolve, reject }));
    if (this.wake && this.queue.length >= this.groupLimit()) this.wake();
    this.startDrain();
    return done;
  }

  private startDrain(): void {
    if (this.draining) return;
    this.draining = true;
    this.idle = this.drain();
  }

  /**
   * Cancel the record `seq` (already durable) ahead of the next append: for a cancel record the
   * caller could not append itself. Idempotent.
   */
  cancelLater(seq: bigint): void {
    if (!this.uncut.includes(seq)) this.uncut.push(seq);
  }

  /**
   * Cancel records for the uncut seqs, ahead of the append that called this (seqs stay in file
   * order). Queued by an append, not at once: while the disk keeps failing, a cancel that fails
   * goes back to `uncut` and waits for the next client append instead of retrying in a loop.
   */
  private queueCancels(): void {
    const seqs = this.uncut;
    this.uncut = [];
    for (const cancels of seqs) {
      const entry = { cancels };
      this.queue.push({ entry, seq: this.nextSeq++, size: writeRecordSize(entry), resolve: () => {}, reject: () => this.cancelLater(cancels) });
    }
  }

  /**
   * Start a new segment if the active one holds any record, once in-flight groups are done.
   * Used by truncation so the active segment can be deleted once it is flushed.
   */
  rollIfNotEmpty(): Promise<void> {
    return this.exclusive(async () => {
      // Named above failed groups too: if cutting their bytes back failed, they may still be
      // in the old segment, and every record must stay below the next segment's name.
      if (!this.segment.isEmpty && !this.closed) await this.roll(this.attemptedSeq + 1n);
    });
  }

  /** Commit every accepted append, then close the segment. Later appends reject. */
  async close(): Promise<void> {
    if (this.closed) return this.idle;
    // Cancels still pending go down before the segment closes (a failure leaves them undone, logged).
    if (this.uncut.length > 0) {
      this.queueCancels();
      this.startDrain();
    }
    this.closed = true;
    await this.idle;
    await this.exclusive(() => this.segment.close());
  }

  private groupLimit(): number {
    return Math.max(1, this.options.batchSize);
  }

  private async drain(): Promise<void> {
    let afterSync = false;
    try {
      while (this.queue.length > 0) {
        // Appends that queued up during the previous sync already waited; only the first
        // group of an idle period waits for company.
        if (!afterSync) await this.gather();
        const group = this.takeGroup();
        await this.exclusive(() => this.commit(group));
        afterSync = true;
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * The next group: up to batchSize entries, and no more bytes than a segment holds (at
   * least one entry), so segments stay near segmentSizeBytes and one group of huge bodies
   * does not hold every ack behind a single enormous write.
   */
  private takeGroup(): Pending[] {
    let n = 0;
    let entries = 0;
    let bytes = 0;
    for (const p of this.queue) {
      // Queued cancels count towards neither limit: they go with the append behind them.
      const cancel = isCancel(p.entry);
      if (!cancel && (entries === this.groupLimit() || (entries > 0 && bytes + p.size > this.options.segmentSizeBytes))) break;
      n++;
      if (!cancel) {
        entries++;
        bytes += p.size;
      }
    }
    return this.queue.splice(0, n);
  }

  /** Wait up to batchDelayUs for the queue to reach batchSize. */
  private async gather(): Promise<void> {
    if (this.options.batchSize === 0 || this.options.batchDelayUs <= 0) return;
    const deadline = hrtime.bigint() + BigInt(Math.round(this.options.batchDelayUs)) * 1000n;
    while (this.queue.length < this.groupLimit()) {
      const leftUs = (deadline - hrtime.bigint()) / 1000n;
      if (leftUs <= 0n) return;
      if (leftUs >= TIMER_THRESHOLD_US) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Number(leftUs / 1000n) - 1);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = undefined;
      } else {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    const first = group[0];
    const last = group[group.length - 1];
    if (first === undefined || last === undefined) return;
    try {
      if (this.mustRoll) await this.roll(first.seq);
      let total = 0;
      for (const p of group) total += p.size;
      const bytes = this.groupBuffer(total);
      let at = 0;
      for (const p of group) at = encodeRecordInto(bytes, at, p.seq, p.entry);
      if (at !== total) throw new InvariantError(`WAL group encoded to ${at} bytes, expected ${total}`);
      if (!this.segment.isEmpty && this.segment.size + total > this.options.segmentSizeBytes) await this.roll(first.seq);
      this.syncs++;
      this.attemptedSeq = last.seq;
      try {
        await this.segment.append(bytes, this.io);
      } catch (err) {
        await this.afterFailure(err, group);
        throw err;
      }
      this.durableSeq = last.seq;
      for (const p of group) p.resolve(p.seq);
    } catch (err) {
      const failure =
        err instanceof StrataError
          ? err
          : new StorageIoError(`WAL append of seqs ${first.seq}..${last.seq} failed: ${(err as Error).message}`, { cause: err });
      for (const p of group) p.reject(failure);
    }
  }

  /**
   * `size` bytes to encode a group into. One buffer is reused (grown to the largest group so
   * far, up to a segment) instead of a fresh megabyte-sized one per group: those are freed
   * only when the heap is next collected, and the write path allocates little on the heap.
   */
  private groupBuffer(size: number): Buffer {
    if (size > this.options.segmentSizeBytes) return Buffer.allocUnsafe(size);
    if (!this.scratch || this.scratch.length < size) this.scratch = Buffer.allocUnsafe(Math.min(this.options.segmentSizeBytes, Math.max(size, 2 * (this.scratch?.length ?? 0))));
    return this.scratch.subarray(0, size);
  }

  private async afterFailure(err: unknown, group: readonly Pending[]): Promise<void> {
    this.mustRoll = true;
    this.logger.error({ segment: this.segment.ref.name, offset: this.segment.size, err: String(err) }, 'WAL write or sync failed; rolling to a new segment');
    try {
      await this.segment.discardUncommitted();
    } catch (cut) {
      // Whole records may be left (a torn one is damage to replay, quarantined): cancel them.
      for (const p of group) if (!isCancel(p.entry)) this.uncut.push(p.seq);
      this.logger.error({ segment: this.segment.ref.name, err: String(cut) }, 'could not cut back failed WAL bytes; cancelling their records');
    }
  }

  private async roll(firstSeq: bigint): Promise<void> {
    const next = await ActiveSegment.create(this.dir, firstSeq);
    const old = this.segment;
    this.segment = next;
    this.mustRoll = false;
    // Publish the new segment in the same tick as it becomes active, so a replay snapshot
    // never sees one without the other.
    this.onRoll(next.ref);
    await old.close().catch((err: unknown) => this.logger.warn({ segment: old.ref.name, err: String(err) }, 'closing sealed WAL segment failed'));
  }

  /** Run `fn` after every earlier group or roll has finished; rolls never interleave with a group. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lane.then(fn, fn);
    this.lane = run.catch(() => {});
    return run;
  }
}
