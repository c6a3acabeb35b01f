/**
 * Windows a fall-back change stretches under TZ(), as 1.x's reducer and interval iterator meet
 * them (select-agg.ts): a selector's row label, and the buckets of ORDER BY time DESC.
 */
import { window as windowOf, type WindowSpec } from './window.js';

/**
 * `fn(windowStart, from, to)` for runs of points [from, to) of one window run that share the
 * window of their own time. 1.x's reducer under ORDER BY time DESC starts each bucket at the
 * window of the newest point it has not yet read: the hour a fall-back change repeats (a 3h
 * window of time(2h) in Berlin) is then a bucket of its own, labelled by the later window.
 */
export function forEachPointWindow(base: bigint, offsets: Float64Array, from: number, to: number, spec: WindowSpec, fn: (start: bigint, from: number, to: number) => void): void {
  let runFrom = from;
  let key = windowOf(base + BigInt(offsets[from]!), spec).start;
  for (let k = from + 1; k < to; k++) {
    const next = windowOf(base + BigInt(offsets[k]!), spec).start;
    if (next === key) continue;
    fn(key, runFrom, k);
    runFrom = k;
    key = next;
  }
  fn(key, runFrom, to);
}

/**
 * The row time of a selector's window. 1.x's interval iterator labels each aggregate row with
 * the window of its point's time: the window start for most aggregates, the selected point's
 * own time for min/max/first/last/percentile. Under TZ() across a fall-back change the window
 * holding the repeated hour starts earlier than the window its later points compute, so such a
 * selector's row moves to that label (and fill() then fills the window it left).
 */
export function selectorLabel(start: bigint, pointTime: bigint | undefined, reducer: string, spec: WindowSpec | undefined): bigint {
  if (spec?.tz === undefined || pointTime === undefined || !LABELLED_BY_POINT.has(reducer)) return start;
  return windowOf(pointTime, spec).start;
}

const LABELLED_BY_POINT: ReadonlySet<string> = new Set(['first', 'last', 'min', 'max', 'percentile']);
