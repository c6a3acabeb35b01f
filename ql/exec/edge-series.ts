/**
 * Which series a lone first()/last() without GROUP BY time meets, and which one holds the point
 * it selects (its tags and the fields beside it are that series'): select-agg.ts asks, the
 * reducers/firstlast.ts heap and tag-set-edge-heap.ts answer.
 */
import { hasRawRef, isTag } from '../plan/projection.js';
import type { SeriesHeap } from './reducers/index.js';
import type { GroupRun } from './select-raw.js';
import type { Scalar } from './value.js';

/**
 * first()/last() meet several stored series through 1.x's heap without GROUP BY time, also
 * beside auxiliary fields (tags among them order the heap's equal times: firstlast.ts); a
 * subquery is one stream.
 */
export function seriesHeapOf(g: GroupRun): SeriesHeap | undefined {
  const { plan } = g;
  if (plan.window || g.source.fromSubquery) return undefined;
  const tags = new Set<string>();
  for (const c of plan.projection.columns) {
    hasRawRef(c.expr, (r) => {
      if (isTag(r.name, r.type, plan.schema)) tags.add(r.name);
      return false;
    });
  }
  if (tags.size === 0) return {};
  const names = [...tags].sort();
  return { tagsBeside: (series) => names.map((n) => g.series[series]?.tags[n] ?? '').join('\u0000') };
}

/**
 * The group cut down to the series holding the selected point where that is known: of a tag
 * set's edge points (the first of equal ones, as the reducer keeps it), or the heap's `series`
 * (points equal in time and value in several series); the whole group otherwise.
 */
export function pointHolder(g: GroupRun, series: number | undefined, time: bigint, value: Scalar): GroupRun {
  const edge = g.edgePoints?.find((p) => p.time === time && Object.is(p.value, value))?.ref;
  const ref = edge ?? (series === undefined ? undefined : g.series[series]);
  return ref ? { ...g, series: [ref] } : g;
}
