/**
 * RFC 3339 row times for result bodies, byte-identical to `rfc3339Nano` but without a Date
 * per row: rows of a series are close in time, so the `YYYY-MM-DDTHH:` prefix of the last
 * hour seen is kept and only minutes, seconds and the fraction are formatted.
 */
import type { WindowRowTimes } from '../../ql/index.js';
import { rfc3339NanoInZone } from './epoch.js';

const NS_PER_SEC = 1_000_000_000n;

/** Steps between neighbouring rows up to this many ns are taken in Number arithmetic (exact far beyond it). */
const NEAR_NS = 2 ** 40;

export class Rfc3339Cache {
  private hour = NaN;
  private prefix = '';
  /** The last time formatted, split into whole seconds and nanoseconds (0..999999999). */
  private lastNs: bigint | undefined;
  private lastSec = 0;
  private lastFrac = 0;

  /** `ns` minus the time formatted before the last one, as a bigint and as a Number (inexact beyond 2^53, then unused). */
  private lastStep = 0n;
  private lastStepNumber = 0;

  /** The same text as rfc3339Nano(ns). */
  format(ns: bigint): string {
    // Rows of a series are close in time: one bigint subtraction from the previous row instead
    // of a bigint division, multiplication and subtraction per row. Rows one window apart (the
    // rows of GROUP BY time) repeat the last step: a bigint addition and comparison then
    // replace the subtraction and its Number(), a runtime call that cost more than the rest.
    let d: number;
    if (this.lastNs === undefined) d = NaN;
    else if (ns === this.lastNs + this.lastStep) d = this.lastStepNumber;
    else {
      const step = ns - this.lastNs;
      d = Number(step);
      this.lastStep = step;
      this.lastStepNumber = d;
    }
    let s: number;
    let frac: number;
    if (d > -NEAR_NS && d < NEAR_NS) {
      frac = this.lastFrac + d;
      s = this.lastSec + Math.floor(frac / 1e9);
      frac -= (s - this.lastSec) * 1e9;
    } else {
      let sec = ns / NS_PER_SEC;
      frac = Number(ns - sec * NS_PER_SEC);
      if (frac < 0) {
        frac += 1e9;
        sec -= 1n;
      }
      s = Number(sec);
    }
    this.lastNs = ns;
    this.lastSec = s;
    this.lastFrac = frac;
    return this.text(s, frac);
  }

  /** The text of the time `s` whole seconds plus `frac` ns (0..999999999) after the epoch. */
  text(s: number, frac: number): string {
    const hour = Math.floor(s / 3600);
    if (hour !== this.hour) {
      // The hour start is in Date's range whenever the time is (its limit, 8.64e15 ms, is a whole hour).
      const iso = new Date(hour * 3_600_000).toISOString();
      this.prefix = iso.slice(0, iso.indexOf('T') + 4);
      this.hour = hour;
    }
    const inHour = s - hour * 3600;
    if (frac === 0) return this.prefix + (SECOND_TEXT[inHour] ?? wholeSecond(inHour));
    const mm = Math.floor(inHour / 60);
    const ss = inHour - mm * 60;
    const text = this.prefix + (mm < 10 ? '0' : '') + mm + (ss < 10 ? ':0' : ':') + ss;
    return `${text}.${fraction(frac)}Z`;
  }
}

/** `MM:SSZ` of each second of an hour, made when first needed: whole-second row times are most rows. */
const SECOND_TEXT: string[] = [];

function wholeSecond(inHour: number): string {
  let t = SECOND_TEXT[inHour];
  if (t === undefined) {
    const mm = Math.floor(inHour / 60);
    const ss = inHour - mm * 60;
    t = SECOND_TEXT[inHour] = (mm < 10 ? '0' : '') + mm + (ss < 10 ? ':0' : ':') + ss + 'Z';
  }
  return t;
}

/** Nine digits with trailing zeros trimmed (frac in 1..999999999). */
function fraction(frac: number): string {
  let digits = 9;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  const t = String(frac);
  return t.length === digits ? t : '0'.repeat(digits - t.length) + t;
}

const NS_PER_SEC_NUMBER = 1e9;

/**
 * RFC 3339 texts (UTC) of the rows whose times are a window grid (ql window-row-times.ts),
 * each the text rfc3339Formatter gives for the row's time: the seconds and nanoseconds of
 * window k are worked out in Number arithmetic from those of window 0 and of the interval, in
 * one loop (no call per row but Rfc3339Cache.text). Undefined when that is not exact for every
 * window of the grid (then the rows' own times are printed).
 */
export function windowGridTexts(grid: WindowRowTimes, rows: number): string[] | undefined {
  const [firstSec, firstFrac] = secondsAndNanos(grid.first);
  const [stepSec, stepFrac] = secondsAndNanos(grid.interval);
  const windows = grid.windows;
  const lastWindow = rows === 0 ? 0 : windows ? windows[rows - 1]! : rows - 1;
  // Every intermediate below stays an exact integer: k * stepFrac < 2^53 and the seconds too.
  if (!Number.isSafeInteger(lastWindow * stepFrac + firstFrac) || !Number.isSafeInteger(Math.abs(firstSec) + lastWindow * (stepSec + 1))) return undefined;
  const cache = new Rfc3339Cache();
  const texts = new Array<string>(rows);
  for (let row = 0; row < rows; row++) {
    const k = windows ? windows[row]! : row;
    const nanos = firstFrac + k * stepFrac;
    const carry = Math.floor(nanos / NS_PER_SEC_NUMBER);
    texts[row] = cache.text(firstSec + k * stepSec + carry, nanos - carry * NS_PER_SEC_NUMBER);
  }
  return texts;
}

/** Whole seconds (floored) and the nanoseconds after them (0..999999999), as Numbers. */
function secondsAndNanos(ns: bigint): [number, number] {
  let sec = ns / NS_PER_SEC;
  let frac = ns - sec * NS_PER_SEC;
  if (frac < 0n) {
    frac += NS_PER_SEC;
    sec -= 1n;
  }
  return [Number(sec), Number(frac)];
}

/** Row time text for a result body: RFC 3339 in UTC, or with the TZ() zone's offset. */
export function rfc3339Formatter(zoneOffsetSec?: (ns: bigint) => number): (ns: bigint) => string {
  const cache = new Rfc3339Cache();
  if (!zoneOffsetSec) return (ns) => cache.format(ns);
  return (ns) => rfc3339NanoInZone(ns, zoneOffsetSec(ns));
}
