/**
 * The flush worker: encodes frozen caches into TSM files on its own thread, so a snapshot's
 * block encoding (a fifth to a quarter of the event loop's time under steady ingest, measured
 * in perf/README.md) no longer stalls request handling, and uses the core the parse worker
 * leaves idle.
 *
 * Columns in the cache's shared slabs (cache/column-arena.ts) are posted as views of the same
 * memory: the frozen cache is not written any more, and it is released (its slabs reused)
 * only after the worker answered. Other columns (larger than a slab carves) are copied into
 * exactly sized buffers and moved. Either way the frozen cache stays readable on the event
 * loop until the file is added to the shard. `write` resolves
 * undefined when the worker cannot answer (not started, died): the caller then writes the file
 * itself with the same function, so the bytes are the same either way (flush-worker.test.ts).
 * An I/O error in the worker rejects with StorageIoError, as the event-loop path would.
 */
import type { TransferListItem } from 'node:worker_threads';
import { InvariantError, StorageIoError } from '../errors.js';
import { FieldType, type ValueColumn } from '../point.js';
import { WorkerClient } from '../worker-client.js';
import type { MergeJob, MergeOutcome, MergeRunner } from '../compact/merge-job.js';
import { mergeErrorFromWire } from '../compact/merge-error-wire.js';
import type { FlushReply } from './flush-worker.js';
import type { SnapshotColumn, SnapshotFile } from './snapshot-file.js';
import { reviveTables, type IndexTables } from '../tsm/index-tables.js';

const WORKER_URL = new URL('./flush-worker.js', import.meta.url);
/** Encoders allocate a block's worth at a time; a small young generation keeps RSS down. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

export class FlushWorker implements MergeRunner {
  private readonly client: WorkerClient<FlushReply>;

  /** @param onOnline told each time the thread came up (operators see it runs, e.g. in a bundle) */
  constructor(onOnline?: (threadId: number) => void) {
    this.client = new WorkerClient<FlushReply>(WORKER_URL, WORKER_LIMITS, onOnline);
  }

  /** The file written, with its index decoded in the worker (undefined when it could not). */
  async write(path: string, baseNs: bigint, columns: readonly SnapshotColumn[], maxPointsPerBlock: number): Promise<(SnapshotFile & { readonly index?: IndexTables | undefined }) | undefined> {
    if (!this.client.available) return undefined;
    const transfer: TransferListItem[] = [];
    const copies = columns.map((c) => {
      const offsets = isShared(c.offsets) ? c.offsets : c.offsets.slice();
      const column = c.column.type === FieldType.String || isShared(c.column.values) ? c.column : copyColumn(c.column);
      if (!isShared(offsets)) transfer.push(offsets.buffer as ArrayBuffer);
      if (column.type !== FieldType.String && !isShared(column.values)) transfer.push(column.values.buffer as ArrayBuffer);
      return { key: c.key, type: c.type, offsets, column };
    });
    const reply = await this.client.request({ kind: 'snapshot', path, baseNs, columns: copies, maxPointsPerBlock }, transfer);
    if (!reply) return undefined;
    if ('error' in reply) throw new StorageIoError(`flush worker: ${reply.error}`);
    if (!('info' in reply)) throw new InvariantError('flush worker answered a snapshot with a merge reply');
    return { values: reply.values, info: reply.info, index: reply.index && reviveTables(reply.index) };
  }

  /** The file merge of a compaction on the worker (compact/merge-job.ts); undefined when it cannot answer. */
  async merge(job: MergeJob, stop: Int32Array): Promise<MergeOutcome | undefined> {
    if (!this.client.available) return undefined;
    const reply = await this.client.request({ kind: 'merge', job, stop });
    if (!reply) return undefined;
    if ('mergeError' in reply) throw mergeErrorFromWire(reply.mergeError, job.dir);
    if (!('merged' in reply)) throw new InvariantError('flush worker answered a merge with a snapshot reply');
    return reply.merged;
  }

  /** Start the thread ahead of the first snapshot; resolves once its modules are loaded. */
  warm(): Promise<void> {
    this.client.warm();
    return this.client.whenLoaded();
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** Columns in the cache's shared slabs go to the worker as views of the same memory, uncopied. */
function isShared(a: ArrayBufferView): boolean {
  return a.buffer instanceof SharedArrayBuffer;
}

/** An exactly sized copy (a subarray would move, and copy, its whole buffer). */
function copyColumn(c: ValueColumn): ValueColumn {
  switch (c.type) {
    case FieldType.Float:
      return { type: c.type, values: c.values.slice() };
    case FieldType.Integer:
      return { type: c.type, values: c.values.slice() };
    case FieldType.Unsigned:
      return { type: c.type, values: c.values.slice() };
    case FieldType.Boolean:
      return { type: c.type, values: c.values.slice() };
    case FieldType.String:
      return c;
  }
}
