/**
 * A subquery's result as a MeasurementSource: its series become series (tags from the
 * inner GROUP BY), its columns become fields. The rows come from InnerRows
 * (subquery-rows.ts): the whole inner result, or one inner series at a time.
 */
import { FieldType, matchesTags, type Batch, type Cursor, type TagExpr, type ValueColumn } from '../../engine/index.js';
import { MAX_NS, MIN_NS } from '../plan/time-range.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { window as windowOf, type WindowSpec } from './window.js';
import { dimensionTags, type Dimensions } from './select-plan.js';
import { inReadOrder, type InnerRows, type Stored } from './subquery-rows.js';
import { tagCursor, tagFields, type TagFields } from './group-tag-calls.js';

export interface SubqueryReading {
  /** The inner query fills with previous or linear: its rows reach the outer query even when null (1.x). */
  readonly keepsNullRows?: boolean;
  /**
   * The outer statement's own bounds: the inner query already ran within them, and 1.x does
   * not filter its rows by them again, so a read bounded by them is not bounded at all.
   */
  readonly outer?: { readonly min: bigint; readonly max: bigint };
  readonly rowsInSeriesOrder?: boolean;
  readonly tiesInSeriesOrder?: boolean;
  readonly seriesWindows?: WindowSpec;
  /** The rows are the runs of an interleaved inner fill, read by an outer GROUP BY time (run-stream-windows.ts). */
  readonly runStream?: boolean;
  /** The inner statement's own GROUP BY tags, as written (not the outer ones pushed down): groupTags(). */
  readonly groupBy?: Dimensions;
  /** Names the outer statement's calls read (group-tag-calls.ts): those naming a groupTag are string fields. */
  readonly calledNames?: ReadonlySet<string>;
}

export class SubquerySource implements MeasurementSource {
  readonly fromSubquery = true;
  readonly rowsInSeriesOrder: boolean;
  readonly tiesInSeriesOrder: boolean;
  readonly seriesWindows: WindowSpec | undefined;
  readonly runStream: boolean;
  /** Read by a streamed subquery over it (three levels), not by the statement that releases it. */
  readByStreamed = false;
  private tagFields: (TagFields & { readonly of: ReadonlyMap<string, FieldType> }) | undefined;

  constructor(
    readonly name: string,
    private rows: InnerRows,
    private readonly reading: SubqueryReading = {},
  ) {
    this.rowsInSeriesOrder = reading.rowsInSeriesOrder === true;
    this.tiesInSeriesOrder = reading.tiesInSeriesOrder === true;
    this.seriesWindows = reading.seriesWindows;
    this.runStream = reading.runStream === true;
  }

  /** The rows are read one inner series at a time (subquery-stream.ts), not held whole. */
  get streamed(): boolean {
    return this.rows.streamed === true;
  }

  /**
   * Hold the whole inner result from now on: the outer statement reads its series otherwise
   * than one after the other (subquery-stream.ts readsSeriesInTurn). Same series, types and
   * rows as a result held from the start.
   */
  async holdAll(): Promise<void> {
    if (!this.rows.holdAll) return;
    this.rows = await this.rows.holdAll();
  }

  /** Whether slice() would cut the rows: the inner statement allows it (subquery-slices.ts). */
  get sliceable(): boolean {
    return this.rows.sliced !== undefined && this.rows.streamed === true;
  }

  /**
   * Compute each series slice by slice as its cursors read it (an outer raw SELECT merges the
   * series by time: subquery-slices.ts); false when the inner statement cannot be cut so.
   */
  slice(): boolean {
    const sliced = this.rows.sliced?.();
    if (sliced) this.rows = sliced;
    return sliced !== undefined;
  }

  release(): void {
    this.rows.release();
  }

  fieldTypes(): ReadonlyMap<string, FieldType> {
    return this.withTagFields().types;
  }

  fieldsFromTags(): ReadonlySet<string> {
    return this.rows.fromTags;
  }

  unlistedFields(): ReadonlySet<string> {
    return this.withTagFields().unlisted;
  }

  /**
   * The inner fields, and the group tags the outer calls read as string fields (group-tag-calls.ts);
   * made again when the rows were replaced (holdAll(), slice()), whose types are a map of their own.
   */
  private withTagFields(): TagFields {
    if (this.tagFields?.of !== this.rows.types) {
      this.tagFields = { of: this.rows.types, ...tagFields(this.rows.types, this.rows.unlisted, this.groupTags(), this.reading.calledNames) };
    }
    return this.tagFields;
  }

  untypedFields(): ReadonlySet<string> {
    return this.rows.untyped ?? new Set();
  }

  tagKeys(): readonly string[] {
    return [...this.rows.tagKeys].sort();
  }

  series(expr: TagExpr): readonly SeriesRef[] {
    return this.rows.refs.filter((ref) => matchesTags(expr, Object.entries(ref.tags).map(([key, value]) => ({ key, value }))));
  }

  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    if (this.withTagFields().tags.has(field)) return tagCursor(this.rowCursor(series, minNs, maxNs, ascending, true), series.tags[field] ?? '');
    [minNs, maxNs] = this.widened(minNs, maxNs);
    const type = this.rows.types.get(field);
    if (this.rows.cursor) return this.rows.cursor(series, field, minNs, maxNs, ascending, type);
    const own = this.rows.rowsOf(series);
    const windows = this.windowsNewestFirst(ascending);
    if (own instanceof Promise) return cursorWhenLoaded(type, own.then((o) => fieldCursor(o, field, minNs, maxNs, ascending, type, windows)));
    return fieldCursor(own, field, minNs, maxNs, ascending, type, windows);
  }

  groupTags(): ReadonlySet<string> {
    const { groupBy } = this.reading;
    if (!groupBy) return new Set();
    const keys = this.tagKeys();
    return new Set(dimensionTags(groupBy, keys).filter((k) => keys.includes(k)));
  }

  rowCursor(series: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean, everyRow = false): Cursor | undefined {
    if (!this.reading.keepsNullRows && !everyRow) return undefined;
    [minNs, maxNs] = this.widened(minNs, maxNs);
    if (this.rows.rowCursor) return this.rows.rowCursor(series, minNs, maxNs, ascending);
    const own = this.rows.rowsOf(series);
    const windows = this.windowsNewestFirst(ascending);
    if (own instanceof Promise) return cursorWhenLoaded(FieldType.Boolean, own.then((o) => everyRowCursor(o, minNs, maxNs, ascending, windows)));
    return everyRowCursor(own, minNs, maxNs, ascending, windows);
  }

  /**
   * An inner multi-row selector per window read under ORDER BY time DESC: the rows come window
   * by window, newest first, and oldest first inside a window, as 1.x emits them
   * (subquery-statement.ts seriesWindows).
   */
  private windowsNewestFirst(ascending: boolean): WindowSpec | undefined {
    return ascending ? undefined : this.seriesWindows;
  }

  /** A point lookup (an auxiliary column at the selected row's time) stays exact. */
  private widened(minNs: bigint, maxNs: bigint): [bigint, bigint] {
    const outer = this.reading.outer;
    if (!outer || minNs === maxNs) return [minNs, maxNs];
    return [minNs <= outer.min ? MIN_NS : minNs, maxNs >= outer.max ? MAX_NS : maxNs];
  }
}

function fieldCursor(own: readonly Stored[], field: string, minNs: bigint, maxNs: bigint, ascending: boolean, type: FieldType | undefined, windows?: WindowSpec): Cursor {
  if (own.length === 1 && inReadOrder(own[0]!.times, ascending)) {
    const col = own[0]!.columns.get(field);
    return col ? cursorInOrder(own[0]!.times, col, minNs, maxNs, type) : cursorOver([], type, ascending);
  }
  const rows: { t: bigint; v: unknown }[] = [];
  for (const s of own) {
    const col = s.columns.get(field);
    if (!col) continue;
    s.times.forEach((t, i) => {
      const v = col[i];
      if (v !== null && v !== undefined && t >= minNs && t <= maxNs) rows.push({ t, v });
    });
  }
  return cursorOver(rows, type, ascending, windows);
}

function everyRowCursor(own: readonly Stored[], minNs: bigint, maxNs: bigint, ascending: boolean, windows?: WindowSpec): Cursor {
  const rows: { t: bigint; v: unknown }[] = [];
  for (const s of own) for (const t of s.times) if (t >= minNs && t <= maxNs) rows.push({ t, v: true });
  return cursorOver(rows, FieldType.Boolean, ascending, windows);
}

/** A cursor over rows still being computed (an inner series run when first read). */
function cursorWhenLoaded(type: FieldType | undefined, loaded: Promise<Cursor>): Cursor {
  // The error reaches the reader through next(); a cursor closed unread must not leave it unhandled.
  loaded.catch(() => undefined);
  return {
    type,
    next: async (): Promise<Batch | null> => (await loaded).next(),
    close: () => void loaded.then((c) => c.close(), () => undefined),
  };
}

/** `windows`: descending by these windows, and by time ascending inside one (windowsNewestFirst). */
function cursorOver(rows: { t: bigint; v: unknown }[], type: FieldType | undefined, ascending: boolean, windows?: WindowSpec): Cursor {
    // A stable sort in the read direction: rows sharing a time (an inner raw query merges its
    // series) keep the order the inner statement, run in the same direction, gave them.
    const byTime = (a: { t: bigint }, b: { t: bigint }): number => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0);
    if (windows) {
      const start = (t: bigint): bigint => windowOf(t, windows).start;
      rows.sort((a, b) => {
        const wa = start(a.t);
        const wb = start(b.t);
        return wa > wb ? -1 : wa < wb ? 1 : byTime(a, b);
      });
    } else rows.sort(ascending ? byTime : (a, b) => byTime(b, a));
    return batchesCursor(type, rows.length === 0, (t) => batchesOf(rows.map((r) => r.t), rows.map((r) => r.v), rows.map((_, i) => i), t));
}

/** The batches made when first asked (none when `empty` or untyped), one per next(), then the end. */
function batchesCursor(type: FieldType | undefined, empty: boolean, make: (type: FieldType) => Batch[]): Cursor {
  let batches: Batch[] | undefined = empty || type === undefined ? [] : undefined;
  return {
    type,
    next: async (): Promise<Batch | null> => {
      if (type === undefined) return null;
      batches ??= make(type).reverse();
      return batches.pop() ?? null;
    },
    close: () => undefined,
  };
}

/**
 * cursorOver's batch for one series whose rows are already in read order, without a row
 * object per value and a sort (an inner GROUP BY time of a million windows).
 */
function cursorInOrder(times: readonly bigint[], col: readonly unknown[], minNs: bigint, maxNs: bigint, type: FieldType | undefined): Cursor {
  const keep = keptRows(times, col, minNs, maxNs);
  return batchesCursor(type, keep.length === 0, (t) => batchesOf(times, col, keep, t));
}

/** The rows in [minNs, maxNs] with a value, as batches in their order (none: no such row, or untyped). */
export function batchesInOrder(times: readonly bigint[], col: readonly unknown[], minNs: bigint, maxNs: bigint, type: FieldType | undefined): Batch[] {
  const keep = keptRows(times, col, minNs, maxNs);
  return keep.length === 0 || type === undefined ? [] : batchesOf(times, col, keep, type);
}

function keptRows(times: readonly bigint[], col: readonly unknown[], minNs: bigint, maxNs: bigint): number[] {
  const keep: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const v = col[i];
    const t = times[i]!;
    if (v !== null && v !== undefined && t >= minNs && t <= maxNs) keep.push(i);
  }
  return keep;
}

/** A batch's offsets from its base are exact Float64 integers below this (window.ts, the engine's Batch). */
const EXACT_OFFSET = 2n ** 53n;

/**
 * Rows `keep` (indexes into `times` and `col`, in read order) as batches: a new one starts at a
 * row 2^53 ns (104 days) or more from the batch's base, where a Float64 offset would round (the
 * rows of an inner GROUP BY time from 1677 to 1967 printed 2 ns late).
 */
function batchesOf(times: readonly bigint[], col: readonly unknown[], keep: readonly number[], type: FieldType): Batch[] {
  const out: Batch[] = [];
  for (let from = 0; from < keep.length; ) {
    const base = times[keep[from]!]!;
    let to = from + 1;
    for (; to < keep.length; to++) {
      const d = times[keep[to]!]! - base;
      if (d >= EXACT_OFFSET || d <= -EXACT_OFFSET) break;
    }
    const offsets = new Float64Array(to - from);
    const values = new Array<unknown>(to - from);
    for (let k = from; k < to; k++) {
      offsets[k - from] = Number(times[keep[k]!]! - base);
      values[k - from] = col[keep[k]!];
    }
    out.push({ base, offsets, column: toColumn(type, values) });
    from = to;
  }
  return out;
}

/** Values of one type as a column (integers as Float64Array while every value is a safe integer). */
export function toColumn(type: FieldType, vals: unknown[]): ValueColumn {
  switch (type) {
    case FieldType.String:
      return { type, values: vals.map(String) };
    case FieldType.Boolean:
      return { type, values: Uint8Array.from(vals.map((v) => (v ? 1 : 0))) };
    case FieldType.Float:
      return { type, values: Float64Array.from(vals.map(Number)) };
    case FieldType.Integer:
    case FieldType.Unsigned:
      if (vals.some((v) => typeof v === 'bigint')) return { type: FieldType.Integer, values: BigInt64Array.from(vals.map((v) => BigInt(v as number))) };
      return { type, values: Float64Array.from(vals.map(Number)) };
  }
}
