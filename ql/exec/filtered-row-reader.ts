/**
 * Rows of ONE series for a raw SELECT whose WHERE reads only some of the fields: the
 * condition's fields are joined and tested first, and the other fields are looked up only at
 * the times that pass (each cursor is advanced by binary search inside its batches, whole
 * batches before the wanted time are skipped). `SELECT * ... WHERE usage_user > 90` thus joins
 * one column per row instead of ten. Same rows, in the same order, as RowReader followed by
 * the filter, provided the filter is never true on a row where every condition field is null
 * (select-raw checks that before choosing this reader).
 */
import type { Batch, Cursor } from '../../engine/index.js';
import { cellAt, RowReader, type Row } from './row-reader.js';
import type { Scalar } from './value.js';

interface Head {
  readonly cursor: Cursor;
  batch: Batch | null;
  i: number;
  done: boolean;
}

export class FilteredRowReader {
  private readonly cond: RowReader;
  private readonly others: Head[];

  constructor(
    condCursors: readonly Cursor[],
    /** Row slot of each condition cursor's value. */
    private readonly condSlots: readonly number[],
    otherCursors: readonly Cursor[],
    private readonly otherSlots: readonly number[],
    private readonly width: number,
    private readonly ascending: boolean,
    /** The WHERE on a condition row (values in condCursors order). */
    private readonly passes: (row: Row) => boolean,
  ) {
    this.cond = new RowReader(condCursors, ascending);
    this.others = otherCursors.map((cursor) => ({ cursor, batch: null, i: 0, done: false }));
  }

  async next(): Promise<Row | null> {
    for (;;) {
      const row = await this.cond.next();
      if (!row) return null;
      if (!this.passes(row)) continue;
      const values = new Array<Scalar>(this.width).fill(null);
      this.condSlots.forEach((slot, k) => (values[slot] = row.values[k]!));
      for (let k = 0; k < this.others.length; k++) values[this.otherSlots[k]!] = await this.valueAt(this.others[k]!, row.time);
      return { time: row.time, values };
    }
  }

  /** The head's value at time t (null if it has none), leaving it at the first point not before t. */
  private async valueAt(h: Head, t: bigint): Promise<Scalar> {
    const s = this.ascending ? 1 : -1;
    for (;;) {
      if (!h.batch || h.i >= h.batch.offsets.length) {
        if (h.done) return null;
        h.batch = await h.cursor.next();
        h.i = 0;
        if (!h.batch) {
          h.done = true;
          return null;
        }
      }
      const offs = h.batch.offsets;
      const target = Number(t - h.batch.base) * s;
      if (offs[offs.length - 1]! * s < target) {
        h.i = offs.length;
        continue;
      }
      let lo = h.i;
      let hi = offs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (offs[mid]! * s < target) lo = mid + 1;
        else hi = mid;
      }
      h.i = lo;
      return offs[lo]! * s === target ? cellAt(h.batch.column, lo) : null;
    }
  }

  close(): void {
    this.cond.close();
    for (const h of this.others) h.cursor.close();
  }
}
