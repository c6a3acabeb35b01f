/**
 * The order in which an aggregate reads a group's series when 1.x's partial float sums decide
 * its last digits (reducers/partials.ts): 1.x reduces each series on its own and merges the
 * partial sums and means in its merge heap's order, which takes the series in reverse key order
 * under ORDER BY time DESC (`sum(v)` of 1e17, -1e17 and 2.5 in series a, b and c is 0 there,
 * 2.5 ascending; observed on 1.6.7). Reversed only where every call is count(), sum() or
 * mean(): 1.x's selector ties under DESC follow no one order Strata reproduces (README), and
 * not over a subquery, whose rows 1.x adds as one stream (reducers/stream-sum.ts).
 */
import type { AggCall } from './agg-calls.js';
import type { SeriesRef } from './source.js';

const PARTIAL_SUMS: ReadonlySet<string> = new Set(['count', 'sum', 'mean']);

/** The group's series with their indices, in the order 1.x merges their partials. */
export function seriesInMergeOrder(series: readonly SeriesRef[], calls: readonly AggCall[], ascending: boolean, fromSubquery: boolean): Iterable<[number, SeriesRef]> {
  const reversed = !ascending && !fromSubquery && calls.every((c) => PARTIAL_SUMS.has(c.reducer));
  return reversed ? [...series.entries()].reverse() : series.entries();
}
