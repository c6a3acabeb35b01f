/**
 * The series of worker-parsed batches, sent to the event loop once instead of with every
 * batch. A batch names its series by number; a series the event loop has not been sent yet
 * travels with the first batch that uses it.
 *
 * Why: a body of a fixed fleet of devices names the same few hundred series every time, and
 * sending them as objects (key, measurement, tags) cost the worker a structured-clone
 * serialisation and the event loop a deserialisation of ~1000 objects per 5000-line sensor
 * body (~30 and ~80 ns per line), plus fresh key strings whose hashes every map lookup of the
 * write path computed again (perf/README.md, section 10).
 *
 * Order: a worker's replies arrive and are decoded in the order it sent them (one port, each
 * decoded as soon as its request resolves), so both tables stay equal. A new worker's sender
 * starts with `reset`; both sides start over when the table would pass its capacity, which
 * bounds what the event loop holds per worker.
 */
import type { SeriesRef } from './columns.js';

export interface SeriesWire {
  /** The receiver drops its table first (a new sender, or the sender's table was full). */
  readonly reset: boolean;
  /** Series new to the receiver, numbered on from the length of its table. */
  readonly added: readonly SeriesRef[];
  /** The batch's series, as numbers in the table. */
  readonly ids: readonly number[];
}

export const SERIES_WIRE_CAPACITY = 16_384;

/** The worker's side. */
export class SeriesSender {
  private readonly ids = new Map<string, number>();
  private reset = true;

  constructor(private readonly capacity = SERIES_WIRE_CAPACITY) {}

  encode(series: readonly SeriesRef[]): SeriesWire {
    if (this.ids.size + series.length > this.capacity) {
      this.ids.clear();
      this.reset = true;
    }
    const added: SeriesRef[] = [];
    const ids = new Array<number>(series.length);
    for (let s = 0; s < series.length; s++) {
      const ref = series[s]!;
      let id = this.ids.get(ref.key);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(ref.key, id);
        added.push(ref);
      }
      ids[s] = id;
    }
    const reset = this.reset;
    this.reset = false;
    return { reset, added, ids };
  }
}

/** The event loop's side, one per worker. */
export class SeriesReceiver {
  private readonly table: SeriesRef[] = [];

  /** The batch's series, or undefined when it names one this receiver was never sent. */
  decode(wire: SeriesWire): SeriesRef[] | undefined {
    if (wire.reset) this.table.length = 0;
    for (const ref of wire.added) this.table.push(ref);
    const out = new Array<SeriesRef>(wire.ids.length);
    for (let s = 0; s < wire.ids.length; s++) {
      const ref = this.table[wire.ids[s]!];
      if (ref === undefined) return undefined;
      out[s] = ref;
    }
    return out;
  }

  /** Series held (for tests). */
  get size(): number {
    return this.table.length;
  }
}
