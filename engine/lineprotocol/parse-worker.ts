/**
 * Entry point of a parse worker thread (see parse-pool.ts): parses write bodies with the same
 * parser the main thread uses and answers with the columnar batch. A body that came in a
 * shared slot (parse-slots.ts) gets its columns written behind it in the slot when they fit;
 * otherwise the columns (and a body copy, for reuse) are transferred. A body the parser refuses
 * as a whole (thrown, e.g. beyond the string limit) is answered with `failed`, and the main
 * thread parses it itself so the error is exactly today's.
 */
import { parentPort } from 'node:worker_threads';
import { columnBuffers, parseToColumns, type ColumnBatch } from './columns.js';
import { alignUp8 } from './column-layout.js';
import { slotted, type SlottedBatch } from './parse-slots.js';
import type { ParseOptions } from './parse.js';
import { SeriesSender, type SeriesWire } from './series-wire.js';
import { WORKER_LOADED } from '../worker-client.js';

/** Sent once when the thread starts: the shared slots jobs refer to. */
export interface ParseInit {
  readonly slots: readonly SharedArrayBuffer[];
}

/** A body in slot `slot` (its first `length` bytes), or a transferred copy in `body`. */
export type ParseJob = { readonly id: number; readonly opts: ParseOptions } & ({ readonly slot: number; readonly length: number } | { readonly body: Uint8Array });

/** A transferred batch with its series as numbers (series-wire.ts). */
export type WiredBatch = Omit<ColumnBatch, 'series'> & { readonly series: SeriesWire };

/** `body` is the job's transferred body buffer, handed back for reuse. */
export type ParseReply =
  | { id: number; body?: ArrayBuffer; batch: WiredBatch }
  | { id: number; slotted: SlottedBatch }
  | { id: number; body?: ArrayBuffer; failed: true };

const port = parentPort;
let slots: readonly SharedArrayBuffer[] = [];
const series = new SeriesSender();

if (port) {
  port.on('message', (m: ParseInit | ParseJob) => {
    if ('slots' in m) slots = m.slots;
    else answer(m);
  });
  port.postMessage(WORKER_LOADED);
}

/** Where a job's body is, and what goes back with the answer (a transferred body, for reuse). */
function bodyOf(job: ParseJob): { body: Uint8Array; shared?: SharedArrayBuffer; returned?: ArrayBuffer } {
  if ('slot' in job) {
    const shared = slots[job.slot]!;
    return { body: Buffer.from(shared, 0, job.length), shared };
  }
  return { body: job.body, returned: job.body.buffer as ArrayBuffer };
}

function answer(job: ParseJob): void {
  const { body, shared, returned } = bodyOf(job);
  const back = returned ? [returned] : [];
  let batch;
  try {
    batch = parseToColumns(body, job.opts, shared && { buffer: shared, at: alignUp8(body.byteLength) });
  } catch {
    port!.postMessage({ id: job.id, body: returned, failed: true } satisfies ParseReply, back);
    return;
  }
  const wire = series.encode(batch.series);
  if (shared && batch.sec.buffer === shared) {
    port!.postMessage({ id: job.id, slotted: slotted(batch, wire, batch.sec.byteOffset) } satisfies ParseReply);
  } else {
    port!.postMessage({ id: job.id, body: returned, batch: { ...batch, series: wire } } satisfies ParseReply, [...back, ...columnBuffers(batch)]);
  }
}
