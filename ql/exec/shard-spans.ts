/**
 * The parts of a raw SELECT's range that 1.6.7 merges on their own: it builds one sorted merge
 * (a Go heap over the series) per shard and concatenates the shards, so rows of several series
 * sharing a timestamp come in the order of the heap of their shard alone. One heap over the
 * whole range gives another order once a series continues into the next shard group (its next
 * row is pushed back where 1.6.7's shard heap has none), which a LIMIT then shows.
 */
import type { QueryContext } from './context.js';
import { EngineSource } from './engine-source.js';
import type { SelectPlan } from './select-plan.js';
import type { MeasurementSource } from './source.js';

export interface TimeSpan {
  readonly min: bigint;
  readonly max: bigint;
}

/** The query's range cut at the shard boundaries of the source's policy, in output order; [undefined]: one pass. */
export function mergeSpans(g: { readonly plan: SelectPlan; readonly source: MeasurementSource; readonly series: readonly unknown[]; readonly ctx: QueryContext }): readonly (TimeSpan | undefined)[] {
  const { plan, source } = g;
  if (g.series.length < 2 || !(source instanceof EngineSource)) return [undefined];
  const { min, max } = plan.time;
  const shards = g.ctx.engine.shardsOverlapping(source.db, source.rp, min, max);
  if (shards.length < 2) return [undefined];
  const spans = shards
    .map((s) => ({ min: s.baseNs > min ? s.baseNs : min, max: s.endNs - 1n < max ? s.endNs - 1n : max }))
    .sort((a, b) => (a.min < b.min ? -1 : a.min > b.min ? 1 : 0));
  return plan.ascending ? spans : spans.reverse();
}
