/**
 * integral()'s rows in an aggregate group: its stream (reducers/integral.ts) runs across the
 * windows, so a window shows the stream's rows labelled for it, and one integral() call alone
 * makes one output row per stream row.
 */
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { callKey, evaluate, type RowScope } from './eval.js';
import { evalTypes, type GroupRun } from './select-raw.js';
import type { ResultRow, TimedValue } from './value.js';
import { window as windowOf, type WindowSpec } from './window.js';

/**
 * The rows of integral()'s stream that window `start` shows. 1.x labels a window by its start,
 * under ORDER BY time DESC by its end (the stream runs backwards, so the end is where it
 * starts); a point exactly at a window's lower edge under DESC closes the window and opens it
 * again, so it may hold two rows. They are given oldest-label first, stream order within a
 * label as the rows will be read (reversed as a whole under DESC).
 */
export function integralRowsOf(rows: readonly ResultRow[], start: bigint, spec: WindowSpec, ascending: boolean): ResultRow[] {
  if (ascending) return rows.filter((row) => row.time === start);
  return rows.filter((row) => windowOf(row.time! - 1n, spec).start === start).reverse();
}

/** One row per row of integral()'s stream: under DESC two may share a label, and 1.x prints both. */
export function integralRows(g: GroupRun, call: AggCall, stream: readonly TimedValue[]): Cell[][] {
  const et = evalTypes(g.source, new Map([[call.key, false]]));
  const columns = g.plan.projection.columns;
  return stream.map(({ time, value }) => {
    const scope: RowScope = { time, lookup: () => null, call: (e) => (e.kind === 'Call' && callKey(e) === call.key ? value : undefined) };
    return [time, ...columns.map((c) => evaluate(c.expr, scope, et))];
  });
}
