/**
 * The part of a compaction that only reads and writes files: open the (pinned) inputs by path,
 * merge them (merge.ts) into the output files (outputs.ts), publish the outputs. Everything it
 * needs is in a `MergeJob` of plain, clonable values, so the same function runs on the event
 * loop or in the flush worker (flush/flush-worker.ts), where the block encoders are already
 * compiled for snapshots and the merge does not take turns with request handling. Planning,
 * pinning, the swap into the file set and the release stay with the compactor (compactor.ts).
 *
 * On any failure the outputs written so far are deleted before the error is rethrown.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { tsmFileName } from '../tsm/format.js';
import type { TsmFileId } from '../tsm/format.js';
import { TsmReader } from '../tsm/reader.js';
import { TEMP_SUFFIX } from '../fs/atomic.js';
import type { TsmFileInfo } from '../tsm/writer.js';
import { mergeFiles } from './merge.js';
import type { HiddenLookup, MergeInput } from './merge.js';
import type { MergeStats } from './merge-stats.js';
import { OutputFiles } from './outputs.js';
import type { WriterFactory } from './outputs.js';
import type { Pacer } from './pacer.js';
import { chunkBytesFor, readAheadOpener } from './read-ahead.js';

export interface MergeJob {
  /** Inputs in (generation, sequence) order; the compactor keeps them pinned until it is done. */
  readonly inputs: readonly { readonly path: string; readonly generation: number }[];
  /** The shard's directory: outputs are `dir/<first.generation>-<first.sequence + i>.tsm`. */
  readonly dir: string;
  readonly first: TsmFileId;
  readonly level: number;
  readonly maxFileBytes: number;
  readonly baseNs: bigint;
  readonly maxPointsPerBlock?: number;
  readonly readAheadBudget?: number;
}

export interface MergeOutcome {
  readonly outputs: TsmFileInfo[];
  readonly stats: MergeStats;
  /** Sum of the inputs' sizes. */
  readonly bytesIn: number;
  /** Inputs with blocks left out as damaged: kept in quarantine instead of deleted. */
  readonly damagedInputs: readonly string[];
}

/** Runs a job elsewhere (the flush worker); undefined when it cannot, and the caller merges itself. */
export interface MergeRunner {
  /** Rejects with the merge's own error type; `stop[0]` set non-zero aborts at the next pacer tick. */
  merge(job: MergeJob, stop: Int32Array): Promise<MergeOutcome | undefined>;
}

/** What only an in-process merge can take: closures over event-loop state. */
export interface LocalMergeOptions {
  readonly hidden?: HiddenLookup;
  readonly createWriter?: WriterFactory;
  /** Told when deleting the outputs of a failed merge failed too (the merge's error is rethrown). */
  readonly onAbortError?: (err: unknown) => void;
}

export function outputPath(job: MergeJob, id: TsmFileId): string {
  return join(job.dir, tsmFileName(id));
}

export async function runMergeJob(job: MergeJob, pacer: Pacer, local: LocalMergeOptions = {}): Promise<MergeOutcome> {
  const outputs = new OutputFiles((id) => outputPath(job, id), job.first, job.level, job.maxFileBytes, local.createWriter);
  const openFile = readAheadOpener(chunkBytesFor(job.inputs.length, job.readAheadBudget));
  const inputs: MergeInput[] = [];
  try {
    for (const { path, generation } of job.inputs) inputs.push({ reader: await TsmReader.open(path, { openFile }), generation });
    const merge = { baseNs: job.baseNs, pacer, ...(local.hidden && { hidden: local.hidden }), ...(job.maxPointsPerBlock && { maxPointsPerBlock: job.maxPointsPerBlock }) };
    const stats = await mergeFiles(inputs, outputs, merge);
    const written = await outputs.finish();
    const damagedInputs = inputs.filter((i) => i.reader.damagedBlocks > 0).map((i) => i.reader.path);
    return { outputs: written, stats, bytesIn: inputs.reduce((n, i) => n + i.reader.stats().bytes, 0), damagedInputs };
  } catch (err) {
    await outputs.abort().catch((abortErr: unknown) => local.onAbortError?.(abortErr));
    throw err;
  } finally {
    await Promise.all(inputs.map((i) => i.reader.close()));
  }
}

/**
 * Deletes whatever a merge of `job` that could not finish left under its output names (a
 * worker that died mid-merge): outputs are written one after another from `first`, so the
 * names are probed in order until one is missing, together with its temp file.
 */
export async function removeMergeLeftovers(job: MergeJob): Promise<void> {
  for (let sequence = job.first.sequence; ; sequence++) {
    const path = outputPath(job, { generation: job.first.generation, sequence });
    const found = (await exists(path)) || (await exists(path + TEMP_SUFFIX));
    if (!found) return;
    await rm(path, { force: true });
    await rm(path + TEMP_SUFFIX, { force: true });
  }
}

function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
