/**
 * fill() for GROUP BY time results of one series, replaying the 1.x fill iterator:
 *
 * - The expected windows run from window(lower bound).start (or the window of the first row
 *   when there is no lower bound or the lower bound's window is the clamped first one) to
 *   window(upper bound).start inclusive, stepping by the interval with the 1.x DST correction
 *   (see window.ts `stepCursor`). Rows are compared in 1.x's time, where the clamped first
 *   window is 0 (window.ts `windowTime`): after it 1.x's expected window is far ahead, so the
 *   rows up to 1970 pass through unfilled.
 * - Rows are consumed in order; a row later than the expected window makes a filled row at
 *   the expected time first. A row earlier than the expected time (possible around DST with
 *   an offset) is passed through unchanged, as 1.x does.
 * - A series without any row produces nothing (also with fill).
 * - fill(null): null; fill(none): rows unchanged; fill(N): N cast to the series type (1.x
 *   castTo<Type>: integers truncate toward zero, e.g. fill(1.7) on integers is 1); count()
 *   turns fill(null) into fill(0).
 * - fill(previous): the value of the last real row (null before the first one).
 * - fill(linear) (numeric types only, others get null): interpolates between the last real row
 *   and the next row with 1.x's formula on times divided (truncated) by the interval; integer
 *   results truncate toward zero; no next row (trailing windows) or no previous row: null.
 */
import { FieldType } from '../../engine/index.js';
import { QueryError } from './errors.js';
import { callFillValue } from './call-fill.js';
import { intToFloat, subInt, wrapInt64, wrapUint64 } from './value.js';
import type { IntValue, Scalar, TimedValue } from './value.js';
import { MAX_SELECT_BUCKETS, MIN_TIME, certainlyMoreWindows, cursorAt, stepCursor, window, windowTime } from './window.js';
import type { WindowSpec } from './window.js';

export type FillMode = 'null' | 'none' | 'number' | 'previous' | 'linear';

export interface FillOptions {
  mode: FillMode;
  /** The number of fill(N). */
  value?: number | bigint;
  /** Field type of the series values (decides casts and linear arithmetic). */
  valueType: FieldType;
  window: WindowSpec;
  /** Query lower bound (1.x StartTime); undefined when the query has none. */
  startNs?: bigint | undefined;
  /** Query upper bound, inclusive (1.x EndTime, e.g. `time < X` gives X - 1). */
  endNs: bigint;
  /** ORDER BY time DESC: rows arrive newest first. */
  descending?: boolean;
  /** The aggregate's name: `count` makes fill(null) fill with 0. */
  call?: string;
  /** Guard against runaway enumerations; a typed error when exceeded. */
  maxRows?: number;
  /**
   * Only the first this many windows are wanted (OFFSET + LIMIT of a query whose filled rows
   * are cut straight away): `LIMIT 1` over a day of 10 ms windows made 8.64M rows first.
   */
  stopAfter?: number;
  /** Fill every window between the bounds even without rows (GroupRun.fillsUnseen; needs startNs). */
  fillsUnseen?: boolean;
}

/** 1.x linearFloat / linearInteger / linearUnsigned on window-index times. */
export function linear(type: FieldType, wt: bigint, pt: bigint, nt: bigint, pv: Scalar, nv: Scalar): Scalar {
  if (pv === null || nv === null) return null;
  const dt = Number(nt - pt);
  const x = Number(wt - pt);
  if (type === FieldType.Float) {
    const m = ((nv as number) - (pv as number)) / dt;
    return m * x + (pv as number);
  }
  const unsigned = type === FieldType.Unsigned;
  const m = intToFloat(subInt(nv as IntValue, pv as IntValue, unsigned)) / dt;
  const r = Math.trunc(m * x + intToFloat(pv as IntValue));
  if (!Number.isFinite(r)) return null;
  if (Number.isSafeInteger(r) && (!unsigned || r >= 0)) return r;
  return unsigned ? wrapUint64(BigInt(r)) : wrapInt64(BigInt(r));
}

function isNumeric(t: FieldType): boolean {
  return t === FieldType.Float || t === FieldType.Integer || t === FieldType.Unsigned;
}

export function fillSeries(rows: readonly TimedValue[], opts: FillOptions): TimedValue[] {
  let mode = opts.mode;
  let fillValue: Scalar = opts.value ?? null;
  if (mode === 'none' || (rows.length === 0 && !(opts.fillsUnseen && opts.startNs !== undefined))) return [...rows];
  if (mode === 'null' && (opts.call === 'count' || opts.call === 'count_distinct')) {
    mode = 'number';
    fillValue = 0;
  }
  const spec = opts.window;
  const asc = opts.descending !== true;
  let startTime: bigint;
  let endTime: bigint;
  if (asc) {
    startTime = opts.startNs === undefined ? MIN_TIME : window(opts.startNs, spec).start;
    endTime = window(opts.endNs, spec).start;
  } else {
    startTime = window(opts.endNs, spec).start;
    endTime = opts.startNs === undefined ? MIN_TIME : window(opts.startNs, spec).start;
  }
  // 1.x starts a series at its first row's window when the range's first window is the clamped
  // one (no lower bound, or one inside that window), in its own time: that row's 0 (windowTime).
  if (startTime === MIN_TIME && rows.length > 0) startTime = window(windowTime((rows[0] as TimedValue).time), spec).start;
  // A series without rows is filled by 1.x's cursor, not its fill iterator (call-fill.ts FillSite).
  const site = rows.length === 0 ? 'cursor' : 'iterator';
  const numberValue = mode === 'number' ? callFillValue({ mode, value: typeof fillValue === 'number' || typeof fillValue === 'bigint' ? fillValue : 0 }, opts.valueType, site) : null;
  const iv = spec.interval;
  const maxRows = opts.maxRows ?? MAX_SELECT_BUCKETS;
  // Every window between the bounds gives a row: too many of them fail before any is made.
  const stopAfter = opts.stopAfter ?? Infinity;
  const bounded = (asc || endTime !== MIN_TIME) && stopAfter > maxRows;
  if (bounded && certainlyMoreWindows(asc ? startTime : endTime, asc ? endTime : startTime, spec, maxRows)) throw new QueryError(`max-select-buckets limit exceeded: (${maxRows})`);
  const out: TimedValue[] = [];
  const c = cursorAt(startTime, spec);
  let prev: TimedValue | null = null;
  let i = 0;
  for (;;) {
    const p = i < rows.length ? (rows[i] as TimedValue) : null;
    if (p === null && !(asc ? c.time <= endTime : c.time >= endTime && endTime !== MIN_TIME)) break;
    if (out.length >= stopAfter) break;
    if (out.length >= maxRows) throw new QueryError(`max-select-buckets limit exceeded: (${maxRows})`);
    const pt = p === null ? 0n : windowTime(p.time);
    if (p === null || (asc ? pt > c.time : pt < c.time)) {
      let v: Scalar = null;
      if (mode === 'number') v = numberValue;
      else if (mode === 'previous') v = prev === null ? null : prev.value;
      else if (mode === 'linear' && isNumeric(opts.valueType) && prev !== null && p !== null) {
        v = linear(opts.valueType, c.time / iv, windowTime(prev.time) / iv, pt / iv, prev.value, p.value);
      }
      out.push({ time: c.time, value: v });
    } else {
      out.push(p);
      prev = p;
      i++;
    }
    stepCursor(c, spec, asc);
    // Go's int64: under DESC the step below the clamped first window wraps to the far future,
    // and 1.x then fills from there down to the row it holds (its first window's, at 0).
    c.time = BigInt.asIntN(64, c.time);
  }
  return out;
}
