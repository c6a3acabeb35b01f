/**
 * The rows of a subquery's result as the outer statement reads them (subquery-source.ts): per
 * inner series its times and its columns by field name. Held whole (HeldRows: the inner result
 * as executeSelect returned it) or one series at a time (subquery-stream.ts).
 */
import { FieldType, type Cursor } from '../../engine/index.js';
import { hasTimeColumn, type ResultSeries } from '../result.js';
import type { SeriesRef } from './source.js';
import { holdSubqueryRows, releaseSubqueryRows } from './subquery-rows-held.js';

export interface Stored {
  readonly ref: SeriesRef;
  readonly times: bigint[];
  readonly columns: Map<string, unknown[]>;
}

/** What the outer statement reads: the series, their fields' types and tag keys, and each series' rows. */
export interface InnerRows {
  /** Sorted by key. */
  readonly refs: readonly SeriesRef[];
  readonly types: ReadonlyMap<string, FieldType>;
  readonly tagKeys: ReadonlySet<string>;
  /** Columns holding an inner raw query's tags (left out of `count(*)`). */
  readonly fromTags: ReadonlySet<string>;
  /** top()/bottom()'s tag columns: read by name, not listed by `*` (ResultSeries.unlistedColumns). */
  readonly unlisted: ReadonlySet<string>;
  /** Columns of no type (a call 1.x types Unknown, null in every row): listed by `*`, never a call's field. */
  readonly untyped?: ReadonlySet<string>;
  /** The rows of `ref` (several lanes when its rows share times); a promise when they must be computed first. */
  rowsOf(ref: SeriesRef): readonly Stored[] | Promise<readonly Stored[]>;
  /** The outer statement is done: the rows are no longer read. */
  release(): void;
  /** The rows are computed one inner series at a time (subquery-stream.ts). */
  readonly streamed?: boolean;
  /** The same rows, every series computed and held (for an outer statement that does not read them in turn); these are released. */
  holdAll?(): Promise<InnerRows>;
  /**
   * The same rows, each series computed in slices as its cursors read it (subquery-slices.ts,
   * for an outer raw SELECT); undefined when the inner statement cannot be cut so. These are
   * released.
   */
  sliced?(): InnerRows | undefined;
  /** A cursor over the rows of `ref` (sliced rows, which are never held whole: rowsOf is not used). */
  cursor?(ref: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean, type: FieldType | undefined): Cursor;
  /** Every row of `ref` as `true`, where `cursor` is given (SubquerySource.rowCursor). */
  rowCursor?(ref: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor;
}

function typeOf(values: unknown[]): FieldType | undefined {
  let t: FieldType | undefined;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const k =
      typeof v === 'string' ? FieldType.String : typeof v === 'boolean' ? FieldType.Boolean : typeof v === 'bigint' ? FieldType.Integer : Number.isInteger(v) ? FieldType.Integer : FieldType.Float;
    if (t === undefined || (t === FieldType.Integer && k === FieldType.Float)) t = k;
  }
  return t;
}

/** `declared` unless the values contradict it (an integer column holding 0.5), else what the values show. */
function fitType(declared: FieldType | undefined, values: unknown[]): FieldType | undefined {
  const seen = typeOf(values);
  if (declared === undefined || seen === undefined) return declared ?? seen;
  const integral = declared === FieldType.Integer || declared === FieldType.Unsigned;
  return integral && seen === FieldType.Float ? FieldType.Float : declared;
}

/** The series' key: its tags sorted, `k=v` joined by commas. */
export function seriesKeyOf(tags: Readonly<Record<string, string>>): string {
  return Object.keys(tags).sort().map((k) => `${k}=${tags[k]}`).join(',');
}

/** One inner result series as stored rows, with the type each column's values give it. */
export function storedOf(s: ResultSeries): { readonly stored: Stored; readonly types: ReadonlyMap<string, FieldType | undefined> } {
  const tags = s.tags ?? {};
  const columns = new Map<string, unknown[]>();
  const declared = new Map<string, FieldType | undefined>();
  s.columns.forEach((column, i) => {
    if (i === 0 && hasTimeColumn(s)) return;
    // 1.x exposes the inner fields by name before de-duplication: the first one wins
    // (`SELECT a, b AS a` offers `a` with a's values, and no `a_1`).
    const c = s.fieldNames?.[i] ?? column;
    if (columns.has(c)) return;
    columns.set(c, s.values.map((r) => r[i] ?? null));
    declared.set(c, s.columnTypes?.[i]);
  });
  const times = s.values.map((r) => (typeof r[0] === 'bigint' ? r[0] : 0n));
  // The inner statement's type where it says one (a spread of 0 is still a float).
  const types = new Map([...columns].map(([c, vals]) => [c, fitType(declared.get(c), vals)]));
  return { stored: { ref: { key: seriesKeyOf(tags), tags }, times, columns }, types };
}

/**
 * The fields' types: the first series that gives a column a type decides it (the inner
 * statement's type where it declares one, so the first series holding the column). A column
 * no series types goes to `untyped`.
 */
export function addTypes(into: Map<string, FieldType>, types: ReadonlyMap<string, FieldType | undefined>, untyped?: Set<string>): void {
  for (const [c, t] of types) if (t !== undefined && !into.has(c)) into.set(c, t);
  if (untyped) {
    for (const [c, t] of types) if (t === undefined && !into.has(c)) untyped.add(c);
    for (const c of untyped) if (into.has(c)) untyped.delete(c);
  }
}

/**
 * An inner result series whose rows share times (an inner raw query merging several series)
 * as lanes with one row per time each: lane k holds the k-th row of every time. The outer
 * query joins a series' fields by time, which pairs the cells of one inner row only when
 * times are unique (a null cell left out of one field's cursor shifted the rows after it).
 * Lanes keep the series' tags; their keys sort right after it and in lane order, and the
 * outer merge puts rows of one time in lane order (raw-merge-order.ts), i.e. the inner order.
 */
function lanes(s: Stored): Stored[] {
  if (strictlyMonotonic(s.times)) return [s];
  const seen = new Map<bigint, number>();
  const rowsOf: number[][] = [];
  s.times.forEach((t, i) => {
    const k = seen.get(t) ?? 0;
    seen.set(t, k + 1);
    (rowsOf[k] ??= []).push(i);
  });
  if (rowsOf.length <= 1) return [s];
  return rowsOf.map((rows, lane) => {
    const columns = new Map<string, unknown[]>();
    for (const [c, vals] of s.columns) columns.set(c, rows.map((i) => vals[i]));
    const ref = { key: `${s.ref.key}\u0001${String(lane).padStart(9, '0')}`, tags: s.ref.tags, lane: { of: s.ref.key, index: lane } };
    return { ref, times: rows.map((i) => s.times[i]!), columns };
  });
}

/** The series cut before every row whose time does not move on in the read direction. */
function runs(s: Stored, ascending: boolean): Stored[] {
  if (inReadOrder(s.times, ascending)) return [s];
  const out: Stored[] = [];
  let from = 0;
  for (let i = 1; i <= s.times.length; i++) {
    const t = s.times[i];
    const prev = s.times[i - 1]!;
    if (t !== undefined && (ascending ? t > prev : t < prev)) continue;
    const columns = new Map<string, unknown[]>();
    for (const [c, vals] of s.columns) columns.set(c, vals.slice(from, i));
    out.push({ ref: s.ref, times: s.times.slice(from, i), columns });
    from = i;
  }
  return out;
}

/** Times all ascending or all descending without a repeat (an inner aggregate's windows): one row per time. */
export function strictlyMonotonic(times: readonly bigint[]): boolean {
  return times.length < 2 || inReadOrder(times, times[1]! > times[0]!);
}

/** Strictly increasing (ascending) or decreasing times. */
export function inReadOrder(times: readonly bigint[], ascending: boolean): boolean {
  for (let i = 1; i < times.length; i++) if (ascending ? times[i]! <= times[i - 1]! : times[i]! >= times[i - 1]!) return false;
  return true;
}

const byKey = (a: Stored, b: Stored): number => (a.ref.key < b.ref.key ? -1 : a.ref.key > b.ref.key ? 1 : 0);

/** A whole inner result, held until the outer statement is done. */
export class HeldRows implements InnerRows {
  readonly refs: readonly SeriesRef[];
  readonly types = new Map<string, FieldType>();
  readonly tagKeys = new Set<string>();
  readonly fromTags = new Set<string>();
  readonly unlisted = new Set<string>();
  readonly untyped = new Set<string>();
  private readonly stored: Stored[] = [];
  private held = 0;

  /**
   * `inOrder`: the results are runs of series (several per series, subquery-interleaved-fill.ts)
   * that the outer statement reads one after the other in the order given; each gets a key of
   * its own that sorts in that order. `runsOf`: also cut each series where its times stop moving
   * in that direction (the rows a raw statement passed on in an inner series order:
   * subquery-statement.ts rowsInSeriesOrder), so that each run, read by time, keeps the order given.
   */
  constructor(results: readonly ResultSeries[], inOrder = false, runsOf?: 'ascending' | 'descending') {
    let run = 0;
    const given = (stored: Stored): Stored => ({ ...stored, ref: { ...stored.ref, key: `${String(run++).padStart(9, '0')}\u0001${stored.ref.key}` } });
    for (const s of results) {
      for (const c of s.tagColumns ?? []) this.fromTags.add(c);
      for (const c of s.unlistedColumns ?? []) this.unlisted.add(c);
      for (const k of Object.keys(s.tags ?? {})) this.tagKeys.add(k);
      const { stored, types } = storedOf(s);
      if (runsOf) for (const r of runs(stored, runsOf === 'ascending')) this.stored.push(given(r));
      else if (inOrder) this.stored.push(given(stored));
      else this.stored.push(...lanes(stored));
      addTypes(this.types, types, this.untyped);
      this.held += s.values.length;
    }
    this.stored.sort(byKey);
    this.refs = this.stored.map((s) => s.ref);
    holdSubqueryRows(this.held);
  }

  rowsOf(ref: SeriesRef): readonly Stored[] {
    return this.stored.filter((x) => x.ref === ref);
  }

  release(): void {
    releaseSubqueryRows(this.held);
    this.held = 0;
  }
}
