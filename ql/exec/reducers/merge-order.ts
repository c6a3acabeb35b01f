/**
 * The order in which 1.x's sorted merge hands a reducer the points of several series: each
 * series yields its points in time order, and the series are merged through Go's heap by time
 * alone, in key order (reversed under ORDER BY time DESC, as 1.x reverses its tag sets), so
 * points sharing a timestamp come in heap order. Reducers that keep the points of a group
 * (percentile, mode, integral over several series) replay it: their tie-breaks follow arrival.
 */
import { GoHeap } from '../go-heap.js';

/**
 * `runs`: each series' point indices in the order the series yields them, series in key order.
 * `before(i, j)`: point i comes strictly before point j in the query's time order.
 */
export function heapMergeOrder(runs: readonly (readonly number[])[], before: (i: number, j: number) => boolean, descending: boolean): number[] {
  if (runs.length === 1) return [...runs[0]!];
  const heads = runs.filter((r) => r.length > 0).map((r) => ({ r, at: 0 }));
  const heap = new GoHeap(descending ? heads.reverse() : heads, (a, b) => before(a.r[a.at]!, b.r[b.at]!));
  const out: number[] = [];
  for (let h = heap.pop(); h; h = heap.pop()) {
    out.push(h.r[h.at++]!);
    if (h.at < h.r.length) heap.push(h);
  }
  return out;
}

/** Split indices 0..n-1, fed series after series, into per-series runs. */
export function seriesRuns(seriesOf: readonly number[], reverseEach: boolean): number[][] {
  const runs: number[][] = [];
  for (let i = 0; i < seriesOf.length; i++) {
    if (i === 0 || seriesOf[i] !== seriesOf[i - 1]) runs.push([]);
    runs[runs.length - 1]!.push(i);
  }
  if (reverseEach) for (const r of runs) r.reverse();
  return runs;
}
