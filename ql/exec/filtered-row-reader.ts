/**
 * Rows of ONE series for a raw SELECT whose WHERE reads only some of the fields: the
 * condition's fields are joined and tested first, and the other fields are looked up only at
 * the times that pass. `SELECT * ... WHERE usage_user > 90` thus joins one column per row
 * instead of ten, and reads the other nine only where rows pass: their cursors are opened at
 * the first passing time and opened again at the next passing time whenever a batch is used
 * up, so blocks between clusters of passing rows are never read (lookups inside a batch are
 * binary searches). Same rows, in the same order, as RowReader followed by
 * the filter, provided the filter is never true on a row where every condition field is null
 * (select-raw checks that before choosing this reader).
 */
import type { Batch, Cursor } from '../../engine/index.js';
import { cellAt, RowReader, type Row } from './row-reader.js';
import type { Scalar } from './value.js';
import type { RangeCheck } from './condition-range.js';

interface Head {
  readonly cursor: Cursor;
  batch: Batch | null;
  i: number;
  done: boolean;
}

/** A field read at chosen times: `open(t)` makes its cursor from time t on, in cursor order. */
interface SeekingHead {
  readonly open: (fromNs: bigint) => Cursor;
  cursor: Cursor | undefined;
  batch: Batch | null;
  i: number;
  done: boolean;
}

export class FilteredRowReader {
  readonly appliesWhere = true;
  /** Several condition fields are joined by time; a single one is scanned in its batches. */
  private readonly cond: RowReader | Head;
  private readonly others: SeekingHead[];
  private readonly one: Scalar[] = [null];

  constructor(
    condCursors: readonly Cursor[],
    /** Row slot of each condition cursor's value. */
    private readonly condSlots: readonly number[],
    /** The other fields' cursors, from a given time on. */
    otherCursors: readonly ((fromNs: bigint) => Cursor)[],
    private readonly otherSlots: readonly number[],
    private readonly width: number,
    private readonly ascending: boolean,
    /** The WHERE on the condition fields' values (in condCursors order) of one row. */
    private readonly passes: (values: readonly Scalar[]) => boolean,
    /** With a single condition field: whether the WHERE may hold in a batch of that min and max (condition-range.ts). */
    private readonly mayHold?: RangeCheck,
  ) {
    this.cond = condCursors.length === 1 ? head(condCursors[0]!) : new RowReader(condCursors, ascending);
    this.others = otherCursors.map((open) => ({ open, cursor: undefined, batch: null, i: 0, done: false }));
  }

  /** The next condition row that passes. */
  private async nextPassing(): Promise<Row | null> {
    const cond = this.cond;
    if (cond instanceof RowReader) {
      for (let row = await cond.next(); row; row = await cond.next()) if (this.passes(row.values)) return row;
      return null;
    }
    const one = this.one;
    for (;;) {
      const b = cond.batch;
      if (!b || cond.i >= b.offsets.length) {
        if (cond.done) return null;
        const next = await cond.cursor.next();
        cond.i = 0;
        if (!next) cond.done = true;
        // A whole stored block whose stats rule the WHERE out is skipped undecoded.
        const st = next?.stats;
        cond.batch = st && st.min !== undefined && st.max !== undefined && this.mayHold && !this.mayHold(st.min, st.max) ? null : next;
        continue;
      }
      const n = b.offsets.length;
      for (let i = cond.i; i < n; i++) {
        one[0] = cellAt(b.column, i);
        if (!this.passes(one)) continue;
        cond.i = i + 1;
        return { time: b.base + BigInt(b.offsets[i]!), values: [one[0]] };
      }
      cond.i = n;
    }
  }

  async next(): Promise<Row | null> {
    for (;;) {
      const row = await this.nextPassing();
      if (!row) return null;
      const values = new Array<Scalar>(this.width).fill(null);
      this.condSlots.forEach((slot, k) => (values[slot] = row.values[k]!));
      for (let k = 0; k < this.others.length; k++) values[this.otherSlots[k]!] = await this.valueAt(this.others[k]!, row.time);
      return { time: row.time, values };
    }
  }

  /** The head's value at time t (null if it has none), leaving it at the first point not before t. */
  private async valueAt(h: SeekingHead, t: bigint): Promise<Scalar> {
    const s = this.ascending ? 1 : -1;
    for (;;) {
      if (!h.batch || h.i >= h.batch.offsets.length) {
        // Times only move on in cursor order: nothing from an earlier start means nothing from t.
        if (h.done) return null;
        h.cursor?.close();
        h.cursor = h.open(t);
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
    if (this.cond instanceof RowReader) this.cond.close();
    else this.cond.cursor.close();
    for (const h of this.others) h.cursor?.close();
  }
}

function head(cursor: Cursor): Head {
  return { cursor, batch: null, i: 0, done: false };
}
