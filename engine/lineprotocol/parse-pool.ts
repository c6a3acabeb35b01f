/**
 * A small pool of worker threads that parse write bodies into ColumnBatches, so line-protocol
 * parsing (the largest part of ingest CPU) runs beside the event loop instead of on it.
 *
 * `parse` never changes what a write means: it resolves with the batch, or with undefined when
 * the pool cannot answer (no workers, a worker died or failed to start, the parser threw), and
 * the caller then parses on the main thread as before. The body is copied to the worker (the
 * caller still needs it for the WAL) and the answer's buffers are transferred back, with the
 * copy, which the next body reuses: a fresh megabyte-sized buffer per body, freed only when
 * the worker's heap is next collected (rarely: parsing allocates little on the heap), held
 * ~60 MiB of dead bodies in the server's RSS. Starting, replacing and giving up on workers is
 * engine/worker-client.ts.
 */
import { WorkerClient } from '../worker-client.js';
import { BufferRecycler } from '../buffer-recycler.js';
import type { ColumnBatch } from './columns.js';
import type { ParseOptions } from './parse.js';
import type { ParseReply } from './parse-worker.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);
/**
 * A worker's garbage is one body's worth at a time and, parsed straight into columns, mostly
 * dies young: a small young generation is enough (the default, 48 MB, cost the server
 * ~150 MiB of RSS per worker on cpu bodies); capping the old generation keeps idle heap growth
 * out of the server's RSS. A body that does not fit runs the worker out of memory: it is
 * replaced and that body parsed on the main thread, as without workers.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

export class ParsePool {
  private readonly clients: WorkerClient<ParseReply>[];
  /** Body copies travel to a worker and back, and are reused for later bodies. */
  private readonly bodies = new BufferRecycler();
  private closed = false;

  constructor(size: number, onOnline?: (threadId: number) => void) {
    this.clients = Array.from({ length: Math.max(0, size) }, () => new WorkerClient<ParseReply>(WORKER_URL, WORKER_LIMITS, onOnline));
  }

  get size(): number {
    return this.closed ? 0 : this.clients.filter((c) => c.available).length;
  }

  /** Worker threads started and not lost. */
  get running(): number {
    return this.clients.filter((c) => c.running).length;
  }

  /** Start the worker threads now (they start on the first parse otherwise). */
  warm(): void {
    if (!this.closed) for (const c of this.clients) c.warm();
  }

  async parse(body: Uint8Array, opts: ParseOptions): Promise<ColumnBatch | undefined> {
    const client = this.leastBusy();
    if (!client) return undefined;
    const copy = this.bodies.copyOf(body); // the caller still needs `body` (WAL): the worker gets a copy
    const job = { body: copy, opts: { precision: opts.precision, defaultSec: opts.defaultSec, defaultNsec: opts.defaultNsec } };
    const reply = await client.request(job, [copy.buffer as ArrayBuffer]);
    if (reply) this.bodies.release(reply.body);
    return reply && 'batch' in reply ? reply.batch : undefined;
  }

  private leastBusy(): WorkerClient<ParseReply> | undefined {
    if (this.closed) return undefined;
    let best: WorkerClient<ParseReply> | undefined;
    for (const c of this.clients) if (c.available && (!best || c.inFlight < best.inFlight)) best = c;
    return best;
  }

  /** Stop the workers; calls still in flight resolve undefined (the caller parses itself). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.clients.map((c) => c.close()));
  }
}
