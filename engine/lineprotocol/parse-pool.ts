/**
 * A small pool of worker threads that parse write bodies into ColumnBatches, so line-protocol
 * parsing (the largest part of ingest CPU) runs beside the event loop instead of on it.
 *
 * `parse` never changes what a write means: it resolves with the batch, or with undefined when
 * the pool cannot answer (no workers, a worker died or failed to start, the parser threw), and
 * the caller then parses on the main thread as before. The caller still needs its body (for
 * the WAL), so the worker gets a copy: in one of its shared slots (parse-slots.ts), where the
 * worker also writes the batch's columns, until the caller releases the batch; or, when no
 * slot is free or the body is larger than a slot, in a buffer transferred there and back and
 * reused for later bodies (a fresh megabyte-sized buffer per body, freed only when the
 * worker's heap is next collected, held ~60 MiB of dead bodies in the server's RSS).
 * Starting, replacing and giving up on workers is engine/worker-client.ts.
 */
import { WorkerClient } from '../worker-client.js';
import { BufferRecycler } from '../buffer-recycler.js';
import type { ColumnBatch } from './columns.js';
import type { ParseOptions } from './parse.js';
import type { ParseInit, ParseReply } from './parse-worker.js';
import { ParseSlots, unslotted } from './parse-slots.js';
import { columnBatch } from './column-batch.js';
import { SeriesReceiver } from './series-wire.js';

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);
/**
 * A worker's garbage is one body's worth at a time and, parsed straight into columns, mostly
 * dies young: a small young generation is enough (the default, 48 MB, cost the server
 * ~150 MiB of RSS per worker on cpu bodies); capping the old generation keeps idle heap growth
 * out of the server's RSS. A body that does not fit runs the worker out of memory: it is
 * replaced and that body parsed on the main thread, as without workers.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

/** A worker-parsed body: `release` once the batch is no longer read (its columns may be in a slot). */
export interface ParsedBody {
  readonly batch: ColumnBatch;
  release(): void;
}

const NOTHING_TO_RELEASE = (): void => {};

/** A reply with transferred columns, its series decoded; undefined when there is none (the caller parses). */
function transferred(lane: Lane, reply: ParseReply | undefined): ParsedBody | undefined {
  if (!reply || !('batch' in reply)) return undefined;
  const series = lane.series.decode(reply.batch.series);
  if (!series) return undefined;
  const { fieldNames, boxed, errors, minSec } = reply.batch;
  return { batch: columnBatch(reply.batch, { series, fieldNames, boxed, errors, minSec }), release: NOTHING_TO_RELEASE };
}

interface Lane {
  readonly client: WorkerClient<ParseReply>;
  readonly slots: ParseSlots;
  /** The series its worker has sent (series-wire.ts); replies are decoded in arrival order. */
  readonly series: SeriesReceiver;
}

export class ParsePool {
  private readonly lanes: Lane[];
  /** Body copies that do not go through a slot travel to a worker and back, and are reused. */
  private readonly bodies = new BufferRecycler();
  private closed = false;

  constructor(size: number, onOnline?: (threadId: number) => void) {
    this.lanes = Array.from({ length: Math.max(0, size) }, () => {
      const slots = new ParseSlots();
      const init: ParseInit = { slots: slots.buffers };
      return { client: new WorkerClient<ParseReply>(WORKER_URL, WORKER_LIMITS, onOnline, init), slots, series: new SeriesReceiver() };
    });
  }

  get size(): number {
    return this.closed ? 0 : this.lanes.filter((l) => l.client.available).length;
  }

  /** Worker threads started and not lost. */
  get running(): number {
    return this.lanes.filter((l) => l.client.running).length;
  }

  /** Start the worker threads now (they start on the first parse otherwise). */
  warm(): void {
    if (!this.closed) for (const l of this.lanes) l.client.warm();
  }

  /** Resolves when every started worker has loaded its modules (WorkerClient.whenLoaded). */
  async whenLoaded(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.client.whenLoaded()));
  }

  async parse(body: Uint8Array, opts: ParseOptions): Promise<ParsedBody | undefined> {
    const lane = this.leastBusy();
    if (!lane) return undefined;
    const job = { precision: opts.precision, defaultSec: opts.defaultSec, defaultNsec: opts.defaultNsec };
    const slot = lane.slots.take(body);
    if (slot === undefined) return this.parseTransferred(lane, body, job);
    const reply = await lane.client.request({ slot, length: body.byteLength, opts: job });
    const series = reply && 'slotted' in reply ? lane.series.decode(reply.slotted.series) : undefined;
    if (reply && 'slotted' in reply && series) {
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        lane.slots.give(slot);
      };
      return { batch: unslotted(lane.slots.buffers[slot]!, reply.slotted, series), release };
    }
    lane.slots.give(slot);
    return transferred(lane, reply);
  }

  private async parseTransferred(lane: Lane, body: Uint8Array, opts: ParseOptions): Promise<ParsedBody | undefined> {
    const copy = this.bodies.copyOf(body);
    const reply = await lane.client.request({ body: copy, opts }, [copy.buffer as ArrayBuffer]);
    if (reply && 'body' in reply && reply.body) this.bodies.release(reply.body);
    return transferred(lane, reply);
  }

  private leastBusy(): Lane | undefined {
    if (this.closed) return undefined;
    let best: Lane | undefined;
    for (const l of this.lanes) if (l.client.available && (!best || l.client.inFlight < best.client.inFlight)) best = l;
    return best;
  }

  /** Stop the workers; calls still in flight resolve undefined (the caller parses itself). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lanes.map((l) => l.client.close()));
  }
}
