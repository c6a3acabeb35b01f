/**
 * 1.x's fill iterator over an outer GROUP BY time's rows that come out of time order: the rows
 * run-stream-windows.ts reduces from the runs of an interleaved inner fill. The iterator keeps
 * one expected window and moves it on by one interval after every row it sends, filled or not:
 * - a row ahead of the expected window is held back while the windows before it are filled;
 * - a row at or behind it (once the runs go back in time) passes through as it comes;
 * - after the last row it fills on to the statement's last window, if it has not passed it.
 * So only the windows before the first rows, and after the last ones, are ever filled in
 * practice. Under tz() a step over an offset change moves the expected window by the change. fill(previous) takes the last row sent (none before the first), fill(linear)
 * interpolates between the last row sent and the one held back (null after the last row), by
 * window index as 1.x's linearFloat/linearInteger do. A group without a row sends nothing: the
 * iterator stops at once when its input is empty.
 */
import { FieldType } from '../../engine/index.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { linear } from './fill.js';
import type { GroupRun } from './select-raw.js';
import { callFillType, callFillValue, fieldFill } from './call-fill.js';
import type { Scalar } from './value.js';
import type { AuxName } from './run-stream-selectors.js';
import { window as windowOf } from './window.js';
import { zoneOffsetNs } from './zone.js';

/** One reduced row: its window's start and each call's value, in the calls' order. */
export interface WindowRow {
  readonly start: bigint;
  readonly values: readonly Cell[];
  /** A selector's point's tags and fields beside it (a filled row has none). */
  readonly aux?: readonly Cell[];
}

/** The type of a call's values, as fill(N) casts N to it (call-fill.ts); undefined for a call 1.x types Unknown. */
export function callType(g: GroupRun, c: AggCall): FieldType | undefined {
  return callFillType(c.expr, g.plan.schema);
}

/** The rows with 1.x's filled windows among them (time first, then each call's value), in the read direction. */
export function filledRunRows(g: GroupRun, calls: readonly AggCall[], rows: readonly WindowRow[]): Cell[][] {
  const { plan } = g;
  const fill = plan.stmt.fill;
  if (fill.mode === 'none' || rows.length === 0) return rows.map(cellsOf);
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
  // Under tz() the iterator moves its expected window by an offset change it steps over (by
  // less than an interval), as 1.x's fill iterator does: it looks at the zone just before the
  // window it moved to.
  const tz = spec.tz;
  let offset = tz === undefined ? 0n : zoneOffsetNs(tz, expected);
  const advance = (): void => {
    expected += step;
    if (tz === undefined) return;
    const now = zoneOffsetNs(tz, expected - 1n);
    if (now === offset) return;
    const diff = offset - now;
    if ((diff < 0n ? -diff : diff) < spec.interval) expected += diff;
    offset = now;
  };
  const out: Cell[][] = [];
  for (const row of rows) {
    for (; ahead(row.start); advance()) out.push(filled(row));
    out.push(cellsOf(row));
    sent = row;
    advance();
  }
  if (last !== undefined) for (; ascending ? expected <= last : expected >= last; advance()) out.push(filled(undefined));
  return out;
}

function cellsOf(r: WindowRow): Cell[] {
  return [r.start, ...r.values, ...(r.aux ?? [])];
}

/**
 * 1.x's cursor reads each row through its iterator scanners (query/iterator.go ScanAt), which
 * put the statement's fill value where the row lacks one: a call's nil point (stddev() of one
 * value, percentile() without a point) or an auxiliary value a filled row does not carry. Under
 * fill(previous) the scanner skips it, so the row before's value stays (the cursor's map
 * persists); otherwise it is null. `rows`: [time, ...calls, ...aux], in stream order.
 */
export function scannerDefaults(g: GroupRun, calls: readonly AggCall[], aux: readonly AuxName[], rows: Cell[][]): void {
  const fill = g.plan.stmt.fill;
  if (fill.mode !== 'number' && fill.mode !== 'previous') return;
  const width = 1 + calls.length + aux.length;
  const field = fieldFill(g.plan);
  const defaults = [
    ...calls.map((c) => (fill.mode === 'number' ? (callFillValue(fill, callType(g, c), 'cursor') as Cell) : null)),
    ...aux.map((a) => (fill.mode !== 'number' ? null : a.tag ? (fill.value as Cell) : (field!(a.name, null) as Cell))),
  ];
  let prev: Cell[] | undefined;
  for (const row of rows) {
    for (let i = 1; i < width; i++) {
      if (row[i] !== null && row[i] !== undefined) continue;
      row[i] = fill.mode === 'previous' ? (prev?.[i] ?? null) : defaults[i - 1]!;
    }
    prev = row;
  }
}
