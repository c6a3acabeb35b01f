/**
 * 1.x's fill iterator over an outer GROUP BY time's rows that come out of time order: the rows
 * run-stream-windows.ts reduces from the runs of an interleaved inner fill. The iterator keeps
 * one expected window and moves it on by one interval after every row it sends, filled or not:
 * - a row ahead of the expected window is held back while the windows before it are filled;
 * - a row at or behind it (once the runs go back in time) passes through as it comes;
 * - after the last row it fills on to the statement's last window, if it has not passed it.
 * So only the windows before the first rows, and after the last ones, are ever filled in
 * practice. fill(previous) takes the last row sent (none before the first), fill(linear)
 * interpolates between the last row sent and the one held back (null after the last row), by
 * window index as 1.x's linearFloat/linearInteger do. A group without a row sends nothing: the
 * iterator stops at once when its input is empty.
 */
import { FieldType } from '../../engine/index.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { linear } from './fill.js';
import type { GroupRun } from './select-raw.js';
import { callFillType, callFillValue } from './call-fill.js';
import type { Scalar } from './value.js';
import { window as windowOf } from './window.js';

/** One reduced row: its window's start and each call's value, in the calls' order. */
export interface WindowRow {
  readonly start: bigint;
  readonly values: readonly Cell[];
}

/** The type of a call's values, as fill(N) casts N to it (call-fill.ts); undefined for a call 1.x types Unknown. */
export function callType(g: GroupRun, c: AggCall): FieldType | undefined {
  return callFillType(c.expr, g.plan.schema);
}

/** The rows with 1.x's filled windows among them (time first, then each call's value), in the read direction. */
export function filledRunRows(g: GroupRun, calls: readonly AggCall[], rows: readonly WindowRow[]): Cell[][] {
  const { plan } = g;
  const fill = plan.stmt.fill;
  if (fill.mode === 'none' || rows.length === 0) return rows.map((r) => [r.start, ...r.values]);
  const spec = plan.window!;
  const ascending = plan.ascending;
  const step = ascending ? spec.interval : -spec.interval;
  const types = calls.map((c) => callType(g, c));
  // The first expected window: the statement's first in the read direction (the first row's
  // without a lower bound, ascending); the last: the statement's last (none without a lower
  // bound, descending).
  const { min, max, hasMin } = plan.time;
  let expected = ascending ? (hasMin ? windowOf(min, spec).start : rows[0]!.start) : windowOf(max, spec).start;
  const last = ascending ? windowOf(max, spec).start : hasMin ? windowOf(min, spec).start : undefined;
  const ahead = (t: bigint): boolean => (ascending ? t > expected : t < expected);
  let sent: WindowRow | undefined;
  const filled = (next: WindowRow | undefined): Cell[] => [expected, ...calls.map((c, k) => fillValue(c, k, next))];
  const fillValue = (c: AggCall, k: number, next: WindowRow | undefined): Cell => {
    switch (fill.mode) {
      case 'number':
        return callFillValue(fill, types[k]) as Cell;
      case 'previous':
        return sent ? (sent.values[k] ?? null) : null;
      case 'linear': {
        if (!sent || !next) return null;
        const at = (t: bigint): bigint => t / spec.interval;
        return linear(types[k] ?? FieldType.Float, at(expected), at(sent.start), at(next.start), sent.values[k] as Scalar, next.values[k] as Scalar) as Cell;
      }
      default:
        // 1.x fills count() with 0 under fill(null)
        return c.reducer === 'count' ? 0 : null;
    }
  };
  const out: Cell[][] = [];
  for (const row of rows) {
    for (; ahead(row.start); expected += step) out.push(filled(row));
    out.push([row.start, ...row.values]);
    sent = row;
    expected += step;
  }
  if (last !== undefined) for (; ascending ? expected <= last : expected >= last; expected += step) out.push(filled(undefined));
  return out;
}
