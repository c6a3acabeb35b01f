/**
 * Pull the time range out of a WHERE condition.
 *
 * - Top-level AND: time comparisons intersect and disappear from the condition.
 * - OR: a side is bounded by the envelope of the branches only when every branch bounds
 *   that side (spec); the OR subtree stays in the condition so rows are still checked.
 * - No upper bound: now() when the query groups by time (1.x), else the end of time.
 */
import type { BinaryOp, Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { evalTime } from './time-literal.js';

export const MIN_NS = -9223372036854775806n;
export const MAX_NS = 9223372036854775806n;

export interface Bounds {
  min?: bigint;
  max?: bigint;
}

export interface TimeSplit {
  readonly min: bigint;
  readonly max: bigint;
  /** True when WHERE gave a lower bound (the time column of aggregates without GROUP BY time shows it). */
  readonly hasMin: boolean;
  readonly hasMax: boolean;
  /** The condition without the top-level time comparisons (null when nothing is left). */
  readonly rest: Expr | null;
  /** True when the conditions on time cannot be satisfied (empty result). */
  readonly empty: boolean;
}

export function isTimeRef(e: Expr): boolean {
  return e.kind === 'VarRef' && e.name.toLowerCase() === 'time';
}

const FLIP: Partial<Record<BinaryOp, BinaryOp>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '!=': '!=' };

/** A single `time <op> value` comparison as bounds, or undefined if `e` is not one. */
function comparison(e: Expr, nowNs: bigint, lenient: boolean, zone: string | null): Bounds | 'not-time' | 'unbounded' {
  if (!lenient && e.kind === 'Binary' && (e.op === '=~' || e.op === '!~') && (isTimeRef(e.lhs) || isTimeRef(e.rhs))) {
    throw new QueryError('invalid operation: time and *influxql.RegexLiteral are not compatible');
  }
  if (e.kind !== 'Binary' || !(e.op in FLIP)) return 'not-time';
  let op = e.op;
  let value: Expr;
  if (isTimeRef(e.lhs)) value = e.rhs;
  else if (isTimeRef(e.rhs)) {
    value = e.lhs;
    op = FLIP[op]!;
  } else return 'not-time';
  const t = evalTime(value, nowNs, zone);
  switch (op) {
    case '>':
      return { min: t + 1n };
    case '>=':
      return { min: t };
    case '<':
      return { max: t - 1n };
    case '<=':
      return { max: t };
    case '=':
      return { min: t, max: t };
    default:
      // SELECT in 1.x refuses `time != x` (and `<>`) rather than filtering on it.
      if (lenient) return 'unbounded';
      throw new QueryError(`invalid time comparison operator: ${op}`);
  }
}

function intersect(a: Bounds, b: Bounds): Bounds {
  const out: Bounds = {};
  const min = a.min === undefined ? b.min : b.min === undefined ? a.min : a.min > b.min ? a.min : b.min;
  const max = a.max === undefined ? b.max : b.max === undefined ? a.max : a.max < b.max ? a.max : b.max;
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  return out;
}

function envelope(a: Bounds, b: Bounds): Bounds {
  const out: Bounds = {};
  if (a.min !== undefined && b.min !== undefined) out.min = a.min < b.min ? a.min : b.min;
  if (a.max !== undefined && b.max !== undefined) out.max = a.max > b.max ? a.max : b.max;
  return out;
}

/**
 * The OR subtree that stays in the condition, with every time value resolved to its ns: rows
 * compare their time with an integer, never with `'2024-03-09T06:25:00Z'` or `now() - 1h`.
 */
function timesAsIntegers(e: Expr, nowNs: bigint, zone: string | null): Expr {
  if (e.kind !== 'Binary') return e;
  if (e.op === 'AND' || e.op === 'OR') return { ...e, lhs: timesAsIntegers(e.lhs, nowNs, zone), rhs: timesAsIntegers(e.rhs, nowNs, zone) };
  if (!(e.op in FLIP)) return e;
  if (isTimeRef(e.lhs) && !isTimeRef(e.rhs)) return { ...e, rhs: { kind: 'Integer', value: evalTime(e.rhs, nowNs, zone) } };
  if (isTimeRef(e.rhs) && !isTimeRef(e.lhs)) return { ...e, lhs: { kind: 'Integer', value: evalTime(e.lhs, nowNs, zone) } };
  return e;
}

/** Bounds implied by a whole subtree (used for OR branches). */
function boundsOf(e: Expr, nowNs: bigint, lenient: boolean, zone: string | null): Bounds {
  if (e.kind === 'Binary' && e.op === 'AND') return intersect(boundsOf(e.lhs, nowNs, lenient, zone), boundsOf(e.rhs, nowNs, lenient, zone));
  if (e.kind === 'Binary' && e.op === 'OR') return envelope(boundsOf(e.lhs, nowNs, lenient, zone), boundsOf(e.rhs, nowNs, lenient, zone));
  const c = comparison(e, nowNs, lenient, zone);
  return typeof c === 'string' ? {} : c;
}

export function mentionsTime(e: Expr): boolean {
  if (isTimeRef(e)) return true;
  if (e.kind === 'Binary') return mentionsTime(e.lhs) || mentionsTime(e.rhs);
  if (e.kind === 'Unary') return mentionsTime(e.expr);
  return false;
}

function and(a: Expr | null, b: Expr | null): Expr | null {
  if (!a) return b;
  if (!b) return a;
  return { kind: 'Binary', op: 'AND', lhs: a, rhs: b };
}

function split(e: Expr, nowNs: bigint, lenient: boolean, zone: string | null): { bounds: Bounds; rest: Expr | null } {
  if (e.kind === 'Binary' && e.op === 'AND') {
    const l = split(e.lhs, nowNs, lenient, zone);
    const r = split(e.rhs, nowNs, lenient, zone);
    return { bounds: intersect(l.bounds, r.bounds), rest: and(l.rest, r.rest) };
  }
  const c = comparison(e, nowNs, lenient, zone);
  if (c === 'unbounded') return { bounds: {}, rest: e };
  if (c !== 'not-time') return { bounds: c, rest: null };
  if (e.kind === 'Binary' && e.op === 'OR' && mentionsTime(e)) return { bounds: boundsOf(e, nowNs, lenient, zone), rest: timesAsIntegers(e, nowNs, zone) };
  return { bounds: {}, rest: e };
}

/**
 * `lenient` keeps `time != x` and `time =~ /re/` in `rest` for the caller to judge (meta
 * statements have their own errors); SELECT rejects them as 1.x does. `zone` is the
 * statement's tz(): time strings without a zone are wall-clock times there.
 */
export function splitTimeRange(cond: Expr | null, nowNs: bigint, groupsByTime: boolean, lenient = false, zone: string | null = null): TimeSplit {
  const { bounds, rest } = cond ? split(cond, nowNs, lenient, zone) : { bounds: {}, rest: null };
  const min = bounds.min ?? MIN_NS;
  const max = bounds.max ?? (groupsByTime ? nowNs : MAX_NS);
  return {
    min: min < MIN_NS ? MIN_NS : min,
    max: max > MAX_NS ? MAX_NS : max,
    hasMin: bounds.min !== undefined,
    hasMax: bounds.max !== undefined,
    rest,
    empty: min > max,
  };
}
