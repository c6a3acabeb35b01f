/**
 * The time range an aggregate group reads and the windows it answers: transforms of an
 * aggregate (derivative, difference, ...) read one window before the query's range (after it,
 * under ORDER BY time DESC) so its first window has a predecessor, and that extra window is
 * dropped again from the rows (forecasts lie beyond the range by design).
 */
import type { Cell } from '../result.js';
import type { GroupRun } from './select-raw.js';
import { MIN_TIME, window as windowOf } from './window.js';
import { readsSubqueriesEarly } from './subquery-statement.js';
import { MIN_NS } from '../plan/time-range.js';

export function readStart(plan: GroupRun['plan'], transforms: boolean): bigint {
  const { min, hasMin } = plan.time;
  if (!transforms || !plan.window || !hasMin || !plan.ascending) return min;
  return min - plan.window.interval;
}

export function readEnd(plan: GroupRun['plan'], transforms: boolean): bigint {
  const { max } = plan.time;
  if (!transforms || !plan.window || plan.ascending) return max;
  return max + plan.window.interval;
}

/** The query's own windows, without the extra one transforms read before (after, descending) it. */
export function windowRange(g: GroupRun): { first: bigint; last: bigint } | undefined {
  const spec = g.plan.window;
  if (!spec) return undefined;
  return { first: windowOf(g.plan.time.min, spec).start, last: windowOf(g.plan.time.max, spec).start };
}

/**
 * Drop the extra window read before (after, descending) the query's range; forecasts lie beyond
 * it by design. Not before it over a subquery the transforms read early (subqueryRange): 1.x
 * bounds no output row there, so an inner window starting before that read (its row at the
 * window's start) gives the transform a row before the extra window, and the extra window's
 * transform row then has a predecessor and is answered (`difference(max(a)) ... WHERE time >=
 * '11:00' GROUP BY time(30m)` over an inner GROUP BY time(20m): rows from 10:30). Under ORDER
 * BY time DESC such rows come last, after their predecessors: answered too.
 */
export function inRange(rows: Cell[][], g: GroupRun, min: bigint, max: bigint, forecastTimes: ReadonlySet<bigint>): Cell[][] {
  const range = windowRange(g);
  if (!range || (min === g.plan.time.min && max === g.plan.time.max && forecastTimes.size === 0)) return rows;
  // Under DESC a fill that stepped below the clamped first window (fill.ts) leaves rows 1.x sends
  // beyond the range (from the wrapped far future down to 0): only the extra window read after it goes.
  if (!g.plan.ascending && max !== g.plan.time.max && rows.some((r) => r[0] === MIN_TIME)) {
    const extra = windowOf(g.plan.time.max, g.plan.window!).end;
    return rows.filter((r) => forecastTimes.has(r[0] as bigint) || r[0] !== extra);
  }
  const first = g.source.fromSubquery && readsSubqueriesEarly(g.plan.stmt) ? MIN_NS : range.first;
  return rows.filter((r) => forecastTimes.has(r[0] as bigint) || ((r[0] as bigint) >= first && (r[0] as bigint) <= range.last));
}
