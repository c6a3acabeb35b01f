/**
 * Runs one compaction plan on one shard:
 *
 *   1. pin the shard's files (a snapshot), so the inputs stay on disk whatever else happens;
 *   2. merge the inputs into new files (merge-job.ts: private read-ahead readers, merge.ts,
 *      outputs.ts): in the flush worker when there is one (`worker`), else on the event loop,
 *      yielding every few ms (pacer.ts) so writes and queries keep running. A shard with
 *      tombstones, or a test's writer seam, merges on the event loop: the hidden-row lookup
 *      and the seam are closures over event-loop state. Same function, same bytes, either way;
 *   3. `files.replace(inputs, outputs)`: one synchronous swap for new readers; queries that
 *      pinned the inputs keep reading them, and each input is deleted when its last pin goes;
 *   4. release the snapshot.
 *
 * Any failure before the swap (I/O, corruption in an input block, a stale plan, the service
 * stopping; in the worker with the same error types, merge-error-wire.ts) aborts the outputs (temp files and already published outputs are deleted), leaves
 * the inputs serving, logs, and rethrows. After the swap nothing can fail but logged deletes.
 *
 * Rows hidden by tombstones are purged from the outputs. The tombstones themselves must stay
 * until no file on disk needs them (see service.ts, onCompacted).
 */
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import type { TsmFileInfo } from '../tsm/writer.js';
import { CompactionAbortedError, StalePlanError } from './errors.js';
import type { HiddenLookup } from './merge.js';
import { removeMergeLeftovers, runMergeJob } from './merge-job.js';
import type { MergeJob, MergeOutcome, MergeRunner } from './merge-job.js';
import type { MergeStats } from './merge-stats.js';
import { DEFAULT_MAX_FILE_BYTES } from './outputs.js';
import type { WriterFactory } from './outputs.js';
import { DEFAULT_SLICE_MS, Pacer } from './pacer.js';
import type { CompactionPlan } from './planner.js';

export interface CompactorOptions {
  readonly logger: EngineLogger;
  readonly filter?: TombstoneFilter;
  /** Outputs are split between keys once this big (default 256 MiB). */
  readonly maxFileBytes?: number;
  readonly maxPointsPerBlock?: number;
  /** Work between two event-loop yields (default DEFAULT_SLICE_MS, 1 ms). */
  readonly sliceMs?: number;
  /** Polled at every yield (and every few ms while the worker merges); true aborts (CompactionAbortedError). */
  readonly shouldStop?: () => boolean;
  /** Read-ahead memory for all inputs together (default 16 MiB; see read-ahead.ts). */
  readonly readAheadBudget?: number;
  /** Test seam: how output files are written (default TsmWriter; merges on the event loop). */
  readonly createWriter?: WriterFactory;
  /** Where the merge runs when it can (the flush worker); absent: on the event loop. */
  readonly worker?: MergeRunner;
}

export interface CompactionResult {
  readonly plan: CompactionPlan;
  readonly inputs: readonly string[];
  readonly outputs: readonly TsmFileInfo[];
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly stats: MergeStats;
  readonly durationMs: number;
  /** Event-loop yields taken during the merge (0 when the worker merged). */
  readonly yields: number;
  /** The merge ran in the worker. */
  readonly inWorker: boolean;
}

/** How often the stop condition is passed on to a merge running in the worker. */
const STOP_POLL_MS = 5;

export async function compact(shard: Shard, plan: CompactionPlan, options: CompactorOptions): Promise<CompactionResult> {
  const { logger } = options;
  const files = shard.files;
  const inputPaths = plan.inputs.map((f) => f.path);
  if (!files) throw new StalePlanError(shard.dir, inputPaths[0] ?? shard.dir);
  const started = performance.now();
  const snapshot = files.acquire();
  const shouldStop = options.shouldStop ?? (() => false);
  const pacer = new Pacer(shard.dir, options.sliceMs ?? DEFAULT_SLICE_MS, shouldStop);
  const job: MergeJob = {
    inputs: plan.inputs.map((f) => ({ path: f.path, generation: f.id.generation })),
    dir: files.dir,
    first: plan.output,
    level: plan.level,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    baseNs: shard.baseNs,
    ...(options.maxPointsPerBlock !== undefined && { maxPointsPerBlock: options.maxPointsPerBlock }),
    ...(options.readAheadBudget !== undefined && { readAheadBudget: options.readAheadBudget }),
  };
  let merged: MergeOutcome | undefined;
  let inWorker = false;
  try {
    for (const f of plan.inputs) {
      if (!snapshot.files.some((r) => resolve(r.path) === resolve(f.path))) throw new StalePlanError(shard.dir, f.path);
    }
    const filter = options.filter ?? NO_TOMBSTONES;
    const hidden: HiddenLookup | undefined = filter.isClean(shard) ? undefined : (s, f, g) => filter.hidden(shard, s, f, g);
    if (options.worker && !hidden && !options.createWriter) {
      merged = await mergeInWorker(options.worker, job, shouldStop);
      inWorker = merged !== undefined;
    }
    merged ??= await runMergeJob(job, pacer, {
      ...(hidden && { hidden }),
      ...(options.createWriter && { createWriter: options.createWriter }),
      onAbortError: (err) => logger.error({ dir: shard.dir, err }, 'cannot remove outputs of a failed compaction'),
    });
    const { outputs: written, stats } = merged;
    if (merged.damagedInputs.length > 0) {
      logger.error({ dir: shard.dir, blocks: stats.blocksDamaged, inputs: merged.damagedInputs }, 'compaction left out damaged TSM blocks; their files go to quarantine');
    }
    await files.replace(inputPaths, written.map((o) => o.path), merged.damagedInputs);
    const result: CompactionResult = {
      plan,
      inputs: inputPaths,
      outputs: written,
      bytesIn: merged.bytesIn,
      bytesOut: written.reduce((n, o) => n + o.size, 0),
      stats,
      durationMs: performance.now() - started,
      yields: pacer.yields,
      inWorker,
    };
    logger.info(
      {
        dir: shard.dir,
        kind: plan.kind,
        level: plan.level,
        inputs: inputPaths.length,
        outputs: written.map((o) => o.path),
        bytesIn: result.bytesIn,
        bytesOut: result.bytesOut,
        copied: stats.blocksCopied,
        decoded: stats.blocksDecoded,
        purged: stats.rowsPurged,
        ms: Math.round(result.durationMs),
        ...(inWorker && { worker: true }),
      },
      'compacted TSM files',
    );
    return result;
  } catch (err) {
    // The merge removed its own outputs when it failed; these are outputs the swap refused.
    if (merged) await Promise.all(merged.outputs.map((o) => rm(o.path, { force: true }))).catch((rmErr: unknown) => logger.error({ dir: shard.dir, err: rmErr }, 'cannot remove outputs of a failed compaction'));
    if (err instanceof CompactionAbortedError) logger.info({ dir: shard.dir, kind: plan.kind }, 'compaction aborted; inputs kept');
    else logger.error({ dir: shard.dir, kind: plan.kind, inputs: inputPaths, err }, 'compaction failed; inputs kept');
    throw err;
  } finally {
    await snapshot.release();
  }
}

/**
 * The merge in the worker, the stop condition passed on through shared memory. Undefined when
 * the worker could not answer (not running, died mid-merge): whatever it left under the output
 * names is removed, so the caller can merge on the event loop under the same names.
 */
async function mergeInWorker(worker: MergeRunner, job: MergeJob, shouldStop: () => boolean): Promise<MergeOutcome | undefined> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const poll = setInterval(() => {
    if (shouldStop()) Atomics.store(stop, 0, 1);
  }, STOP_POLL_MS);
  try {
    const merged = await worker.merge(job, stop);
    if (!merged) await removeMergeLeftovers(job);
    return merged;
  } finally {
    clearInterval(poll);
  }
}
