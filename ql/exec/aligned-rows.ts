/**
 * Output rows of an aggregate query straight from its per-aggregate series, when they line
 * up: every series has the same times in the same order (GROUP BY time with any fill other
 * than none gives every window in every series; one aggregate always lines up). Row k is then
 * `[time_k, value of column 1's series at k, ...]`, which is what joining the series by time
 * gives, without a Map per aggregate and a closure per row (a large part of a small GROUP BY
 * time query's cost).
 */
import type { Cell } from '../result.js';
import type { TimedValue } from './value.js';
import { MIN_TIME } from './window.js';

/**
 * Rows in ascending time order, or undefined when the series do not line up (different
 * lengths or times, or, when `order` is not given, times not strictly monotonic): the caller
 * then joins them by time. `columnSeries[c]`: the series column c shows. With `order`, the
 * series are in that output order (reversed to ascending here) whatever their times.
 */
export function alignedRows(series: readonly (readonly TimedValue[])[], columnSeries: readonly number[], order?: 'ascending' | 'descending'): Cell[][] | undefined {
  const first = series[0];
  if (first === undefined) return undefined;
  const n = first.length;
  for (const s of series) if (s.length !== n) return undefined;
  const descending = order === undefined ? n > 1 && first[0]!.time > first[1]!.time : order === 'descending';
  const rows: Cell[][] = new Array(n);
  let previous: bigint | undefined;
  for (let k = 0; k < n; k++) {
    const at = descending ? n - 1 - k : k;
    const time = first[at]!.time;
    // In a known order, the rows stay as the series give them: a fill that steps from the
    // clamped first window (fill.ts) gives rows out of time order, and 1.x sends them so.
    if (order === undefined && previous !== undefined && time <= previous) return undefined;
    previous = time;
    for (let j = 1; j < series.length; j++) if (series[j]![at]!.time !== time) return undefined;
    const row = new Array<Cell>(columnSeries.length + 1);
    row[0] = time;
    for (let c = 0; c < columnSeries.length; c++) row[c + 1] = series[columnSeries[c]!]![at]!.value ?? null;
    rows[k] = row;
  }
  return rows;
}

/**
 * The output order of series where a row is in the clamped first window (window.ts windowTime):
 * their fill stepped from 1.x's 0 for it (fill.ts), and the rows stay as 1.x sends them.
 */
export function clampedOrder(series: readonly (readonly TimedValue[])[], desc: boolean): 'ascending' | 'descending' | undefined {
  return series.some((s) => s.some((x) => x.time === MIN_TIME)) ? (desc ? 'descending' : 'ascending') : undefined;
}
