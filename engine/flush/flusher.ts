/**
 * The flush service: freezes shard caches, writes them as TSM files, makes the series logs
 * durable, then truncates the WAL up to the highest sequence that was in the caches. Runs on
 * a timer (flush.interval_secs), when the caches outgrow their budget, and once at shutdown.
 * One flush at a time; a failed flush keeps its snapshots (still readable) and retries them
 * next time without truncating the WAL.
 */
import type { Database } from '../database.js';
import type { EngineLogger } from '../logger.js';
import type { BlockCache } from '../tsm/block-cache.js';
import type { Shard } from '../shard/shard.js';
import { writeCacheToTsm } from './write-tsm.js';
import type { FlushWorker } from './flush-worker-pool.js';
import { CoalescingRun } from '../coalescing-run.js';
import { trimColumnPool } from '../cache/column-arena.js';

export interface FlushObserver {
  onFlush?(result: { points: number; bytes: number; seconds: number; error?: unknown }): void;
}

export interface FlushTarget {
  databases(): Iterable<Database>;
  /** Highest WAL sequence whose points are all in the caches. */
  readonly appliedSeq: bigint;
  truncateWal(seq: bigint): Promise<unknown>;
}

export class Flusher {
  private readonly runner = new CoalescingRun(() => this.flushOnce());
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly target: FlushTarget,
    private readonly opts: { maxPointsPerBlock: number; logger: EngineLogger; blockCache: BlockCache; worker?: FlushWorker | undefined },
    private readonly observer: FlushObserver = {},
  ) {}

  start(intervalSec: number): void {
    if (intervalSec > 0) {
      this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalSec * 1000);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A flush is running: files it writes may still appear (with generations taken before now). */
  get busy(): boolean {
    return this.runner.busy;
  }

  /**
   * Settles once the round in progress no longer writes into `db`'s shards: at once when no
   * round runs or the running one is done with them (DROP DATABASE waits for this before it
   * closes and deletes them, and used to wait for whole rounds of other databases' work).
   */
  settledFor(db: Database): Promise<void> {
    const waiters = this.inUse.get(db);
    return waiters ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
  }

  /** Databases the running round may still write into, each with the drops waiting for it to be done. */
  private readonly inUse = new Map<Database, (() => void)[]>();

  private doneWith(db: Database): void {
    const waiters = this.inUse.get(db);
    this.inUse.delete(db);
    for (const resolve of waiters ?? []) resolve();
  }

  /** Flush everything in the caches now; concurrent calls coalesce into at most one more run. */
  flush(): Promise<void> {
    return this.runner.run();
  }

  private async flushOnce(): Promise<void> {
    const started = performance.now();
    const bound = this.target.appliedSeq;
    const work: { shard: Shard; db: Database }[] = [];
    const all: Shard[] = [];
    for (const db of this.target.databases()) {
      this.inUse.set(db, []);
      for (const set of db.shardSets.values()) {
        for (const shard of set.shards) {
          all.push(shard);
          shard.freeze();
          if (shard.snapshots.length > 0) work.push({ shard, db });
        }
      }
    }
    // Ingest has gone quiet: the slabs kept for the next caches need not stay resident.
    if (work.length === 0) trimColumnPool();
    let points = 0;
    let bytes = 0;
    try {
      // Before the files: a published TSM file's fields are always in its shard's record (and a
      // DROP MEASUREMENT's removal reaches the record of a shard nothing is written to).
      for (const shard of all) await shard.fields.save(shard.dir);
      // From here on the round writes only into shards with snapshots, a database's in a row.
      for (const db of [...this.inUse.keys()]) if (!work.some((w) => w.db === db)) this.doneWith(db);
      for (const [i, { shard, db }] of work.entries()) {
        for (const snap of [...shard.snapshots]) {
          const r = await writeCacheToTsm(shard, snap, this.opts.maxPointsPerBlock, this.opts.logger, this.opts.blockCache, this.opts.worker);
          shard.releaseSnapshot(snap);
          points += r.values;
          bytes += r.bytes;
        }
        if (work[i + 1]?.db !== db) this.doneWith(db);
      }
      for (const db of this.target.databases()) await db.syncIndex();
      if (bound > 0n) await this.target.truncateWal(bound);
      const seconds = (performance.now() - started) / 1000;
      if (points > 0) this.opts.logger.debug({ points, bytes, seconds }, 'flushed caches to TSM');
      this.observer.onFlush?.({ points, bytes, seconds });
    } catch (error) {
      this.opts.logger.error({ err: error }, 'flush failed; caches kept, WAL not truncated');
      this.observer.onFlush?.({ points, bytes, seconds: (performance.now() - started) / 1000, error });
      throw error;
    } finally {
      for (const db of [...this.inUse.keys()]) this.doneWith(db);
    }
  }
}
