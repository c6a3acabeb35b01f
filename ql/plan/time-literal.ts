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
