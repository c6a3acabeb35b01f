/**
 * LIMIT/OFFSET of an inner aggregate whose series the outer statement does not group apart.
 * 1.x merges the inner statement's rows by the outer statement's groups (measurement, then the
 * outer GROUP BY tags) and then time, so the rows of inner series the outer query puts in one
 * group arrive interleaved by time; its limit iterator counts each run of consecutive rows of
 * one series apart (it restarts when the series changes). `SELECT max(m) FROM (SELECT max(x)
 * AS m FROM cpu GROUP BY host LIMIT 2) ... GROUP BY time(1h)` thus keeps every host's row of
 * every hour, and an inner OFFSET 1 keeps none.
 */
import type { SelectStatement } from '../ast/nodes.js';
import type { Cell, ResultSeries } from '../result.js';
import type { QueryContext } from './context.js';
import { parseDimensions } from './select-plan.js';

/**
 * The outer GROUP BY tags when the inner statement's LIMIT/OFFSET is cut this way: the inner
 * statement aggregates and is paged; undefined otherwise (or when the outer groups by `*` or a
 * regex, which 1.x resolves per measurement: left to the per-series cut).
 */
export function interleavedLimitGroups(outer: SelectStatement, inner: SelectStatement, innerAggregates: boolean, ctx: QueryContext): readonly string[] | undefined {
  if (!innerAggregates || (inner.limit === 0 && inner.offset === 0)) return undefined;
  const { dims } = parseDimensions(outer.dimensions, ctx.nowNs, outer.location);
  if (dims.all || dims.regexes.length > 0) return undefined;
  return dims.names;
}

/** `series` (run without LIMIT/OFFSET) cut as 1.x's limit iterator sees their merged rows. */
export function cutInterleaved(series: readonly ResultSeries[], groupTags: readonly string[], limit: number, offset: number, ascending: boolean): ResultSeries[] {
  const groupOf = (s: ResultSeries): string => [s.name ?? '', ...groupTags.map((t) => s.tags?.[t] ?? '')].join('\u0000');
  const groups = new Map<string, number[]>();
  series.forEach((s, i) => {
    const k = groupOf(s);
    groups.set(k, [...(groups.get(k) ?? []), i]);
  });
  const kept: (readonly Cell[])[][] = series.map(() => []);
  for (const members of groups.values()) {
    // Rows of the group by time (in the statement's direction), then in series order.
    const rows: { s: number; row: readonly Cell[] }[] = [];
    for (const s of members) for (const row of series[s]!.values) rows.push({ s, row });
    rows.sort((a, b) => {
      const ta = a.row[0] as bigint;
      const tb = b.row[0] as bigint;
      if (ta !== tb) return (ta < tb) === ascending ? -1 : 1;
      return a.s - b.s;
    });
    let previous = -1;
    let n = 0;
    for (const { s, row } of rows) {
      if (s !== previous) n = 0;
      previous = s;
      n++;
      if (n <= offset || (limit > 0 && n - limit > offset)) continue;
      kept[s]!.push(row);
    }
  }
  return series.flatMap((s, i) => (kept[i]!.length > 0 ? [{ ...s, values: kept[i]! }] : []));
}
