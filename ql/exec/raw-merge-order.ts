/**
 * The order in which 1.x's sorted merge emits raw rows of several series: by time, and rows
 * sharing a timestamp by their auxiliary values — the SELECT's field and tag references sorted
 * by name — compared as strings while both sides are strings (the first non-string pair ends
 * the comparison). Rows still tied come in the order of 1.x's Go heap (go-heap.ts). Descending
 * queries reverse both comparisons. Recorded from 1.6.7 in fixtures/queries/27-equal-timestamps.
 */
import type { Expr } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import { isTag, type SchemaInfo } from '../plan/projection.js';
import type { SeriesRef } from './source.js';
import type { Row } from './row-reader.js';
import { window as windowOf, type WindowSpec } from './window.js';

export interface MergeItem {
  readonly ref: SeriesRef;
  row: Row | null;
}

function varRefs(e: Expr, out: Set<string>): void {
  walkExpr(e, (n) => {
    if (n.kind === 'VarRef' && !(n.name.toLowerCase() === 'time' && n.type === null)) out.add(`${n.type ?? ''}\u0000${n.name}`);
  });
}

/** The heap's less function for a raw SELECT's rows. */
export function rawRowLess(
  columns: readonly Expr[],
  schema: SchemaInfo,
  fieldIndex: ReadonlyMap<string, number>,
  ascending: boolean,
): (a: MergeItem, b: MergeItem) => boolean {
  const refs = new Set<string>();
  for (const c of columns) varRefs(c, refs);
  const aux = [...refs]
    .map((r) => {
      const [hint, name] = r.split('\u0000') as [string, string];
      return { name, tag: isTag(name, hint === '' ? null : hint, schema), field: fieldIndex.get(name) };
    })
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const value = (it: MergeItem, a: (typeof aux)[number]): unknown => (a.tag ? it.ref.tags[a.name] : a.field === undefined ? null : it.row!.values[a.field]);
  return (x, y) => {
    const tx = x.row!.time;
    const ty = y.row!.time;
    if (tx !== ty) return ascending ? tx < ty : tx > ty;
    for (const a of aux) {
      const vx = value(x, a);
      const vy = value(y, a);
      if (typeof vx !== 'string' || typeof vy !== 'string') return false;
      if (vx !== vy) return ascending ? vx < vy : vx > vy;
    }
    return false;
  };
}

/**
 * By time, and rows sharing a time in the order of the series given, in either direction
 * (tiesInSeriesOrder sources: 1.x emits an inner GROUP BY time aggregate window by window,
 * series by series in key order, also under ORDER BY time DESC).
 */
export function timeThenSeriesLess(series: readonly SeriesRef[], ascending: boolean, windows?: WindowSpec): (a: MergeItem, b: MergeItem) => boolean {
  const rank = new Map(series.map((s, i) => [s, i]));
  return (x, y) => {
    if (windows) {
      // an inner multi-row selector: window, then series, then the series' rows in time order
      const wx = windowOf(x.row!.time, windows).start;
      const wy = windowOf(y.row!.time, windows).start;
      if (wx !== wy) return ascending ? wx < wy : wx > wy;
      const rx = rank.get(x.ref) ?? 0;
      const ry = rank.get(y.ref) ?? 0;
      if (rx !== ry) return rx < ry;
    }
    const tx = x.row!.time;
    const ty = y.row!.time;
    if (tx !== ty) return ascending ? tx < ty : tx > ty;
    return (rank.get(x.ref) ?? 0) < (rank.get(y.ref) ?? 0);
  };
}

/** Series one after the other, in the order given (rowsInSeriesOrder sources). */
export function seriesRankLess(series: readonly SeriesRef[]): (a: MergeItem, b: MergeItem) => boolean {
  const rank = new Map(series.map((s, i) => [s, i]));
  return (x, y) => (rank.get(x.ref) ?? 0) < (rank.get(y.ref) ?? 0);
}

/**
 * Rows of one subquery series split into lanes (subquery-source.ts) keep the inner order at
 * equal times: 1.x streams an inner series' rows as they come and merges only across series.
 * `newestWindows`: under ORDER BY time DESC an inner multi-row selector's rows come window by
 * window, newest first, and oldest first inside one (subquery-statement.ts seriesWindows).
 */
export function lanesInInnerOrder(less: (a: MergeItem, b: MergeItem) => boolean, ascending: boolean, newestWindows?: WindowSpec): (a: MergeItem, b: MergeItem) => boolean {
  return (x, y) => {
    const lx = x.ref.lane;
    const ly = y.ref.lane;
    if (lx === undefined || ly === undefined || lx.of !== ly.of) return less(x, y);
    const tx = x.row!.time;
    const ty = y.row!.time;
    if (newestWindows && !ascending) {
      const wx = windowOf(tx, newestWindows).start;
      const wy = windowOf(ty, newestWindows).start;
      if (wx !== wy) return wx > wy;
      if (tx !== ty) return tx < ty;
    }
    if (tx !== ty) return ascending ? tx < ty : tx > ty;
    return lx.index < ly.index;
  };
}
