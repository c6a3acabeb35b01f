/**
 * A streamed subquery (subquery-stream.ts) read by an outer raw SELECT, which merges every
 * series of an output group by time: the inner series are all read at once, so computing each
 * whole (StreamedRows' one slot) would recompute them over and over, and holding them all is
 * the whole inner result. Here each inner series is computed in slices of whole windows
 * (window-slices.ts) as its cursors reach them, and a slice is dropped once every cursor of
 * its series has read it: the rows held are about one slice per series being merged.
 *
 * A slice covers `windows / series read at once` windows (at least MIN_WINDOWS, so that a
 * merge of a thousand series does not run a thousand tiny aggregates per series), fixed when
 * a series' first slice is made: the readers of one output group open all their cursors
 * before reading any (select-raw.ts), so the count is that group's. With one series per
 * output group (`GROUP BY host` outside and in) the slice is the whole series.
 *
 * Exact only where a slice's rows are the whole range's rows of its windows (subquery-stream.ts
 * `slicesInner`): one row per window from each window's own points, no fill(previous|linear)
 * or transform (they carry a window's neighbours), no inner LIMIT/OFFSET (counted from the
 * series' start), and a bounded range. Under fill(<value>) the whole range fills a call's
 * empty windows only when the call has rows somewhere: a slice is told so (callsWithPoints).
 */
import { InvariantError } from '../errors.js';
import { FieldType, type Batch, type Cursor } from '../../engine/index.js';
import type { AggCall } from './agg-calls.js';
import type { ResultSeries } from '../result.js';
import { checkpoint, type QueryContext } from './context.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { holdSubqueryRows, releaseSubqueryRows } from './subquery-rows-held.js';
import { storedOf, strictlyMonotonic, type InnerRows, type Stored } from './subquery-rows.js';
import { batchesInOrder } from './subquery-source.js';
import { windowCount, WindowSlices } from './window-slices.js';
import type { WindowSpec } from './window.js';

/** Fewest windows in a slice: each slice is one run of the inner aggregate (cursors opened, blocks decoded). */
export const MIN_WINDOWS = 1024;

/** The inner statement's window and range, and the run of one inner series over part of it. */
export interface SliceLayout {
  readonly spec: WindowSpec;
  readonly min: bigint;
  readonly max: bigint;
  readonly ascending: boolean;
  readonly runIn: (ref: SeriesRef, min: bigint, max: bigint) => Promise<ResultSeries>;
  readonly ctx: QueryContext;
}

interface Reader {
  /** The index of the next slice it reads (undefined until the slices are cut). */
  at: number | undefined;
  readonly from: bigint;
}

interface HeldSlice {
  readonly rows: Promise<Stored | undefined>;
  held: number;
}

/** The slices of one inner series while cursors read it. */
class SeriesSlices {
  private slices: WindowSlices | undefined;
  private readonly held = new Map<number, HeldSlice>();
  readonly readers = new Set<Reader>();
  private dropped = false;

  constructor(
    private readonly ref: SeriesRef,
    private readonly layout: SliceLayout,
    private readonly readAtOnce: () => number,
  ) {}

  cut(): WindowSlices {
    if (!this.slices) {
      const { spec, min, max, ascending } = this.layout;
      const windows = Math.max(MIN_WINDOWS, Math.ceil(windowCount(spec, min, max) / Math.max(1, this.readAtOnce())));
      this.slices = new WindowSlices(spec, min, max, ascending, windows);
    }
    return this.slices;
  }

  /** The rows of slice `i` (undefined: none), computed on the first ask. */
  rows(i: number): Promise<Stored | undefined> {
    let h = this.held.get(i);
    if (!h) {
      const s = this.cut().at(i)!;
      const slot: HeldSlice = {
        held: 0,
        rows: this.layout.runIn(this.ref, s.min, s.max).then((series) => {
          if (series.values.length === 0) return undefined;
          const { stored } = storedOf(series);
          if (!strictlyMonotonic(stored.times)) throw new InvariantError(`sliced subquery series ${this.ref.key} has rows sharing a time`);
          if (this.held.get(i) === slot && !this.dropped) {
            slot.held = series.values.length;
            holdSubqueryRows(slot.held);
          }
          return { ...stored, ref: this.ref };
        }),
      };
      // A slice read ahead and dropped unread must not leave its error unhandled.
      slot.rows.catch(() => undefined);
      this.held.set(i, slot);
      h = slot;
    }
    return h.rows;
  }

  /** Drop the slices no reader will read again. */
  prune(): void {
    let low = Infinity;
    for (const r of this.readers) {
      r.at ??= this.cut().indexOf(r.from);
      if (r.at < low) low = r.at;
    }
    for (const [i, h] of this.held) if (i < low) this.drop(i, h);
  }

  dropAll(): void {
    this.dropped = true;
    for (const [i, h] of this.held) this.drop(i, h);
  }

  private drop(i: number, h: HeldSlice): void {
    releaseSubqueryRows(h.held);
    h.held = 0;
    this.held.delete(i);
  }
}

/** The inner result as cursors over series computed slice by slice; rowsOf is not used. */
export class SlicedRows implements InnerRows {
  private readonly series = new Map<SeriesRef, SeriesSlices>();

  constructor(
    readonly refs: readonly SeriesRef[],
    readonly types: ReadonlyMap<string, FieldType>,
    readonly tagKeys: ReadonlySet<string>,
    private readonly layout: SliceLayout,
  ) {}

  readonly fromTags: ReadonlySet<string> = new Set();
  readonly unlisted: ReadonlySet<string> = new Set();

  rowsOf(ref: SeriesRef): never {
    throw new InvariantError(`sliced subquery series ${ref.key} read whole`);
  }

  cursor(ref: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean, type: FieldType | undefined): Cursor {
    return this.read(ref, (rows) => rows.columns.get(field), minNs, maxNs, ascending, type);
  }

  /** Every row of `ref` as `true` (SubquerySource.rowCursor). */
  rowCursor(ref: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    return this.read(ref, (rows) => rows.times.map(() => true), minNs, maxNs, ascending, FieldType.Boolean);
  }

  private read(ref: SeriesRef, column: (rows: Stored) => readonly unknown[] | undefined, minNs: bigint, maxNs: bigint, ascending: boolean, type: FieldType | undefined): Cursor {
    if (ascending !== this.layout.ascending) throw new InvariantError('sliced subquery read against its order');
    let own = this.series.get(ref);
    if (!own) {
      own = new SeriesSlices(ref, this.layout, () => this.series.size);
      this.series.set(ref, own);
    }
    const slices = own;
    const reader: Reader = { at: undefined, from: ascending ? minNs : maxNs };
    slices.readers.add(reader);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      slices.readers.delete(reader);
      if (slices.readers.size > 0) return slices.prune();
      slices.dropAll();
      if (this.series.get(ref) === slices) this.series.delete(ref);
    };
    // A slice's rows may make several batches (subquery-source.ts batchesOf): handed out in turn.
    const pending: Batch[] = [];
    const next = async (): Promise<Batch | null> => {
      for (;;) {
        if (closed) return null;
        const queued = pending.shift();
        if (queued) return queued;
        reader.at ??= slices.cut().indexOf(reader.from);
        const s = slices.cut().at(reader.at);
        if (!s || (ascending ? s.min > maxNs : s.max < minNs)) return null;
        const rows = await slices.rows(reader.at);
        reader.at++;
        slices.prune();
        const col = rows && column(rows);
        if (rows && col) pending.push(...batchesInOrder(rows.times, col, minNs, maxNs, type));
        if (pending.length > 0) continue;
        // Slices without this field's values are skipped: the loop turns between them.
        await checkpoint(this.layout.ctx);
      }
    };
    return { type, next, close };
  }

  release(): void {
    for (const s of this.series.values()) s.dropAll();
    this.series.clear();
  }
}

/**
 * Per call: whether any series of the group has a point of its field in [min, max] (the first
 * batch of each cursor tells). For reducers that answer every window holding a point, with no
 * WHERE on fields, that is whether the call has rows anywhere in the range.
 */
export async function callsWithPoints(source: MeasurementSource, series: readonly SeriesRef[], calls: readonly AggCall[], min: bigint, max: bigint): Promise<boolean[]> {
  const byField = new Map<string, boolean>();
  for (const { field } of calls) {
    if (byField.has(field)) continue;
    let found = false;
    for (const ref of series) {
      const cursor = source.cursor(ref, field, min, max, true);
      try {
        for (let b = await cursor.next(); b && !found; b = found ? null : await cursor.next()) found = (b.stats ? b.stats.count : b.offsets.length) > 0;
      } finally {
        cursor.close();
      }
      if (found) break;
    }
    byField.set(field, found);
  }
  return calls.map((c) => byField.get(c.field) === true);
}
