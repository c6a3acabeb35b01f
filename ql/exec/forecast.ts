/**
 * holt_winters() and holt_winters_with_fit() of one aggregate: 1.x feeds the forecast the
 * aggregate's rows of the query's own windows, in output order, nulls skipped (the filled rows
 * of an aggregate, or every point of distinct() and sample(), of which holt-winters.ts keeps
 * each window's first, as 1.6.7's reducer does).
 */
import type { AggTransform } from './agg-calls.js';
import { windowRange } from './agg-read-range.js';
import { checkpoint } from './context.js';
import { holtWinters, type ForecastPoint } from './holt-winters.js';
import type { GroupRun } from './select-raw.js';
import type { TimedValue } from './value.js';
import { window as windowOf } from './window.js';

export function forecast(t: AggTransform, inner: readonly TimedValue[], g: GroupRun): Promise<TimedValue[]> {
  const range = windowRange(g)!;
  const spec = g.plan.window!;
  const points: ForecastPoint[] = [];
  for (const x of inner) {
    // A row is labelled by its window's start, sample()'s point by its own time: by its window.
    if (x.value === null || x.time < range.first || windowOf(x.time, spec).start > range.last) continue;
    points.push({ time: x.time, value: Number(x.value) });
  }
  const args = t.expr.args;
  const h = args[1]?.kind === 'Integer' ? Number(args[1].value) : 0;
  const m = args[2]?.kind === 'Integer' ? Number(args[2].value) : 0;
  return holtWinters(points, { h, m, withFit: t.name === 'holt_winters_with_fit', interval: spec.interval }, () => checkpoint(g.ctx));
}
