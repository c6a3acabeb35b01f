/**
 * Entry point of the flush worker thread (see flush-worker-pool.ts): writes one snapshot file
 * per request with the same function the event loop uses, and answers with its summary.
 */
import { parentPort } from 'node:worker_threads';
import type { TsmFileInfo } from '../tsm/writer.js';
import { writeSnapshotFile, type SnapshotColumn } from './snapshot-file.js';

export interface FlushJob {
  readonly id: number;
  readonly path: string;
  readonly baseNs: bigint;
  readonly columns: readonly SnapshotColumn[];
  readonly maxPointsPerBlock: number;
}

export type FlushReply = { id: number; values: number; info: TsmFileInfo | undefined } | { id: number; error: string };

const port = parentPort;
if (port) {
  port.on('message', (job: FlushJob) => {
    writeSnapshotFile(job.path, job.baseNs, job.columns, job.maxPointsPerBlock).then(
      (r) => port.postMessage({ id: job.id, values: r.values, info: r.info } satisfies FlushReply),
      (err: unknown) => port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies FlushReply),
    );
  });
}
