/**
 * fill(N|previous|linear) of an inner GROUP BY time aggregate whose series the outer statement
 * does not group apart. 1.x merges the inner series' windows by the outer statement's groups
 * and then time (series in key order at one time), and only then runs its fill iterator, which
 * starts over whenever the series of the next point changes: every run of consecutive points
 * of one series in that merged stream is filled over the statement's whole window range (from
 * the window of the run's first point when the statement has no lower bound), `previous` and
 * `linear` reading the run's own points only. `SELECT * FROM (SELECT max(v) AS a FROM m WHERE
 * time >= 0s AND time < 70s GROUP BY time(10s), h fill(0))` over points of two hosts in four
 * runs thus answers 28 rows, the runs one after the other, and an outer count() counts them all.
 * Recorded from 1.6.7 (cases s-k152 on). Each call has an iterator and a fill iterator of its
 * own: with several calls, each call's stream runs over the points of its own column, and 1.x's
 * cursor joins the calls' rows by series, then time (rows of one series and time together, a
 * call without one there null, fill(N) then filling it), so the runs of one call's series may
 * all come before another call's (case s-k604).
 */
import { FieldType } from '../../engine/index.js';
import type { SelectStatement } from '../ast/nodes.js';
import type { Cell, ResultSeries } from '../result.js';
import type { QueryContext } from './context.js';
import { linear } from './fill.js';
import { parseDimensions } from './select-plan.js';
import { seriesKeyOf } from './subquery-rows.js';
import { aggregates, statementTime } from './subquery-statement.js';
import type { Scalar } from './value.js';
import { callFillValue } from './call-fill.js';
import { runStreamShape } from './run-stream-windows.js';

/** How the runs are filled: the inner statement's fill, interval and lower bound. */
export interface InterleavedFill {
  /** The outer GROUP BY tags. */
  readonly groupTags: readonly string[];
  readonly fill: SelectStatement['fill'];
  readonly intervalNs: bigint;
  /** The inner statement has a lower time bound: every run starts at the statement's first window. */
  readonly bounded: boolean;
}

/**
 * How to refill the inner statement's rows when it is an aggregate with GROUP BY time and
 * fill(N|previous|linear); undefined otherwise (or when the outer groups by `*` or a regex,
 * which 1.x resolves per measurement).
 */
export function interleavedFill(outer: SelectStatement, inner: SelectStatement, ctx: QueryContext): InterleavedFill | undefined {
  const mode = inner.fill.mode;
  if (mode !== 'number' && mode !== 'previous' && mode !== 'linear') return undefined;
  if (!aggregates(inner)) return undefined;
  const { window, dims: innerDims } = parseDimensions(inner.dimensions, ctx.nowNs, inner.location);
  if (!window) return undefined;
  const { window: outerWindow, dims } = parseDimensions(outer.dimensions, ctx.nowNs, outer.location);
  if (dims.all || dims.regexes.length > 0) return undefined;
  // The outer statement groups every inner series apart: nothing interleaves (and the inner
  // statement is not run again to find out).
  if (!innerDims.all && innerDims.regexes.length === 0 && innerDims.names.every((t) => dims.names.includes(t))) return undefined;
  const bounded = statementTime(inner, ctx).hasMin;
  // An outer GROUP BY time reduces stretches of the runs (run-stream-windows.ts), in the shapes measured.
  if (outerWindow && !runStreamShape(outer, ctx)) return undefined;
  return { groupTags: dims.names, fill: inner.fill, intervalNs: window.interval, bounded };
}

/**
 * The most rows the runs may add up to. Each run is filled over every window, so the rows grow
 * with runs × windows: an inner GROUP BY time(10m), * over a week of five hosts is 7.5M rows,
 * which 1.x streams but Strata would hold. Past this the inner series are filled one by one
 * as before (a documented difference: fixtures/conformance/README.md, session 23).
 */
export const MAX_REFILLED_ROWS = 250_000;

/**
 * The inner result as 1.x's fill iterator gives it over the merged stream: `filled` is the
 * inner statement's own result (each series over every window) and `real` the same statement
 * with fill(none) (the windows that hold points). Each run becomes a series of its own, in
 * stream order, group after group; a group of one series keeps its filled rows. Undefined
 * when no group interleaves its series (the result is `filled`) or the runs would exceed
 * MAX_REFILLED_ROWS.
 */
export function refillInterleaved(filled: readonly ResultSeries[], real: readonly ResultSeries[], how: InterleavedFill, ascending: boolean): ResultSeries[] | undefined {
  const key = (s: ResultSeries): string => [s.name ?? '', ...Object.entries(s.tags ?? {}).sort().flat()].join('\u0000');
  const realOf = new Map(real.map((s) => [key(s), s]));
  const groupOf = (s: ResultSeries): string => [s.name ?? '', ...how.groupTags.map((t) => s.tags?.[t] ?? '')].join('\u0000');
  const groups = new Map<string, number[]>();
  filled.forEach((s, i) => groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), i]));
  const out: ResultSeries[] = [];
  let rows = 0;
  let interleaved = false;
  for (const members of groups.values()) {
    if (members.length === 1) {
      out.push(filled[members[0]!]!);
      rows += filled[members[0]!]!.values.length;
      continue;
    }
    const width = filled[members[0]!]!.columns.length;
    // One call (or calls that all have a value on the same rows): one stream of runs.
    const sameRows = members.every((s) => (realOf.get(key(filled[s]!))?.values ?? []).every((r) => r.every((v) => v !== null)));
    const columns = width <= 2 || sameRows ? [undefined] : [...Array(width - 1).keys()].map((c) => c + 1);
    const streams: ResultSeries[][] = [];
    for (const only of columns) {
      // Each run is filled over every window: past the budget the inner series are filled one by one.
      const s = runsOf(members, filled, realOf, key, how, ascending, MAX_REFILLED_ROWS - rows, only);
      if (!s) return undefined;
      if (s.length > 1) interleaved = true;
      for (const run of s) rows += run.values.length;
      streams.push(s);
    }
    out.push(...(streams.length === 1 ? streams[0]! : joinedRuns(streams, how, ascending)));
  }
  return interleaved ? out : undefined;
}

/**
 * The runs of the group's series in the stream of the points that have a value (in column
 * `only`, the others left null, when given), each filled over the series' windows; undefined
 * once they would hold more than `budget` rows.
 */
function runsOf(
  members: readonly number[],
  filled: readonly ResultSeries[],
  realOf: ReadonlyMap<string, ResultSeries>,
  key: (s: ResultSeries) => string,
  how: InterleavedFill,
  ascending: boolean,
  budget: number,
  only?: number,
): ResultSeries[] | undefined {
  const own = (r: readonly Cell[]): Cell[] => r.map((v, c) => (only === undefined || c === 0 || c === only ? v : null));
  // The group's points by time (in the statement's direction), then by series key (also
  // under ORDER BY time DESC).
  const seriesKey = (i: number): string => seriesKeyOf(filled[i]!.tags ?? {});
  const rank = new Map([...members].sort((a, b) => (seriesKey(a) < seriesKey(b) ? -1 : 1)).map((s, r) => [s, r]));
  const points: { s: number; row: readonly Cell[] }[] = [];
  for (const s of members) for (const row of realOf.get(key(filled[s]!))?.values ?? []) if (only === undefined || row[only] !== null) points.push({ s, row });
  points.sort((a, b) => {
    const ta = a.row[0] as bigint;
    const tb = b.row[0] as bigint;
    if (ta !== tb) return (ta < tb) === ascending ? -1 : 1;
    return rank.get(a.s)! - rank.get(b.s)!;
  });
  const out: ResultSeries[] = [];
  const realTimesOf = new Map<number, Set<bigint>>();
  for (let i = 0; i < points.length; ) {
    let j = i + 1;
    while (j < points.length && points[j]!.s === points[i]!.s) j++;
    const whole = filled[points[i]!.s]!;
    budget -= whole.values.length;
    if (budget < 0) return undefined;
    const series = only === undefined ? whole : { ...whole, values: whole.values.map(own) };
    const run = points.slice(i, j).map((p) => own(p.row));
    // The windows where the series has a point (of the column): fill(N)'s value comes from another.
    let realTimes = realTimesOf.get(points[i]!.s);
    if (!realTimes) realTimesOf.set(points[i]!.s, (realTimes = new Set((realOf.get(key(whole))?.values ?? []).filter((r) => only === undefined || r[only] !== null).map((r) => r[0] as bigint))));
    out.push({ ...series, values: fillRun(series, run, realTimes, how, ascending) });
    i = j;
  }
  return out;
}

/**
 * The calls' streams joined as 1.x's cursor joins its iterators: the next row is the least
 * (series key, time) among the streams' heads (the greatest under DESC), holding the value
 * of every call whose head is that row, the others null (fill(N): N). Cut into runs again
 * where the series changes or the time does not move on.
 */
function joinedRuns(streams: readonly ResultSeries[][], how: InterleavedFill, ascending: boolean): ResultSeries[] {
  const flat = streams.map((runs) => runs.flatMap((r) => r.values.map((row) => ({ series: r, key: seriesKeyOf(r.tags ?? {}), row }))));
  const at = flat.map(() => 0);
  const out: ResultSeries[] = [];
  const before = (a: { key: string; row: readonly Cell[] }, b: { key: string; row: readonly Cell[] }): boolean => {
    if (a.key !== b.key) return ascending ? a.key < b.key : a.key > b.key;
    const ta = a.row[0] as bigint;
    const tb = b.row[0] as bigint;
    return ascending ? ta < tb : ta > tb;
  };
  for (;;) {
    let next: (typeof flat)[number][number] | undefined;
    flat.forEach((s, i) => {
      const head = s[at[i]!];
      if (head && (!next || before(head, next))) next = head;
    });
    if (!next) return out;
    const row: Cell[] = [next.row[0]!];
    flat.forEach((s, i) => {
      const head = s[at[i]!];
      const c = i + 1;
      const own = head && head.key === next!.key && head.row[0] === next!.row[0];
      if (own) at[i]!++;
      const v = own ? (head.row[c] ?? null) : null;
      row.push(v === null ? (callFillValue(how.fill, fillType(next!.series, c)) as Cell) : v);
    });
    const last = out[out.length - 1];
    const prev = last?.values[last.values.length - 1]?.[0] as bigint | undefined;
    const t = row[0] as bigint;
    if (last && seriesKeyOf(last.tags ?? {}) === next.key && prev !== undefined && (ascending ? t > prev : t < prev)) (last.values as Cell[][]).push(row);
    else out.push({ ...next.series, values: [row] });
  }
}

/** One run's rows over the series' windows, filled from the run's own points only. */
function fillRun(series: ResultSeries, run: readonly (readonly Cell[])[], realTimes: ReadonlySet<bigint>, how: InterleavedFill, ascending: boolean): Cell[][] {
  // Without a lower bound 1.x's fill iterator has no window to end at going back in time: a run
  // starts at its oldest point ascending (the iterator's start is the first point's window) and
  // stops there descending (the end is MinTime, which it never fills down to).
  const oldest = run[ascending ? 0 : run.length - 1]![0] as bigint;
  const windows = series.values.map((r) => r[0] as bigint).filter((t) => how.bounded || t >= oldest);
  const at = new Map(run.map((r) => [r[0] as bigint, r]));
  const width = series.columns.length;
  // fill(N) as the statement gave it in an empty window of this series: N through any
  // expression around the call (`max(v) * 2` is 2N), as 1.x fills the call, not the column.
  const empty = how.fill.mode === 'number' ? series.values.find((r) => !realTimes.has(r[0] as bigint)) : undefined;
  const rows: Cell[][] = windows.map((t) => {
    const own = at.get(t);
    if (own) return [...own];
    return empty ? [t, ...empty.slice(1)] : [t, ...new Array<Cell>(width - 1).fill(null)];
  });
  for (let c = 1; c < width; c++) {
    const type = fillType(series, c) ?? FieldType.Float;
    if (how.fill.mode === 'number') {
      const n = callFillValue(how.fill, fillType(series, c)) as Cell;
      for (const r of rows) if (r[c] === null) r[c] = n;
    } else if (how.fill.mode === 'previous') {
      let prev: Cell = null;
      for (const r of rows) {
        if (r[c] === null) r[c] = prev;
        else prev = r[c]!;
      }
    } else {
      fillLinear(rows, c, type, how.intervalNs);
    }
  }
  return rows;
}

/** 1.x's linear fill of column `c` between the run's points, on window-index times (Go's truncating division). */
function fillLinear(rows: Cell[][], c: number, type: FieldType, intervalNs: bigint): void {
  const known = rows.flatMap((r, i) => (r[c] === null ? [] : [i]));
  const numeric = type === FieldType.Float || type === FieldType.Integer || type === FieldType.Unsigned;
  for (let k = 0; k + 1 < known.length; k++) {
    const p = rows[known[k]!]!;
    const n = rows[known[k + 1]!]!;
    for (let i = known[k]! + 1; i < known[k + 1]!; i++) {
      const r = rows[i]!;
      r[c] = numeric ? (linear(type, (r[0] as bigint) / intervalNs, (p[0] as bigint) / intervalNs, (n[0] as bigint) / intervalNs, p[c] as Scalar, n[c] as Scalar) as Cell) : null;
    }
  }
}

/**
 * Column c's type as fill(N) casts to it: a column without one reads a call 1.x types Unknown
 * (column-types.ts, call-fill.ts), never filled. Float where the series carries no types.
 */
function fillType(series: ResultSeries, c: number): FieldType | undefined {
  return series.columnTypes ? series.columnTypes[c] : FieldType.Float;
}
