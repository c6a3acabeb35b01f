/**
 * A subquery's result as a MeasurementSource: its series become series (tags from the
 * inner GROUP BY), its columns become fields. Rows are held in memory (the inner result).
 */
import { FieldType, matchesTags, type Batch, type Cursor, type TagExpr, type ValueColumn } from '../../engine/index.js';
import { hasTimeColumn, type ResultSeries } from '../result.js';
import { MAX_NS, MIN_NS } from '../plan/time-range.js';
import type { MeasurementSource, SeriesRef } from './source.js';

interface Stored {
  readonly ref: SeriesRef;
  readonly times: bigint[];
  readonly columns: Map<string, unknown[]>;
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

/** Times all ascending or all descending without a repeat (an inner aggregate's windows): one row per time. */
function strictlyMonotonic(times: readonly bigint[]): boolean {
  return times.length < 2 || inReadOrder(times, times[1]! > times[0]!);
}

export class SubquerySource implements MeasurementSource {
  readonly fromSubquery = true;
  private readonly stored: Stored[] = [];
  private readonly types = new Map<string, FieldType>();
  private readonly tags = new Set<string>();
  private readonly fromTags = new Set<string>();

  constructor(
    readonly name: string,
    results: readonly ResultSeries[],
    /** The inner query fills with previous or linear: its rows reach the outer query even when null (1.x). */
    private readonly keepsNullRows = false,
    /**
     * The outer statement's own bounds: the inner query already ran within them, and 1.x does
     * not filter its rows by them again, so a read bounded by them is not bounded at all.
     */
    private readonly outer?: { readonly min: bigint; readonly max: bigint },
    readonly rowsInSeriesOrder = false,
    readonly tiesInSeriesOrder = false,
  ) {
    for (const s of results) {
      for (const c of s.tagColumns ?? []) this.fromTags.add(c);
      const tags = s.tags ?? {};
      for (const k of Object.keys(tags)) this.tags.add(k);
      const key = Object.keys(tags).sort().map((k) => `${k}=${tags[k]}`).join(',');
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
      this.stored.push(...lanes({ ref: { key, tags }, times, columns }));
      for (const [c, vals] of columns) {
        // The inner statement's type where it says one (a spread of 0 is still a float).
        const t = fitType(declared.get(c), vals);
        if (t !== undefined && !this.types.has(c)) this.types.set(c, t);
      }
    }
    this.stored.sort((a, b) => (a.ref.key < b.ref.key ? -1 : a.ref.key > b.ref.key ? 1 : 0));
  }

  fieldTypes(): ReadonlyMap<string, FieldType> {
    return this.types;
  }

  fieldsFromTags(): ReadonlySet<string> {
    return this.fromTags;
  }

  tagKeys(): readonly string[] {
    return [...this.tags].sort();
  }

  series(expr: TagExpr): readonly SeriesRef[] {
    return this.stored
      .filter((s) => matchesTags(expr, Object.entries(s.ref.tags).map(([key, value]) => ({ key, value }))))
      .map((s) => s.ref);
  }

  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    [minNs, maxNs] = this.widened(minNs, maxNs);
    const own = this.stored.filter((x) => x.ref === series);
    if (own.length === 1 && inReadOrder(own[0]!.times, ascending)) {
      const col = own[0]!.columns.get(field);
      return col ? cursorInOrder(own[0]!.times, col, minNs, maxNs, this.types.get(field)) : cursorOver([], this.types.get(field), ascending);
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
    return cursorOver(rows, this.types.get(field), ascending);
  }

  rowCursor(series: SeriesRef, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor | undefined {
    if (!this.keepsNullRows) return undefined;
    [minNs, maxNs] = this.widened(minNs, maxNs);
    const rows: { t: bigint; v: unknown }[] = [];
    for (const s of this.stored.filter((x) => x.ref === series)) for (const t of s.times) if (t >= minNs && t <= maxNs) rows.push({ t, v: true });
    return cursorOver(rows, FieldType.Boolean, ascending);
  }

  /** A point lookup (an auxiliary column at the selected row's time) stays exact. */
  private widened(minNs: bigint, maxNs: bigint): [bigint, bigint] {
    if (!this.outer || minNs === maxNs) return [minNs, maxNs];
    return [minNs <= this.outer.min ? MIN_NS : minNs, maxNs >= this.outer.max ? MAX_NS : maxNs];
  }
}

function cursorOver(rows: { t: bigint; v: unknown }[], type: FieldType | undefined, ascending: boolean): Cursor {
    // A stable sort in the read direction: rows sharing a time (an inner raw query merges its
    // series) keep the order the inner statement, run in the same direction, gave them.
    rows.sort(ascending ? (a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0) : (a, b) => (a.t > b.t ? -1 : a.t < b.t ? 1 : 0));
    return oneBatchCursor(type, rows.length === 0, (t) => {
      const base = rows[0]!.t;
      const offsets = Float64Array.from(rows.map((r) => Number(r.t - base)));
      return { base, offsets, column: toColumn(t, rows.map((r) => r.v)) };
    });
}

/** A cursor answering one batch, made when first asked (none when `empty` or untyped), then the end. */
function oneBatchCursor(type: FieldType | undefined, empty: boolean, batch: (type: FieldType) => Batch): Cursor {
  let done = empty || type === undefined;
  return {
    type,
    next: async (): Promise<Batch | null> => {
      if (done || type === undefined) return null;
      done = true;
      return batch(type);
    },
    close: () => undefined,
  };
}

/** Strictly increasing (ascending) or decreasing times: the stable sort in cursorOver would keep them as they are. */
function inReadOrder(times: readonly bigint[], ascending: boolean): boolean {
  for (let i = 1; i < times.length; i++) if (ascending ? times[i]! <= times[i - 1]! : times[i]! >= times[i - 1]!) return false;
  return true;
}

/**
 * cursorOver's batch for one series whose rows are already in read order, without a row
 * object per value and a sort (an inner GROUP BY time of a million windows).
 */
function cursorInOrder(times: readonly bigint[], col: readonly unknown[], minNs: bigint, maxNs: bigint, type: FieldType | undefined): Cursor {
  const keep: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const v = col[i];
    const t = times[i]!;
    if (v !== null && v !== undefined && t >= minNs && t <= maxNs) keep.push(i);
  }
  return oneBatchCursor(type, keep.length === 0, (t) => {
    const base = times[keep[0]!]!;
    const offsets = new Float64Array(keep.length);
    const values = new Array<unknown>(keep.length);
    for (let k = 0; k < keep.length; k++) {
      offsets[k] = Number(times[keep[k]!]! - base);
      values[k] = col[keep[k]!];
    }
    return { base, offsets, column: toColumn(t, values) };
  });
}

function toColumn(type: FieldType, vals: unknown[]): ValueColumn {
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
