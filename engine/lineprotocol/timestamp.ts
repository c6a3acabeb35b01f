/**
 * Line-protocol timestamps → (sec, nsec) without a BigInt per point.
 *
 * The digit string is split where the precision puts the second boundary (9 digits from the
 * right for ns, 6 for us, 3 for ms, 0 for s): the left part is whole seconds (at most 10
 * significant digits inside the valid range, so exact as a double), the right part scaled to
 * nanoseconds. Minutes and hours are small enough to multiply directly.
 *
 * Valid range, as 1.x models/time.go: [MinInt64 + 2, MaxInt64 - 1] nanoseconds, i.e.
 * ±9223372036.854775806 s. Anything near or beyond a limit takes a BigInt path that also
 * produces the 1.x error texts (strconv overflow, multiplication overflow, range check).
 */
import type { Precision } from '../point.js';

/** Where parseTimestamp writes its result (reused, so the hot path allocates nothing). */
export interface TimeSlot {
  sec: number;
  nsec: number;
}

interface Unit {
  /** Digits right of the second boundary (ns 9 … s 0); -1 for m/h. */
  readonly subDigits: number;
  /** Nanoseconds per unit of the last digit group (10^(9 - subDigits)). */
  readonly scale: number;
  /** Seconds per unit for m/h. */
  readonly secMult: number;
  /** Nanoseconds per unit, for the exact slow path and error texts. */
  readonly nsMult: bigint;
}

const UNITS: Readonly<Record<Precision, Unit>> = {
  ns: { subDigits: 9, scale: 1, secMult: 0, nsMult: 1n },
  us: { subDigits: 6, scale: 1_000, secMult: 0, nsMult: 1_000n },
  ms: { subDigits: 3, scale: 1_000_000, secMult: 0, nsMult: 1_000_000n },
  s: { subDigits: 0, scale: 1_000_000_000, secMult: 0, nsMult: 1_000_000_000n },
  m: { subDigits: -1, scale: 0, secMult: 60, nsMult: 60_000_000_000n },
  h: { subDigits: -1, scale: 0, secMult: 3600, nsMult: 3_600_000_000_000n },
};

const MAX_SEC = 9223372036;
const MAX_FRAC = 854775806;
const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_NANO = MIN_INT64 + 2n;
const MAX_NANO = MAX_INT64 - 1n;
const NS = 1_000_000_000n;

/**
 * Parses the timestamp token `s[start, end)` (an optional `-` then digits, already checked by
 * the caller) in the given precision into `out`. Returns null, or the 1.x error reason.
 */
export function parseTimestamp(s: string, start: number, end: number, precision: Precision, out: TimeSlot): string | null {
  const unit = UNITS[precision];
  let i = start;
  const neg = s.charCodeAt(i) === 0x2d;
  if (neg) i++;
  const digits = end - i;
  if (digits === 0 || digits > 19) return slowTimestamp(s.slice(start, end), unit, out);
  if (unit.subDigits < 0) {
    if (digits > 12) return slowTimestamp(s.slice(start, end), unit, out);
    let v = 0;
    for (; i < end; i++) v = v * 10 + (s.charCodeAt(i) - 48);
    const sec = v * unit.secMult;
    if (sec > MAX_SEC) return slowTimestamp(s.slice(start, end), unit, out);
    out.sec = neg && sec !== 0 ? -sec : sec;
    out.nsec = 0;
    return null;
  }
  const hiEnd = end - unit.subDigits;
  let hi = 0;
  for (; i < hiEnd; i++) hi = hi * 10 + (s.charCodeAt(i) - 48);
  let lo = 0;
  for (; i < end; i++) lo = lo * 10 + (s.charCodeAt(i) - 48);
  lo *= unit.scale;
  if (hi > MAX_SEC || (hi === MAX_SEC && lo > MAX_FRAC)) return slowTimestamp(s.slice(start, end), unit, out);
  if (!neg) {
    out.sec = hi;
    out.nsec = lo;
  } else if (lo === 0) {
    out.sec = hi === 0 ? 0 : -hi;
    out.nsec = 0;
  } else {
    out.sec = -hi - 1;
    out.nsec = 1_000_000_000 - lo;
  }
  return null;
}

/**
 * parseTimestamp for the usual token: nothing but digits up to the line's end `end`, at most
 * 19 of them, within range. One pass that checks the digits as it reads them (the general
 * path first scans the token for its end and validity, then reads it). Answers false, having
 * written nothing, for anything else: the caller then takes the general path. Reads the
 * text's code units (code-units.ts), where anything but ASCII is 0x80, never a digit.
 */
export function parsePlainTimestamp(codes: Uint8Array, start: number, end: number, precision: Precision, out: TimeSlot): boolean {
  const unit = UNITS[precision];
  if (end <= start || end - start > 19 || unit.subDigits < 0) return false;
  const hiEnd = end - unit.subDigits;
  let i = start;
  let hi = 0;
  for (; i < hiEnd; i++) {
    const d = codes[i]! - 48;
    if (d < 0 || d > 9) return false;
    hi = hi * 10 + d;
  }
  let lo = 0;
  for (; i < end; i++) {
    const d = codes[i]! - 48;
    if (d < 0 || d > 9) return false;
    lo = lo * 10 + d;
  }
  lo *= unit.scale;
  if (hi > MAX_SEC || (hi === MAX_SEC && lo > MAX_FRAC)) return false;
  out.sec = hi;
  out.nsec = lo;
  return true;
}

/** 1.6's text for a timestamp outside [MinNanoTime, MaxNanoTime], whatever the precision. */
const OUT_OF_RANGE = `time outside range ${MIN_NANO} - ${MAX_NANO}`;

/** Exact path for long or out-of-range timestamps; mirrors strconv.ParseInt + SafeCalcTime. */
function slowTimestamp(text: string, unit: Unit, out: TimeSlot): string | null {
  if (!/^-?[0-9]+$/.test(text)) return `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`;
  const v = BigInt(text);
  if (v < MIN_INT64 || v > MAX_INT64) return `strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`;
  const mult = unit.nsMult;
  const ns = v * mult;
  // Go's safeSignedMult: products that leave int64 (and MinNanoTime itself) are an overflow.
  const simple = v === 0n || v === 1n || mult === 1n;
  if (!simple && (v === MIN_NANO || ns < MIN_INT64 || ns > MAX_INT64)) {
    return OUT_OF_RANGE;
  }
  let sec = ns / NS;
  if (ns < 0n && sec * NS !== ns) sec -= 1n; // floor, as Go's time.Unix() for negative times
  if (ns < MIN_NANO || ns > MAX_NANO) return OUT_OF_RANGE;
  out.sec = Number(sec);
  out.nsec = Number(ns - sec * NS);
  return null;
}

/**
 * A default timestamp truncated to the write precision, as 1.x does for lines without one
 * (point.SetPrecision: Truncate rounds down, also for negative times).
 */
export function truncateToPrecision(sec: number, nsec: number, precision: Precision, out: TimeSlot): void {
  switch (precision) {
    case 'ns':
      break;
    case 'us':
      nsec -= nsec % 1_000;
      break;
    case 'ms':
      nsec -= nsec % 1_000_000;
      break;
    case 's':
      nsec = 0;
      break;
    case 'm':
      nsec = 0;
      sec = Math.floor(sec / 60) * 60;
      break;
    case 'h':
      nsec = 0;
      sec = Math.floor(sec / 3600) * 3600;
      break;
  }
  out.sec = sec;
  out.nsec = nsec;
}
