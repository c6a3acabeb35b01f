/**
 * Comparisons between durations, which 1.x decides before any row is read. Its valuer has no
 * value for a duration (a DurationLiteral evaluates to nil, so `v < 1h` holds for no row and
 * `v + 1h` is null), but influxql's Reduce folds literal arithmetic first, and a comparison of
 * two durations becomes a boolean literal: `1h > 30m` is true, `1h * 2 >= 2h` too. Only the
 * shapes reduceBinaryExprDurationLHS folds count: D±D, D×N and D÷N with the duration on the
 * left (`2 * 1h` stays unreduced, so `2 * 1h > 90m` is false in 1.6.7, recorded).
 */
import type { BinaryOp, Expr } from '../ast/nodes.js';
import { MATH_FUNCTIONS } from './math.js';

const COMPARISONS: ReadonlySet<BinaryOp> = new Set<BinaryOp>(['=', '!=', '<', '<=', '>', '>=']);

/** The nanoseconds `e` reduces to when 1.x folds it into a DurationLiteral, else undefined. */
function durationNs(e: Expr): bigint | undefined {
  if (e.kind === 'Duration') return e.ns;
  if (e.kind === 'Unary' && e.op === '-' && e.expr.kind === 'Duration') return -e.expr.ns;
  if (e.kind !== 'Binary') return undefined;
  const l = durationNs(e.lhs);
  if (l === undefined) return undefined;
  if (e.op === '+' || e.op === '-') {
    const r = durationNs(e.rhs);
    if (r === undefined) return undefined;
    return BigInt.asIntN(64, e.op === '+' ? l + r : l - r);
  }
  if (e.op !== '*' && e.op !== '/') return undefined;
  // Go's time.Duration(f) truncates a float factor toward zero
  const r = e.rhs.kind === 'Integer' ? e.rhs.value : e.rhs.kind === 'Number' && Number.isFinite(e.rhs.value) ? BigInt(Math.trunc(e.rhs.value)) : undefined;
  if (r === undefined) return undefined;
  if (e.op === '*') return BigInt.asIntN(64, l * r);
  return r === 0n ? 0n : l / r;
}

function fold(e: Expr): boolean | null {
  if (e.kind !== 'Binary' || !COMPARISONS.has(e.op)) return null;
  const l = durationNs(e.lhs);
  const r = l === undefined ? undefined : durationNs(e.rhs);
  if (l === undefined || r === undefined) return null;
  switch (e.op) {
    case '=': return l === r;
    case '!=': return l !== r;
    case '<': return l < r;
    case '<=': return l <= r;
    case '>': return l > r;
    default: return l >= r;
  }
}

const FOLDED = new WeakMap<Expr, boolean | null>();

/** The boolean a comparison of two durations reduces to, or undefined for any other node. */
export function durationComparison(e: Expr): boolean | undefined {
  let v = FOLDED.get(e);
  if (v === undefined) FOLDED.set(e, (v = fold(e)));
  return v === null ? undefined : v;
}

/**
 * Whether a column's value is null whatever its inputs: a duration in the valuer's arithmetic
 * (not in a call's own arguments, `derivative(mean(v), 1h)`). 1.x fills a query's inputs, so
 * `max(v) * 1h ... fill(1)` stays null in an empty window, where filling the cells would give 1.
 */
export function nullByDuration(e: Expr): boolean {
  switch (e.kind) {
    case 'Duration':
      return true;
    case 'Binary':
      return durationComparison(e) === undefined && (nullByDuration(e.lhs) || nullByDuration(e.rhs));
    case 'Unary':
      return nullByDuration(e.expr);
    case 'Call':
      return MATH_FUNCTIONS.has(e.name.toLowerCase()) && e.args.some(nullByDuration);
    default:
      return false;
  }
}
