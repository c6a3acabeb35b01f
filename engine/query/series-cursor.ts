/**
 * The storage-side Cursor implementation: walks the shards overlapping the range in cursor
 * order and, per shard, merges its sources (TSM files oldest→newest, frozen snapshots, the
 * active cache) with RunMerger, passes a single source through OneRun, and reads sources
 * whose time ranges do not overlap one after the other (RunChain). Sources are captured when
 * a shard is entered, so a flush or compaction that finishes mid-query does not change what this cursor sees twice.
 */
import type { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import type { Cache } from '../cache/cache.js';
import type { Batch, Cursor, CursorRequest } from './cursor.js';
import { RunMerger } from './merge.js';
import { OneRun } from './one-run.js';
import { disjointInCursorOrder, RunChain } from './run-chain.js';
import { CacheRun, type RunBlock, type SortedRun } from './run.js';
import { StatsBlock } from './stats-block.js';

/** Extra sources of a shard beyond its caches (TSM files), oldest first; provided by the file layer. */
export type FileRunSource = (
  shard: Shard,
  req: CursorRequest,
  type: FieldType,
  minOff: number,
  maxOff: number,
) => { readonly runs: SortedRun[]; release(): void };

export class SeriesCursor implements Cursor {
  private i = 0;
  private merger: RunMerger | OneRun | RunChain | undefined;
  private shard: Shard | undefined;
  private release: (() => void) | undefined;
  /** Caches this cursor has read from (pinned: their memory is not reused until close). */
  private pinned: Cache[] = [];
  private closed = false;

  constructor(
    private readonly shards: readonly Shard[],
    private readonly req: CursorRequest,
    readonly type: FieldType,
    private readonly fileRuns: FileRunSource,
  ) {}

  private openShard(shard: Shard): RunMerger | OneRun | RunChain | undefined {
    const { startNs, endNs } = this.req;
    if (endNs < shard.baseNs || startNs >= shard.endNs) return undefined;
    // Compared before subtracting: a range that covers the shard (lastpoint's, any unbounded
    // side) allocates no BigInt here, and this runs once per series-field per query.
    const minOff = startNs <= shard.baseNs ? 0 : Number(startNs - shard.baseNs);
    const maxOff = endNs >= shard.endNs ? shard.spanSec * 1e9 - 1 : Number(endNs - shard.baseNs);
    const files = this.fileRuns(shard, this.req, this.type, minOff, maxOff);
    this.release = files.release;
    const runs: SortedRun[] = [...files.runs];
    // Caches are newer than every file: above the highest file priority, which is the file's
    // place in the shard (files without the key leave gaps, so not runs.length).
    let priority = 0;
    for (const r of runs) if (r.priority >= priority) priority = r.priority + 1;
    for (const cache of shard.snapshots) priority = this.addCacheRun(runs, cache, minOff, maxOff, priority);
    priority = this.addCacheRun(runs, shard.cache, minOff, maxOff, priority);
    if (runs.length === 0) return undefined;
    if (runs.length === 1) return new OneRun(runs[0]!);
    const chain = disjointInCursorOrder(runs, this.req.ascending);
    return chain ? new RunChain(chain) : new RunMerger(runs, this.type, this.req.ascending);
  }

  /** Adds `cache`'s run of the series-field when it holds values of the type; answers the next priority. */
  private addCacheRun(runs: SortedRun[], cache: Cache, minOff: number, maxOff: number, priority: number): number {
    const entry = cache.get(this.req.seriesKey, this.req.field);
    if (!entry || entry.type !== this.type || entry.length === 0) return priority;
    cache.pin();
    this.pinned.push(cache);
    runs.push(new CacheRun(entry, minOff, maxOff, this.req.ascending, priority));
    return priority + 1;
  }

  async next(): Promise<Batch | null> {
    for (;;) {
      const now = this.nextNow();
      if (now !== undefined) return now;
      // nextNow stops only inside a shard whose merge must read a block.
      const b = await this.merger!.next();
      if (b) return this.batchOf(b);
      this.leaveShard();
    }
  }

  nextNow(): Batch | null | undefined {
    while (!this.closed) {
      if (!this.merger) {
        if (this.i >= this.shards.length) return null;
        const shard = this.req.ascending ? this.shards[this.i] : this.shards[this.shards.length - 1 - this.i];
        this.i++;
        this.shard = shard;
        this.merger = shard ? this.openShard(shard) : undefined;
        if (!this.merger) this.leaveShard();
        continue;
      }
      const b = this.merger.nextNow();
      if (b === undefined) return undefined;
      if (b) return this.batchOf(b);
      this.leaveShard();
    }
    return null;
  }

  private batchOf(b: RunBlock): Batch {
    return b instanceof StatsBlock ? b : { base: this.shard!.baseNs, offsets: b.offsets, column: b.column };
  }

  private leaveShard(): void {
    this.merger?.close();
    this.merger = undefined;
    this.release?.();
    this.release = undefined;
  }

  /** Also unpins the caches read: only here, as a caller may still look at the last batches until it closes. */
  close(): void {
    if (!this.closed) for (const c of this.pinned) c.unpin();
    this.pinned = [];
    this.closed = true;
    this.leaveShard();
  }
}
