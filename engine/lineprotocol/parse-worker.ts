/**
 * Entry point of a parse worker thread (see parse-pool.ts): parses write bodies with the same
 * parser the main thread uses and answers with the columnar batch, its buffers transferred.
 * A body the parser refuses as a whole (thrown, e.g. beyond the string limit) is answered with
 * `failed`, and the main thread parses it itself so the error is exactly today's.
 */
import { parentPort } from 'node:worker_threads';
import { columnBuffers, parseToColumns, type ColumnBatch } from './columns.js';
import type { ParseOptions } from './parse.js';

export interface ParseJob {
  readonly id: number;
  readonly body: Uint8Array;
  readonly opts: ParseOptions;
}

/** `body` is the job's body buffer, handed back for reuse. */
export type ParseReply = { id: number; body: ArrayBuffer; batch: ColumnBatch } | { id: number; body: ArrayBuffer; failed: true };

const port = parentPort;
if (port) {
  port.on('message', (job: ParseJob) => {
    const body = job.body.buffer as ArrayBuffer;
    let batch;
    try {
      batch = parseToColumns(job.body, job.opts);
    } catch {
      port.postMessage({ id: job.id, body, failed: true } satisfies ParseReply, [body]);
      return;
    }
    port.postMessage({ id: job.id, body, batch } satisfies ParseReply, [body, ...columnBuffers(batch)]);
  });
}
