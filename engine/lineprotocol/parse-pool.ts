/**
 * A small pool of worker threads that parse write bodies into ColumnBatches, so line-protocol
 * parsing (the largest part of ingest CPU) runs beside the event loop instead of on it.
 *
 * `parse` never changes what a write means: it resolves with the batch, or with undefined when
 * the pool cannot answer (no workers, a worker died or failed to start, the parser threw), and
 * the caller then parses on the main thread as before. The body is copied to the worker (the
 * caller still needs it for the WAL) and the answer's buffers are transferred back. A dead
 * worker is replaced on the next call; after repeated start failures (e.g. a bundled binary
 * without the worker file) the pool turns itself off.
 */
import { Worker } from 'node:worker_threads';
import type { ColumnBatch } from './columns.js';
import type { ParseOptions } from './parse.js';
import type { ParseJob } from './parse-worker.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);
const MAX_START_FAILURES = 3;
/**
 * A worker's garbage is one body's worth at a time and, parsed straight into columns, mostly
 * dies young: a small young generation is enough (the default, 48 MB, cost the server
 * ~150 MiB of RSS per worker on cpu bodies); capping the old generation keeps idle heap growth
 * out of the server's RSS. A body that
 * does not fit runs the worker out of memory: it is replaced and that body parsed on the main
 * thread, as without workers.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

interface Slot {
  worker: Worker | undefined;
  pending: Map<number, (b: ColumnBatch | undefined) => void>;
}

type Reply = { id: number; batch: ColumnBatch } | { id: number; failed: true };

export class ParsePool {
  private readonly slots: Slot[];
  private nextId = 1;
  private startFailures = 0;
  private closed = false;

  constructor(size: number) {
    this.slots = Array.from({ length: Math.max(0, size) }, () => ({ worker: undefined, pending: new Map() }));
  }

  get size(): number {
    return this.closed || this.startFailures >= MAX_START_FAILURES ? 0 : this.slots.length;
  }

  parse(body: Uint8Array, opts: ParseOptions): Promise<ColumnBatch | undefined> {
    if (this.size === 0) return Promise.resolve(undefined);
    const slot = this.leastBusy();
    const worker = slot.worker ?? this.start(slot);
    if (!worker) return Promise.resolve(undefined);
    const id = this.nextId++;
    const copy = new Uint8Array(body); // own ArrayBuffer, exactly the body, movable
    return new Promise((resolve) => {
      slot.pending.set(id, resolve);
      const job: ParseJob = { id, body: copy, opts: { precision: opts.precision, defaultSec: opts.defaultSec, defaultNsec: opts.defaultNsec } };
      worker.postMessage(job, [copy.buffer]);
    });
  }

  private leastBusy(): Slot {
    let best = this.slots[0]!;
    for (const s of this.slots) if (s.pending.size < best.pending.size) best = s;
    return best;
  }

  private start(slot: Slot): Worker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS });
    } catch {
      this.startFailures++;
      return undefined;
    }
    worker.unref();
    slot.worker = worker;
    worker.on('message', (r: Reply) => {
      const done = slot.pending.get(r.id);
      slot.pending.delete(r.id);
      done?.('batch' in r ? r.batch : undefined);
    });
    worker.on('online', () => {
      this.startFailures = 0;
    });
    const lost = (): void => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      // An 'error' before 'online' is a start failure (missing file, bad bundle).
      for (const done of slot.pending.values()) done(undefined);
      slot.pending.clear();
    };
    worker.on('error', () => {
      this.startFailures++;
      lost();
    });
    worker.on('exit', lost);
    return worker;
  }

  /** Stop the workers; calls still in flight resolve undefined (the caller parses itself). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        const w = slot.worker;
        if (w) await w.terminate();
      }),
    );
  }
}
