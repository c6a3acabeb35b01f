/**
 * Runs one compaction plan on one shard:
 *
 *   1. pin the shard's files (a snapshot), so the inputs stay on disk whatever else happens,
 *      and open private readers on them (read-ahead.ts);
 *   2. merge the inputs into new files (merge.ts, outputs.ts), yielding to the event loop
 *      every few ms (pacer.ts) so writes and queries keep running;
 *   3. `files.replace(inputs, outputs)`: one synchronous swap for new readers; queries that
 *      pinned the inputs keep reading them, and each input is deleted when its last pin goes;
 *   4. release the snapshot.
 *
 * Any failure before the swap (I/O, corruption in an input block, a stale plan, the service
 * stopping) aborts the outputs (temp files and already published outputs are deleted), leaves
 * the inputs serving, logs, and rethrows. After the swap nothing can fail but logged deletes.
 *
 * Rows hidden by tombstones are purged from the outputs. The tombstones themselves must stay
 * until no file on disk needs them (see service.ts, onCompacted).
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { TsmReader } from '../tsm/reader.js';
import type { TsmFileInfo } from '../tsm/writer.js';
import { CompactionAbortedError, StalePlanError } from './errors.js';
import { mergeFiles } from './merge.js';
import type { HiddenLookup, MergeInput } from './merge.js';
import type { MergeStats } from './merge-stats.js';
import { DEFAULT_MAX_FILE_BYTES, OutputFiles } from './outputs.js';
import type { WriterFactory } from './outputs.js';
import { DEFAULT_SLICE_MS, Pacer } from './pacer.js';
import type { CompactionPlan } from './planner.js';
import { chunkBytesFor, readAheadOpener } from './read-ahead.js';

export interface CompactorOptions {
  readonly logger: EngineLogger;
  readonly filter?: TombstoneFilter;
  /** Outputs are split between keys once this big (default 256 MiB). */
  readonly maxFileBytes?: number;
  readonly maxPointsPerBlock?: number;
  /** Work between two event-loop yields (default DEFAULT_SLICE_MS, 1 ms). */
  readonly sliceMs?: number;
  /** Polled at every yield; true aborts the compaction (CompactionAbortedError). */
  readonly shouldStop?: () => boolean;
  /** Read-ahead memory for all inputs together (default 16 MiB; see read-ahead.ts). */
  readonly readAheadBudget?: number;
  /** Test seam: how output files are written (default TsmWriter). */
  readonly createWriter?: WriterFactory;
}

export interface CompactionResult {
  readonly plan: CompactionPlan;
  readonly inputs: readonly string[];
  readonly outputs: readonly TsmFileInfo[];
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly stats: MergeStats;
  readonly durationMs: number;
  /** Event-loop yields taken during the merge. */
  readonly yields: number;
}

export async function compact(shard: Shard, plan: CompactionPlan, options: CompactorOptions): Promise<CompactionResult> {
  const { logger } = options;
  const files = shard.files;
  const inputPaths = plan.inputs.map((f) => f.path);
  if (!files) throw new StalePlanError(shard.dir, inputPaths[0] ?? shard.dir);
  const started = performance.now();
  const snapshot = files.acquire();
  const outputs = new OutputFiles(
    (id) => files.pathFor(id),
    plan.output,
    plan.level,
    options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    options.createWriter,
  );
  const pacer = new Pacer(shard.dir, options.sliceMs ?? DEFAULT_SLICE_MS, options.shouldStop);
  // Private readers (read-ahead, no block cache) over the pinned files; see read-ahead.ts.
  const inputs: MergeInput[] = [];
  const openFile = readAheadOpener(chunkBytesFor(plan.inputs.length, options.readAheadBudget));
  try {
    for (const f of plan.inputs) {
      if (!snapshot.files.some((r) => resolve(r.path) === resolve(f.path))) throw new StalePlanError(shard.dir, f.path);
      inputs.push({ reader: await TsmReader.open(f.path, { openFile }), generation: f.id.generation });
    }
    const filter = options.filter ?? NO_TOMBSTONES;
    const hidden: HiddenLookup | undefined = filter.isClean(shard) ? undefined : (s, f, g) => filter.hidden(shard, s, f, g);
    const merge = { baseNs: shard.baseNs, pacer, ...(hidden && { hidden }), ...(options.maxPointsPerBlock && { maxPointsPerBlock: options.maxPointsPerBlock }) };
    const stats = await mergeFiles(inputs, outputs, merge);
    const written = await outputs.finish();
    await files.replace(inputPaths, written.map((o) => o.path));
    const result: CompactionResult = {
      plan,
      inputs: inputPaths,
      outputs: written,
      bytesIn: inputs.reduce((n, i) => n + i.reader.stats().bytes, 0),
      bytesOut: written.reduce((n, o) => n + o.size, 0),
      stats,
      durationMs: performance.now() - started,
      yields: pacer.yields,
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
      },
      'compacted TSM files',
    );
    return result;
  } catch (err) {
    await outputs.abort().catch((abortErr: unknown) => logger.error({ dir: shard.dir, err: abortErr }, 'cannot remove outputs of a failed compaction'));
    if (err instanceof CompactionAbortedError) logger.info({ dir: shard.dir, kind: plan.kind }, 'compaction aborted; inputs kept');
    else logger.error({ dir: shard.dir, kind: plan.kind, inputs: inputPaths, err }, 'compaction failed; inputs kept');
    throw err;
  } finally {
    await Promise.all(inputs.map((i) => i.reader.close()));
    await snapshot.release();
  }
}
