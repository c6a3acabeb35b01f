/**
 * Time values in WHERE clauses, as 1.x reads them: RFC 3339 strings (also with a space
 * instead of `T`, date-only, or without a zone = UTC), integers as ns, durations as ns,
 * `now()`, and `+`/`-` between them. Exact int64 arithmetic in bigint (per query, not per row).
 */
import type { Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { zoneOffsetSec } from '../exec/zone.js';
import { timeSumNs } from './time-sum.js';

/** Go's `2006-01-02` (1.x's DateFormat). */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Go's `2006-01-02 15:04:05.999999` (1.x's DateTimeFormat): a run of spaces, a one- or two-digit hour, no zone. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) +(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?$/;
/** Go's RFC3339Nano: `T`, seconds, an optional fraction, `Z` or `±hh:mm` (neither range-checked). */
const RFC3339_NANO = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
/** 1.x's isDateTimeString / isDateString: a string that starts as a date is a time or `invalid timestamp string`. */
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}(?:$|.)/;

/** Parse a 1.x time string into ns since the epoch; undefined when it is not a time. */
export function parseTimeString(s: string, zone: string | null = null): bigint | undefined {
  return plainUtcSeconds(s) ?? rfc3339Ns(s, zone);
}

/**
 * The offset of `zone` (tz()) at the wall-clock time `wallSec` read as UTC, as Go's
 * ParseInLocation picks it: the offset there, unless the instant it gives lies in another period.
 */
function wallOffsetSec(wallSec: number, zone: string | null): number {
  if (zone === null || zone === 'UTC') return 0;
  const guess = zoneOffsetSec(zone, wallSec);
  const other = zoneOffsetSec(zone, wallSec - guess);
  return other === guess ? guess : other;
}

/** Go's time.Parse range checks: a month of 1-12, a day that the month has, 0-23 h, 0-59 min and s. */
function inRange(y: number, mo: number, d: number, h: number, mi: number, sec: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() || (mo === 2 && d === 29 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));
}

/**
 * The general reading of a time string, as 1.6.7's StringLiteral.ToTimeLiteral: a date, the
 * space-separated date and time (UTC), or RFC 3339 with seconds and a zone; nothing else.
 */
export function rfc3339Ns(s: string, zone: string | null = null): bigint | undefined {
  const m = DATE_ONLY.exec(s) ?? DATE_TIME.exec(s) ?? RFC3339_NANO.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', written] = m;
  if (!inRange(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(sec))) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const ms = date.getTime() + ((Number(h) * 60 + Number(mi)) * 60 + Number(sec)) * 1000;
  const nanos = BigInt(frac.padEnd(9, '0') || '0');
  if (written === undefined) return (BigInt(ms) - BigInt(wallOffsetSec(ms / 1000, zone)) * 1000n) * 1_000_000n + nanos;
  let offsetMin = 0;
  if (written !== 'Z') offsetMin = (written[0] === '-' ? -1 : 1) * (Number(written.slice(1, 3)) * 60 + Number(written.slice(4, 6)));
  return (BigInt(ms) - BigInt(offsetMin) * 60_000n) * 1_000_000n + nanos;
}

const digit = (s: string, i: number): number => s.charCodeAt(i) - 48;
const isDigitAt = (s: string, i: number): boolean => s.charCodeAt(i) - 48 >>> 0 <= 9;
/** Where `YYYY-MM-DDTHH:MM:SSZ` has its digits. */
const PLAIN_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * `YYYY-MM-DDTHH:MM:SSZ` exactly (what tools such as TSBS send, once or twice per statement):
 * the value RFC3339 gives it, without the regex and its capture strings. Undefined for any
 * other form, which the general path reads.
 */
function plainUtcSeconds(s: string): bigint | undefined {
  if (s.length !== 20 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== 'Z') return undefined;
  for (const i of PLAIN_DIGITS) if (!isDigitAt(s, i)) return undefined;
  const two = (i: number): number => digit(s, i) * 10 + digit(s, i + 1);
  const [y, mo, d, h, mi, sec] = [two(0) * 100 + two(2), two(5), two(8), two(11), two(14), two(17)];
  if (!inRange(y, mo, d, h, mi, sec)) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return BigInt(date.getTime() + ((h * 60 + mi) * 60 + sec) * 1000) * 1_000_000n;
}

/** 1.x's MinTime and MaxTime: the two lowest int64 values are its sentinels. */
const MIN_TIME = -(2n ** 63n) + 2n;
const MAX_TIME = 2n ** 63n - 2n;

/** A time string's value, or 1.6.7's error when it falls outside (MinTime, MaxTime], named to the second. */
function inTimeRange(t: bigint): bigint {
  if (t > MIN_TIME && t <= MAX_TIME) return t;
  const seconds = t / 1_000_000_000n - (t % 1_000_000_000n < 0n ? 1n : 0n);
  const at = new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');
  throw new QueryError(`time ${at} ${t > MAX_TIME ? 'overflows' : 'underflows'} time literal`);
}

/** A string's time inside a sum (out of range is the literal's error), undefined when it is no time. */
function timeStringNs(text: string, zone: string | null): bigint | undefined {
  const t = parseTimeString(text, zone);
  return t === undefined ? undefined : inTimeRange(t);
}

/** Evaluate an expression that must be a time value; throws the 1.x-style error otherwise. */
export function evalTime(e: Expr, nowNs: bigint, zone: string | null = null): bigint {
  switch (e.kind) {
    case 'String': {
      const t = parseTimeString(e.value, zone);
      if (t !== undefined) return inTimeRange(t);
      if (DATE_PREFIX.test(e.value)) throw new QueryError('invalid timestamp string');
      throw new QueryError(`invalid operation: time and *influxql.StringLiteral are not compatible`);
    }
    case 'Integer':
    case 'Unsigned':
      return e.value;
    case 'Number':
      return BigInt(Math.trunc(e.value));
    case 'Duration':
      return e.ns;
    case 'Call':
      if (e.name.toLowerCase() === 'now' && e.args.length === 0) return nowNs;
      break;
    case 'Binary':
      return timeSumNs(e, { nowNs, parse: (text) => timeStringNs(text, zone) });
    case 'Unary':
      // 1.x reads `-x` of anything but a number as `-1 * x`, which no time comparison takes.
      if (e.op === '-' && NUMERIC_LITERAL.has(e.expr.kind)) return -evalTime(e.expr, nowNs, zone);
      break;
    default:
      break;
  }
  throw new QueryError(`invalid operation: time and *influxql.${GO_NODE[e.kind] ?? e.kind} are not compatible`);
}

const NUMERIC_LITERAL: ReadonlySet<Expr['kind']> = new Set(['Integer', 'Unsigned', 'Number', 'Duration']);

/** influxql's Go type names of the nodes a time comparison refuses (`-x` is `-1 * x` there). */
const GO_NODE: Partial<Record<Expr['kind'], string>> = {
  Binary: 'BinaryExpr',
  Unary: 'BinaryExpr',
  Boolean: 'BooleanLiteral',
  Regex: 'RegexLiteral',
};
