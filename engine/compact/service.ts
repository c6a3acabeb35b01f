/**
 * Background compaction for every shard of the engine: plans (planner.ts) and runs
 * (compactor.ts) compactions, one at a time across all shards, on a timer or on demand.
 *
 * Contract:
 * - `runOnce()` plans each shard from its live files and runs the plans in order. Calls do not
 *   overlap: a call while a round runs returns that round's promise.
 * - A failed compaction is logged and counted, its inputs keep serving; the shard is skipped
 *   for `retryAfterMs` so a damaged input is not re-read every tick.
 * - `stop()` stops the timer and aborts the running compaction at its next yield (its outputs
 *   are discarded); it resolves once nothing runs. `start()` may be called again afterwards.
 * - `onCompacted` fires once per successful compaction, after the swap AND after the input
 *   files are gone from disk (a query may pin them for a while; the check repeats every round).
 *   Why wait: until the inputs are deleted, a crash brings them back at the next start, and
 *   with them any rows the tombstones hid. Only then may the engine drop tombstones — and only
 *   those whose rows no live file still holds (see CompactedEvent).
 */
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvariantError } from '../errors.js';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { parseTsmFileName } from '../tsm/format.js';
import type { TsmReader } from '../tsm/reader.js';
import type { TsmFileInfo } from '../tsm/writer.js';
import { compact } from './compactor.js';
import type { CompactionResult } from './compactor.js';
import { CompactionAbortedError } from './errors.js';
import type { WriterFactory } from './outputs.js';
import type { MergeRunner } from './merge-job.js';
import { Pacer } from './pacer.js';
import { DEFAULT_COLD_AFTER_MS, planCompactions } from './planner.js';
import type { PlanFile } from './planner.js';
import { LastWriteTracker } from './last-write.js';
import { TombstoneProbe } from './tombstone-probe.js';

export interface CompactedEvent {
  readonly shard: Shard;
  /**
   * 'full': every file of the shard listed at `startedAt` was an input and had its hidden rows
   * purged. A tombstone older than `startedAt` hides rows only of files older than itself, all
   * of which were listed; so after this event no file on disk holds a row it hides, and the
   * engine may drop it for this shard. 'level': other files may still need tombstones.
   */
  readonly kind: 'level' | 'full';
  readonly inputs: readonly string[];
  readonly outputs: readonly TsmFileInfo[];
  /**
   * `options.epoch()` (default Date.now()) taken just before the shard's files were listed for
   * planning. Pass the engine's tombstone sequence as `epoch` to compare without clock races.
   */
  readonly startedAt: number;
  readonly rowsPurged: number;
}

/** Running totals since the service was created. */
export interface CompactionCounters {
  compactions: number;
  fullCompactions: number;
  bytesIn: number;
  bytesOut: number;
  errors: number;
  aborted: number;
  blocksCopied: number;
  blocksDecoded: number;
  valuesIn: number;
  valuesOut: number;
  rowsPurged: number;
}

export interface CompactionServiceOptions {
  readonly shards: () => readonly Shard[];
  readonly filter: TombstoneFilter;
  readonly logger: EngineLogger;
  readonly coldAfterMs?: number;
  readonly maxFileBytes?: number;
  readonly maxPointsPerBlock?: number;
  readonly groupSize?: number;
  readonly sliceMs?: number;
  /** Pause for a shard after a failed compaction (default 5 min). */
  readonly retryAfterMs?: number;
  readonly onCompacted?: (event: CompactedEvent) => void | Promise<void>;
  /** Clock for cold detection (default Date.now). */
  readonly now?: () => number;
  /** Stamp recorded at the start of each compaction, e.g. the engine's tombstone sequence. */
  readonly epoch?: () => number;
  readonly createWriter?: WriterFactory;
  /** Where merges run when they can (the flush worker; compactor.ts says when they cannot). */
  readonly worker?: MergeRunner;
  /** Read-ahead memory per compaction (default 16 MiB). */
  readonly readAheadBudget?: number;
  /** How long a file's "holds tombstoned rows" answer is reused (default 5 min). */
  readonly probeTtlMs?: number;
  /**
   * Runs at the end of every round, while no compaction runs (the engine collects tombstones
   * here: files cannot change under it except by flushes, which it checks for itself).
   */
  readonly afterRound?: () => Promise<void>;
}

const DEFAULT_RETRY_AFTER_MS = 5 * 60 * 1000;

export class CompactionService {
  readonly counters: CompactionCounters = {
    compactions: 0,
    fullCompactions: 0,
    bytesIn: 0,
    bytesOut: 0,
    errors: 0,
    aborted: 0,
    blocksCopied: 0,
    blocksDecoded: 0,
    valuesIn: 0,
    valuesOut: 0,
    rowsPurged: 0,
  };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  private readonly lastWrite = new LastWriteTracker();
  private readonly probe: TombstoneProbe;
  private readonly failedAt = new WeakMap<Shard, number>();
  private pending: CompactedEvent[] = [];

  constructor(private readonly options: CompactionServiceOptions) {
    this.probe = new TombstoneProbe(options.filter, options.probeTtlMs);
  }

  /** Runs a round every `intervalMs` (skipped while one runs). The timer does not keep the process alive. */
  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    try {
      await this.running;
    } finally {
      this.stopping = false;
    }
  }

  /** One planning round over all shards. Never rejects: failures are logged and counted. */
  runOnce(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Whether some row of `reader`'s file is hidden by a tombstone (an exact look at the rows,
   * cached while the tombstones stay the same). For callers between compactions (afterRound).
   */
  hasHiddenRows(shard: Shard, reader: TsmReader): Promise<boolean> {
    const generation = parseTsmFileName(basename(reader.path))?.generation ?? 0;
    return this.probe.hasHiddenRows(shard, reader, generation, (this.options.now ?? Date.now)(), new Pacer(shard.dir, this.options.sliceMs));
  }

  /** A compaction of this shard replaced files that may still be on disk (a crash brings them back). */
  replacedFilesLinger(shard: Shard): boolean {
    return this.pending.some((e) => e.shard === shard);
  }

  private async round(): Promise<void> {
    const { logger } = this.options;
    try {
      await this.firePending();
      for (const shard of this.options.shards()) {
        if (this.stopping) return;
        // Inputs an earlier compaction could not remove (tsm/obsolete-files.ts).
        await shard.files?.retryRemovals();
        try {
          await this.compactShard(shard);
        } catch (err) {
          // Planning failed (compaction failures are handled inside): skip this shard for a while.
          this.counters.errors++;
          this.failedAt.set(shard, (this.options.now ?? Date.now)());
          logger.error({ dir: shard.dir, err }, 'cannot plan compactions for shard');
        }
        await this.firePending();
      }
      if (!this.stopping) await this.options.afterRound?.();
    } catch (err) {
      this.counters.errors++;
      logger.error({ err }, 'compaction round failed');
    }
  }

  private async compactShard(shard: Shard): Promise<void> {
    const files = shard.files;
    if (!files) return;
    const now = (this.options.now ?? Date.now)();
    const failed = this.failedAt.get(shard);
    if (failed !== undefined && now - failed < (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS)) return;
    // Taken before the files are listed: every tombstone older than this saw only listed files.
    const startedAt = (this.options.epoch ?? Date.now)();
    const readers = files.files();
    const planner = {
      nowMs: now,
      lastWriteMs: await this.lastWrite.lastWriteMs(shard, readers, now),
      coldAfterMs: this.options.coldAfterMs ?? DEFAULT_COLD_AFTER_MS,
      ...(this.options.groupSize !== undefined && { groupSize: this.options.groupSize }),
    };
    const described = describe(readers);
    let plans = planCompactions(described, planner);
    // Tombstones matter to the planner only for a cold shard that is otherwise compacted.
    if (plans.length === 0 && !this.options.filter.isClean(shard)) {
      const pacer = new Pacer(shard.dir, this.options.sliceMs);
      const probed: PlanFile[] = [];
      for (const [i, f] of described.entries()) {
        probed.push({ ...f, tombstoned: await this.probe.hasHiddenRows(shard, readers[i]!, f.id.generation, now, pacer) });
      }
      plans = planCompactions(probed, planner);
    }
    for (const plan of plans) {
      if (this.stopping) return;
      let result: CompactionResult;
      try {
        result = await compact(shard, plan, {
          logger: this.options.logger,
          filter: this.options.filter,
          shouldStop: () => this.stopping,
          ...pick(this.options, ['maxFileBytes', 'maxPointsPerBlock', 'sliceMs', 'createWriter', 'readAheadBudget', 'worker']),
        });
      } catch (err) {
        if (err instanceof CompactionAbortedError) {
          this.counters.aborted++;
          return;
        }
        this.counters.errors++;
        this.failedAt.set(shard, now);
        return; // the compactor logged it; later plans of this shard wait for the retry
      }
      this.count(result);
      this.pending.push({ shard, kind: plan.kind, inputs: result.inputs, outputs: result.outputs, startedAt, rowsPurged: result.stats.rowsPurged });
    }
  }

  private count(r: CompactionResult): void {
    const c = this.counters;
    c.compactions++;
    if (r.plan.kind === 'full') c.fullCompactions++;
    c.bytesIn += r.bytesIn;
    c.bytesOut += r.bytesOut;
    c.blocksCopied += r.stats.blocksCopied;
    c.blocksDecoded += r.stats.blocksDecoded;
    c.valuesIn += r.stats.valuesIn;
    c.valuesOut += r.stats.valuesOut;
    c.rowsPurged += r.stats.rowsPurged;
  }

  /** Fires onCompacted for compactions whose inputs are all deleted. */
  private async firePending(): Promise<void> {
    const still: CompactedEvent[] = [];
    for (const event of this.pending) {
      if (!(await allGone(event.inputs))) {
        still.push(event);
        continue;
      }
      try {
        await this.options.onCompacted?.(event);
      } catch (err) {
        this.options.logger.error({ dir: event.shard.dir, err }, 'onCompacted hook failed');
      }
    }
    this.pending = still;
  }
}

/** The planner's view of the live files, tombstones not yet considered. */
function describe(readers: readonly TsmReader[]): PlanFile[] {
  const out: PlanFile[] = [];
  for (const reader of readers) {
    const id = parseTsmFileName(basename(reader.path));
    if (!id) throw new InvariantError(`file set serves ${reader.path}, which is not a TSM file name`);
    out.push({ path: reader.path, id, level: reader.level, size: reader.stats().bytes, tombstoned: false });
  }
  return out;
}

async function allGone(paths: readonly string[]): Promise<boolean> {
  for (const p of paths) {
    const exists = await access(p).then(
      () => true,
      () => false,
    );
    if (exists) return false;
  }
  return true;
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
