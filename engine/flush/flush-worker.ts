/**
 * Entry point of the flush worker thread (see flush-worker-pool.ts): writes one snapshot file
 * per snapshot request (and decodes its index for the event loop), and runs the file merge of a compaction per merge request, each with
 * the same function the event loop uses, and answers with its summary. Requests interleave at
 * their awaits (I/O, the merge's pacer), so a snapshot does not wait for a long merge.
 */
import { WORKER_LOADED } from '../worker-client.js';
import { parentPort } from 'node:worker_threads';
import type { TsmFileInfo } from '../tsm/writer.js';
import type { IndexTables } from '../tsm/index-tables.js';
import { TsmReader } from '../tsm/reader.js';
import { runMergeJob, type MergeJob, type MergeOutcome } from '../compact/merge-job.js';
import { mergeErrorToWire, type MergeErrorWire } from '../compact/merge-error-wire.js';
import { Pacer } from '../compact/pacer.js';
import { writeSnapshotFile, type SnapshotColumn } from './snapshot-file.js';

export interface FlushJob {
  readonly kind: 'snapshot';
  readonly id: number;
  readonly path: string;
  readonly baseNs: bigint;
  readonly columns: readonly SnapshotColumn[];
  readonly maxPointsPerBlock: number;
}

export interface MergeRequest {
  readonly kind: 'merge';
  readonly id: number;
  readonly job: MergeJob;
  /** Element 0 turns non-zero when the compaction must stop (checked at the merge's pacer ticks). */
  readonly stop: Int32Array;
}

export type FlushReply =
  | { id: number; values: number; info: TsmFileInfo | undefined; index: IndexTables | undefined }
  | { id: number; error: string }
  | { id: number; merged: MergeOutcome }
  | { id: number; mergeError: MergeErrorWire };

/**
 * Work between two yields of a merge here: nothing waits on this thread's turns but other
 * snapshot and merge requests, and the stop flag is read at each yield.
 */
const MERGE_SLICE_MS = 20;

/**
 * The new file's index, read back, checked and decoded here: the event loop then opens the file
 * without parsing it (TsmReaderOptions.index). Undefined when that fails: the event loop's own
 * open reports it.
 */
async function parsedIndex(path: string): Promise<IndexTables | undefined> {
  try {
    const reader = await TsmReader.open(path);
    await reader.close();
    return reader.index.tables;
  } catch {
    return undefined;
  }
}

const port = parentPort;
if (port) {
  port.on('message', (job: FlushJob | MergeRequest) => {
    if (job.kind === 'merge') {
      const pacer = new Pacer(job.job.dir, MERGE_SLICE_MS, () => Atomics.load(job.stop, 0) !== 0);
      runMergeJob(job.job, pacer).then(
        (merged) => port.postMessage({ id: job.id, merged } satisfies FlushReply),
        (err: unknown) => port.postMessage({ id: job.id, mergeError: mergeErrorToWire(err) } satisfies FlushReply),
      );
      return;
    }
    writeSnapshotFile(job.path, job.baseNs, job.columns, job.maxPointsPerBlock).then(
      async (r) => port.postMessage({ id: job.id, values: r.values, info: r.info, index: r.info && (await parsedIndex(r.info.path)) } satisfies FlushReply),
      (err: unknown) => port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies FlushReply),
    );
  });
  port.postMessage(WORKER_LOADED);
}
