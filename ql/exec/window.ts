/**
 * GROUP BY time(interval[, offset]) windows, exactly as InfluxDB 1.x computes them
 * (query.IteratorOptions.Window and the fill iterator's stepping).
 *
 * Windows are aligned to the Unix epoch (so 1w windows start on Thursday 1970-01-01) and
 * shifted by the offset (reduced modulo the interval, sign kept). With a time zone, 1.x shifts the
 * alignment by the zone's offset at (t - offset) and then corrects the start and end by the
 * offset change inside the window, so day windows start at local midnight and a DST day is
 * 23 or 25 hours long; changes of an offset as large as the interval are not applied.
 *
 * Exactness of the batch fast path (`forEachWindowRun`): a batch is `base` (bigint ns) plus
 * Float64 offsets that are exact integers below 2^53. The window of the first point of a run
 * is computed once in BigInt; its end relative to `base` is converted to a Number only when it
 * is below 2^53 in magnitude (exact), otherwise it is +Infinity (every offset is below it).
 * Points are then assigned by comparing exact Float64 integers, so no BigInt is created per
 * point and the assignment is identical to calling `window()` for every point.
 */
import type { Cell } from '../result.js';
import { QueryError } from './errors.js';
import { checkTimeZone, zoneOffsetNs } from './zone.js';

/** influxql.MinTime / MaxTime: the int64 range 1.x accepts, minus the two sentinels. */
export const MIN_TIME = -9223372036854775806n;
export const MAX_TIME = 9223372036854775806n;
const TWO_53 = 9007199254740992n;

export interface WindowSpec {
  /** Interval in ns, > 0. */
  readonly interval: bigint;
  /** Offset in ns, reduced modulo the interval keeping its sign (Go `%`). */
  readonly offset: bigint;
  /** IANA zone name from TZ(), if any. */
  readonly tz?: string | undefined;
}

export interface Window {
  start: bigint;
  end: bigint;
}

/**
 * 1.x reduces GROUP BY time offsets with Go's `%` (influxql GroupByOffset: `offset % interval`):
 * the remainder keeps the offset's sign, so -90m on 1d stays -90m. Without a zone -90m and
 * 22h30m give the same windows; with TZ() they do not (the zone offset is looked up at
 * t - offset), so the sign is kept as 1.x keeps it.
 */
export function normalizeOffset(offset: bigint, interval: bigint): bigint {
  return offset % interval;
}

/** Validated window spec: interval > 0, offset reduced as 1.x does, zone known (else a typed error). */
export function windowSpec(interval: bigint, offset = 0n, tz?: string): WindowSpec {
  if (interval <= 0n) throw new QueryError('GROUP BY time interval must be positive');
  if (tz !== undefined) checkTimeZone(tz);
  return { interval, offset: normalizeOffset(offset, interval), tz };
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** The window [start, end) holding `t` (1.x IteratorOptions.Window). */
export function window(t: bigint, spec: WindowSpec): Window {
  const d = spec.interval;
  const tz = spec.tz;
  t -= spec.offset;
  const zone = tz === undefined ? 0n : zoneOffsetNs(tz, t);
  let dt = (t + zone) % d;
  if (dt < 0n) dt += d;
  let start = MIN_TIME + dt >= t ? MIN_TIME : t - dt;
  if (tz !== undefined) {
    const o = zone - zoneOffsetNs(tz, start);
    if (o !== 0n && abs(o) < d) start += o;
  }
  start += spec.offset;
  const rem = d - dt;
  let end = MAX_TIME - rem <= t ? MAX_TIME : t + rem;
  if (tz !== undefined) {
    const endOffset = zoneOffsetNs(tz, end);
    const o = zone - endOffset;
    if (o !== 0n && abs(o) < d) {
      // Added time (o > 0) belongs to the previous window; skipped time only when the switch
      // happens inside this window.
      if (o > 0n || zoneOffsetNs(tz, end + o) === endOffset) end += o;
    }
  }
  end += spec.offset;
  return { start, end };
}

/**
 * The time 1.x gives a window starting at `start`: its interval iterator turns MinTime (the start
 * of the first window, clamped to the range 1.x allows) into 0, "so we don't break the default
 * returned time for aggregate queries without times". The fill iterator after it sees that 0:
 * the first window of a range without a lower bound prints 1970-01-01T00:00:00Z, and the fill
 * steps on from the window of 0 (window.ts users keep MIN_TIME as the window's key, so it still
 * sorts first; only comparisons in 1.x's time and the printed time use this).
 */
export function windowTime(start: bigint): bigint {
  return start === MIN_TIME ? 0n : start;
}

/**
 * Rows of a GROUP BY time answer as 1.x prints them: the clamped first window's rows at 0
 * (windowTime). The same array when no row is in that window; else a copy whose changed rows
 * are new (result rows are read-only).
 */
export function printedWindowTimes(rows: Cell[][]): Cell[][] {
  if (!rows.some((r) => r[0] === MIN_TIME)) return rows;
  return rows.map((r) => (r[0] === MIN_TIME ? [0n, ...r.slice(1)] : r));
}

/** Start of the window holding `tNs` (the bucket label 1.x prints). */
export function bucketStart(tNs: bigint, interval: bigint, offset: bigint, tz?: string): bigint {
  return window(tNs, { interval, offset: normalizeOffset(offset, interval), tz }).start;
}

/**
 * Split points `from..to` of a time-ordered batch into runs that share a window and call
 * `fn(windowStart, windowEnd, runFrom, runTo)` for each, in order. One BigInt window
 * computation per run; see the file comment for why this is exact.
 */
export function forEachWindowRun(
  base: bigint,
  offsets: Float64Array,
  from: number,
  to: number,
  spec: WindowSpec,
  fn: (start: bigint, end: bigint, runFrom: number, runTo: number) => void,
): void {
  let i = from;
  let w: Window | undefined;
  let endRel = -Infinity;
  const d = spec.interval;
  const dNum = Number(d);
  while (i < to) {
    const off = offsets[i] as number;
    // Without a zone windows are uniform: a point in the window right after the last one
    // needs one bigint add, not a window() computation (most GROUP BY time batches).
    if (w !== undefined && spec.tz === undefined && off < endRel + dNum && w.end + d < MAX_TIME) w = { start: w.end, end: w.end + d };
    else w = window(base + BigInt(off), spec);
    const rel = w.end - base;
    endRel = rel >= TWO_53 ? Infinity : Number(rel);
    let j = i + 1;
    while (j < to && (offsets[j] as number) < endRel) j++;
    fn(w.start, w.end, i, j);
    i = j;
  }
}

/** Stepping state of the 1.x fill iterator: the expected window time and its zone offset. */
export interface BucketCursor {
  time: bigint;
  zone: bigint;
}

export function cursorAt(time: bigint, spec: WindowSpec): BucketCursor {
  return { time, zone: spec.tz === undefined ? 0n : zoneOffsetNs(spec.tz, time) };
}

/** Advance to the next expected window (ascending or descending), with 1.x's DST correction. */
export function stepCursor(c: BucketCursor, spec: WindowSpec, ascending = true): void {
  c.time += ascending ? spec.interval : -spec.interval;
  if (spec.tz === undefined) return;
  const z = zoneOffsetNs(spec.tz, c.time - 1n);
  if (z !== c.zone) {
    const diff = c.zone - z;
    if (abs(diff) < spec.interval) c.time += diff;
    c.zone = z;
  }
}

/** The most windows one series of a GROUP BY time answer may have (1.x's max-select-buckets, here always on). */
export const MAX_SELECT_BUCKETS = 10_000_000;

/** A zone's offset moves within this span (UTC-12 to UTC+14). */
const ZONE_SPAN_NS = 26n * 3600n * 1_000_000_000n;
const YEAR_NS = 366n * 24n * 3600n * 1_000_000_000n;

/**
 * Whether stepping windows from `first` to `last` (window starts, inclusive) certainly makes
 * more than `max` of them. Asked before enumerating, so that a query with a tiny interval over a
 * long range (GROUP BY time(1ms) over a day: 86 million windows) fails at once instead of after
 * building `max` windows (seconds of the event loop, gigabytes of memory).
 *
 * Exact without a zone. With one, 1.x's DST correction moves a step by an offset change smaller
 * than the interval, so each change costs at most one window, and together they move the steps
 * by no more than the zone's offset span: the count may be lower by the smaller of the two
 * bounds. Zones change their offset at most a few times a year (DST twice, and a handful of
 * historical changes), which bounds the changes in the range.
 */
export function certainlyMoreWindows(first: bigint, last: bigint, spec: WindowSpec, max: number): boolean {
  if (last < first) return false;
  let slack = 0n;
  if (spec.tz !== undefined) {
    const bySpan = ZONE_SPAN_NS / spec.interval + 1n;
    const byChanges = 4n * ((last - first) / YEAR_NS + 1n) + 20n;
    slack = (bySpan < byChanges ? bySpan : byChanges) + 2n;
  }
  return (last - first) / spec.interval + 1n - slack > BigInt(max);
}

/**
 * Window starts that fill enumerates between the query bounds (`endNs` inclusive, i.e. the
 * 1.x EndTime), ascending: from window(startNs).start while <= window(endNs).start.
 * `maxBuckets` guards against unbounded enumerations (a typed error when exceeded).
 */
export function buckets(startNs: bigint, endNs: bigint, spec: WindowSpec, maxBuckets = MAX_SELECT_BUCKETS): bigint[] {
  const out: bigint[] = [];
  const last = window(endNs, spec).start;
  const c = cursorAt(window(startNs, spec).start, spec);
  if (certainlyMoreWindows(c.time, last, spec, maxBuckets)) throw new QueryError(`max-select-buckets limit exceeded: (${maxBuckets})`);
  while (c.time <= last) {
    if (out.length >= maxBuckets) throw new QueryError(`max-select-buckets limit exceeded: (${maxBuckets})`);
    out.push(c.time);
    stepCursor(c, spec);
  }
  return out;
}
