/**
 * Shared memory between the event loop and one parse worker: a few fixed slots, each holding
 * one body on its way to the worker and the columns of its batch on the way back
 * (column-layout.ts), so neither travels as a new ArrayBuffer. The slots are handed to the
 * worker once when it starts; a job then names its slot.
 *
 * A slot is taken for one body and given back when the event loop has stored (or dropped)
 * the batch: the worker writes a slot only between taking a job and answering it, the event
 * loop only outside that. Bodies that do not fit a slot, or arrive while every slot is taken,
 * go the transferring way, as do columns that do not fit behind their body.
 *
 * The operating system backs a slot's pages only once they are written, i.e. as far as bodies
 * and their columns reach: a small device writing small bodies pays for what it uses. The
 * most recently freed slot is reused first for the same reason.
 */
import type { ColumnBatch, SeriesRef } from './columns.js';
import type { SeriesWire } from './series-wire.js';
import { columnViews, type ColumnCounts, type ColumnViews } from './column-layout.js';
import { columnBatch } from './column-batch.js';

/** Four bodies in flight per worker before the transferring way; 4 MiB holds a 5000-line cpu body and its columns. */
export const SLOT_COUNT = 4;
export const SLOT_BYTES = 4 * 1024 * 1024;

/** A batch whose columns are in its slot: what the worker posts instead of the batch. */
export type SlottedBatch = Omit<ColumnBatch, keyof ColumnViews | 'series'> & { readonly series: SeriesWire; readonly at: number; readonly counts: ColumnCounts };

export class ParseSlots {
  readonly buffers: SharedArrayBuffer[];
  private readonly free: number[] = [];

  constructor(
    count = SLOT_COUNT,
    private readonly bytes = SLOT_BYTES,
  ) {
    this.buffers = Array.from({ length: count }, () => new SharedArrayBuffer(bytes));
    for (let i = count - 1; i >= 0; i--) this.free.push(i);
  }

  /** A free slot holding a copy of `body`, or undefined (none free, or the body does not fit). */
  take(body: Uint8Array): number | undefined {
    if (this.free.length === 0 || body.byteLength > this.bytes) return undefined;
    const slot = this.free.pop()!;
    new Uint8Array(this.buffers[slot]!, 0, body.byteLength).set(body);
    return slot;
  }

  give(slot: number): void {
    this.free.push(slot);
  }
}

/** The worker's side of a batch finished into its slot: everything but the column views. */
export function slotted(batch: ColumnBatch, series: SeriesWire, at: number): SlottedBatch {
  const { fieldNames, boxed, errors, minSec } = batch;
  return { series, fieldNames, boxed, errors, minSec, at, counts: { points: batch.pointSeries.length, values: batch.num.length, kinds: batch.kinds.length } };
}

/** The event loop's side: the batch over its slot's memory (`series` decoded from `s.series`). */
export function unslotted(buffer: SharedArrayBuffer, s: SlottedBatch, series: readonly SeriesRef[]): ColumnBatch {
  return columnBatch(columnViews(buffer, s.at, s.counts), { series, fieldNames: s.fieldNames, boxed: s.boxed, errors: s.errors, minSec: s.minSec });
}
