/**
 * integral() beside other calls, as 1.x's cursor joins them. 1.x builds one iterator per symbol
 * of the columns (call-fill.ts columnSymbols) over the statement's whole input, and its cursor
 * (query/cursor.go multiScannerCursor) joins them row by row: it peeks every iterator's next
 * point, takes the least (measurement, tag set, time) of them (the greatest under ORDER BY time
 * DESC), and each iterator whose next point has that key gives its value; the others give the
 * cursor's default (nil, N under fill(N); under fill(previous) the value before in the same
 * series). Every call but integral() sends its points group after group. integral()'s stream
 * reducer sends a group's last (Close) row only after the whole input, the groups' Close rows
 * in reverse group order (integral-series-order.ts), and labels windows by their end under
 * DESC, a point on a window's lower edge giving a second row. So its rows meet the others' only
 * where key and time agree: a Close row after its group's other rows comes later as a row of
 * its own, and starts its series again. LIMIT/OFFSET cut each iterator's points per series run
 * (1.x's limit iterator restarts when the series changes), before the join.
 */
import type { Call, Expr } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import { aggregatesOf } from './plan-derived.js';
import { cellFills, columnSymbols, cursorFill } from './call-fill.js';
import { callKey, evaluate, type EvalTypes } from './eval.js';
import { fillNullCells } from './fill-cells.js';
import type { IntegralPiece } from './integral-series-order.js';
import type { SelectPlan } from './select-plan.js';
import type { Scalar, TimedValue } from './value.js';
import type { AggCall } from './agg-calls.js';
import { windowRange } from './agg-read-range.js';
import { evalTypes, type GroupRun } from './select-raw.js';

/** What an aggregate group hands over instead of its rows (select-agg.ts, GroupRun.symbolStreams). */
export interface SymbolStreams {
  /** Per symbol key: its iterator's rows in output order, unpaged. */
  streams?: ReadonlyMap<string, readonly TimedValue[]>;
  /** The integral() symbols whose last row is their stream's Close row. */
  closing?: ReadonlySet<string>;
  /** How the group's columns read integers (select-raw.ts evalTypes). */
  types?: EvalTypes;
}

export interface CursorGroup extends SymbolStreams {
  readonly name: string;
  readonly tags: Record<string, string> | undefined;
}

/**
 * Whether the statement needs the cursor: an aggregate with an integral() symbol beside
 * another symbol, without multi-row calls (their rows are points, not windows) or a source
 * whose rows 1.x reads another way (subqueries: not modelled here).
 */
export function needsIntegralCursor(plan: SelectPlan, fromSubquery: boolean): boolean {
  if (plan.projection.shape !== 'aggregate' || plan.nested || fromSubquery) return false;
  const { calls } = aggregatesOf(plan);
  if (!calls.some((c) => c.reducer === 'integral')) return false;
  if (calls.some((c) => ['top', 'bottom', 'distinct', 'sample'].includes(c.reducer) || c.tagArgs.length > 0)) return false;
  return columnSymbols(plan.projection.columns).size > 1;
}

/**
 * The group's side (select-agg.ts): each symbol's rows in output order into `g.symbolStreams`,
 * integral()'s as its stream labels them; the others over the statement's own windows only (a
 * transform's extra window is its inner call's), labelled by the lower bound without GROUP BY time.
 */
export function handOverStreams(
  g: GroupRun,
  calls: readonly AggCall[],
  seriesOf: ReadonlyMap<string, readonly TimedValue[]>,
  perCall: readonly TimedValue[][],
  integer: ReadonlyMap<string, boolean>,
): [] {
  const { plan } = g;
  const own = windowRange(g);
  const label = plan.time.hasMin ? plan.time.min : 0n;
  const streams = new Map<string, readonly TimedValue[]>();
  for (const [key, rows] of seriesOf) {
    const i = calls.findIndex((c) => c.key === key);
    if (i >= 0 && calls[i]!.reducer === 'integral') streams.set(key, plan.ascending ? perCall[i]! : [...perCall[i]!].reverse());
    else if (!plan.window) streams.set(key, rows.map((x) => ({ time: label, value: x.value })));
    else streams.set(key, own ? rows.filter((x) => x.time >= own.first && x.time <= own.last) : rows);
  }
  g.symbolStreams!.streams = streams;
  g.symbolStreams!.types = evalTypes(g.source, integer);
  return [];
}

interface Point {
  readonly rank: number;
  readonly time: bigint;
  readonly value: Scalar;
}

/** One symbol's points over the statement: group after group, integral()'s Close rows last, in reverse. */
function statementStream(groups: readonly CursorGroup[], key: string): Point[] {
  const out: Point[] = [];
  const closes: Point[] = [];
  groups.forEach((g, rank) => {
    const rows = g.streams?.get(key) ?? [];
    const close = g.closing?.has(key) === true && rows.length > 0 ? rows.length - 1 : rows.length;
    for (let i = 0; i < rows.length; i++) (i < close ? out : closes).push({ rank, time: rows[i]!.time, value: rows[i]!.value });
  });
  return out.concat(closes.reverse());
}

/** OFFSET and LIMIT per run of one series, as 1.x's limit iterator counts. */
function paged(points: Point[], offset: number, limit: number): Point[] {
  if (offset === 0 && limit === 0) return points;
  const out: Point[] = [];
  let n = 0;
  for (let i = 0; i < points.length; i++) {
    if (i === 0 || points[i]!.rank !== points[i - 1]!.rank) n = 0;
    const k = n++;
    if (k >= offset && (limit === 0 || k < offset + limit)) out.push(points[i]!);
  }
  return out;
}

/**
 * The statement's series: `groups` in the order the statement reads them (measurements, then
 * tag sets, both reversed under DESC), each piece a run of rows of one group.
 */
export function integralCursorPieces(groups: readonly CursorGroup[], plan: SelectPlan): IntegralPiece[] {
  const { fill, offset, limit } = plan.stmt;
  const bySymbol = columnSymbols(plan.projection.columns);
  const keys = [...bySymbol.keys()];
  const symbols: Call[] = [...bySymbol.values()];
  const streams = keys.map((k) => paged(statementStream(groups, k), offset, limit));
  const defaults = symbols.map((e) => cursorFill(fill, e, plan.schema));
  const cells = cellFills(plan);
  const later = (a: bigint, b: bigint): boolean => (plan.ascending ? a < b : a > b);
  const at = keys.map(() => 0);
  let m: Scalar[] = keys.map(() => null);
  const pieces: IntegralPiece[] = [];
  let rank = -1;
  let rows: Cell[][] = [];
  const close = (): void => {
    if (rows.length === 0) return;
    const g = groups[rank]!;
    pieces.push({ name: g.name, tags: g.tags, values: fillNullCells(rows, fill, cells.skip, cells.numbers) });
    rows = [];
  };
  for (;;) {
    let head: Point | undefined;
    streams.forEach((s, i) => {
      const p = s[at[i]!];
      if (p && (!head || p.rank < head.rank || (p.rank === head.rank && later(p.time, head.time)))) head = p;
    });
    if (!head) break;
    if (head.rank !== rank) {
      close();
      rank = head.rank;
      // 1.x's cursor starts a new map of values for each series.
      m = keys.map(() => null);
    }
    streams.forEach((s, i) => {
      const p = s[at[i]!];
      if (p && p.rank === head!.rank && p.time === head!.time) {
        at[i]!++;
        m[i] = p.value;
      } else if (fill.mode !== 'previous') m[i] = defaults[i]!;
    });
    const slots = new Map(keys.map((k, i) => [k, m[i]!]));
    const scope = { time: head.time, lookup: () => null, call: (e: Expr) => (e.kind === 'Call' ? slots.get(callKey(e)) : undefined) };
    const types = groups[rank]!.types ?? NO_INTEGERS;
    rows.push([head.time, ...plan.projection.columns.map((c) => evaluate(c.expr, scope, types) as Cell)]);
  }
  close();
  return pieces;
}

const NO_INTEGERS: EvalTypes = { isInteger: () => false };
