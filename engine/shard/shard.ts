/**
 * A shard: one (database, retention policy, time span) partition. Holds the active cache,
 * caches frozen for flushing (snapshots) and, once flushed, immutable TSM files. Times inside
 * a shard are ns offsets from `startSec`, exact in a Float64 because spans are < 2^53 ns.
 */
import { Cache } from '../cache/cache.js';
import type { EngineLogger } from '../logger.js';
import { NS_PER_SEC_BIG } from '../time.js';
import type { BlockCache } from '../tsm/block-cache.js';
import { TsmFileSet } from '../tsm/file-set.js';
import { makeDirDurable } from '../fs/atomic.js';
import { ShardFields } from './shard-fields.js';

export class Shard {
  readonly baseNs: bigint;
  /** End of the shard's range (exclusive), ns: computed once, read per cursor and per overlap test. */
  readonly endNs: bigint;
  /**
   * The active cache, replaced at every freeze. Assigned in the constructor, not by an
   * initializer: V8 treats a field that only its initializer wrote as constant and folds it
   * into optimized code, so the first freeze of a server's life used to throw away the cache
   * apply's optimized code mid-ingest (perf/README.md, section 11).
   */
  cache: Cache;
  /** Frozen caches being written to TSM; oldest first. Reads still see them. */
  snapshots: Cache[] = [];
  /** TSM files; opened at start for existing shards, at first flush for new ones. */
  files: TsmFileSet | undefined;
  /** Fields with data per measurement (shard-fields.ts); replaced by the loader for shards on disk. */
  fields = new ShardFields();

  constructor(
    readonly db: string,
    readonly rp: string,
    readonly startSec: number,
    readonly spanSec: number,
    readonly dir: string,
  ) {
    this.baseNs = BigInt(startSec) * NS_PER_SEC_BIG;
    this.endNs = BigInt(startSec + spanSec) * NS_PER_SEC_BIG;
    this.cache = new Cache(0, (measurement, field) => this.fields.note(measurement, field));
  }

  /**
   * Identity of the shard independent of where the data directory lives (tombstone marks are
   * keyed by it, so a restored or moved data directory keeps its deletes).
   */
  get key(): string {
    return `${this.db}\u0000${this.rp}\u0000${this.startSec}_${this.spanSec}`;
  }

  get endSec(): number {
    return this.startSec + this.spanSec;
  }


  containsSec(sec: number): boolean {
    return sec >= this.startSec && sec < this.endSec;
  }

  /** Offset in ns from the shard start; exact (span < 2^53 ns). */
  offsetOf(sec: number, nsec: number): number {
    return (sec - this.startSec) * 1e9 + nsec;
  }

  /** Lowest generation new files of this shard may use (see TsmFileSet.reserveBelow). */
  generationFloor = 0;

  /** Opening in flight: a flush and a refused write (write/shard-write.ts) may both ask at once, and must share one file set. */
  private opening: Promise<TsmFileSet> | undefined;

  ensureFiles(logger: EngineLogger, blockCache: BlockCache | undefined): Promise<TsmFileSet> {
    if (this.files) return Promise.resolve(this.files);
    return (this.opening ??= this.openFiles(logger, blockCache).finally(() => (this.opening = undefined)));
  }

  private async openFiles(logger: EngineLogger, blockCache: BlockCache | undefined): Promise<TsmFileSet> {
    await makeDirDurable(this.dir);
    const files = await TsmFileSet.open(this.dir, { logger, blockCache });
    files.reserveBelow(this.generationFloor);
    this.files = files;
    return files;
  }

  /** Freeze the active cache for flushing; returns it, or undefined when empty. */
  freeze(): Cache | undefined {
    if (this.cache.isEmpty) return undefined;
    const frozen = this.cache;
    this.snapshots.push(frozen);
    this.cache = frozen.successor();
    return frozen;
  }

  /** The snapshot is in a TSM file now: drop it (its memory is reused once no cursor reads it). */
  releaseSnapshot(c: Cache): void {
    this.snapshots = this.snapshots.filter((s) => s !== c);
    c.release();
  }

  /** Caches in age order (oldest first), so later ones win for duplicate timestamps. */
  caches(): Cache[] {
    return [...this.snapshots, this.cache];
  }

  get cacheBytes(): number {
    let n = this.cache.bytes;
    for (const s of this.snapshots) n += s.bytes;
    return n;
  }

  async close(): Promise<void> {
    await this.files?.close();
    this.files = undefined;
  }
}
