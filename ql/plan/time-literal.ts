/**
 * Time values in WHERE clauses, as 1.x reads them: RFC 3339 strings (also with a space
 * instead of `T`, date-only, or without a zone = UTC), integers as ns, durations as ns,
 * `now()`, and `+`/`-` between them. Exact int64 arithmetic in bigint (per query, not per row).
 */
import type { Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Parse a 1.x time string into ns since the epoch; undefined when it is not a time. */
export function parseTimeString(s: string): bigint | undefined {
  return plainUtcSeconds(s) ?? rfc3339Ns(s);
}

/** The general reading of a time string (every form 1.x accepts). */
export function rfc3339Ns(s: string): bigint | undefined {
  const m = RFC3339.exec(s.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  if (Number.isNaN(ms)) return undefined;
  let offsetMin = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const z = zone.replace(':', '');
    offsetMin = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
  }
  const nanos = BigInt(frac.padEnd(9, '0') || '0');
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
  const ms = Date.UTC(two(0) * 100 + two(2), two(5) - 1, two(8), two(11), two(14), two(17));
  return Number.isNaN(ms) ? undefined : BigInt(ms) * 1_000_000n;
}

/** Evaluate an expression that must be a time value; throws the 1.x-style error otherwise. */
export function evalTime(e: Expr, nowNs: bigint): bigint {
  switch (e.kind) {
    case 'String': {
      const t = parseTimeString(e.value);
      if (t === undefined) throw new QueryError(`invalid operation: time and *influxql.StringLiteral are not compatible`);
      return t;
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
      if (e.op === '+') return evalTime(e.lhs, nowNs) + evalTime(e.rhs, nowNs);
      if (e.op === '-') return evalTime(e.lhs, nowNs) - evalTime(e.rhs, nowNs);
      break;
    case 'Unary':
      if (e.op === '-') return -evalTime(e.expr, nowNs);
      break;
    default:
      break;
  }
  throw new QueryError(`invalid time expression`);
}
