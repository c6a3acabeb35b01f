/**
 * 1.6.7 widens a GROUP BY time statement's range by the windows its transforms of aggregates
 * read before its first one (after its last under ORDER BY time DESC), its compiler's
 * ExtraIntervals: 1 for derivative, non_negative_derivative, difference, non_negative_difference,
 * elapsed and cumulative_sum, N for moving_average(x, N), the largest in the statement
 * (holt_winters reads none). The start (end) moves by that many intervals in Go's int64
 * arithmetic, for every call of the statement: from a start in or next to the clamped first
 * window (no lower bound at all, the usual case) it wraps around to the far future, lands after
 * the end, and the statement answers nothing; likewise an end near the largest time under DESC.
 * A subquery's statement is compiled apart from that step: its transforms answer (subquery-
 * statement.ts has the move of an inner raw transform's range).
 */
import type { Expr } from '../ast/nodes.js';
import type { SelectPlan } from './select-plan.js';
import { aggregatesOf } from './plan-derived.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const ONE_EXTRA: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'elapsed', 'cumulative_sum']);

/** The intervals 1.6.7 adds before (after) the range; 0 without transforms of aggregates. */
export function extraIntervals(plan: SelectPlan): bigint {
  if (!plan.window || plan.projection.shape !== 'aggregate') return 0n;
  let extra = 0n;
  for (const t of aggregatesOf(plan).transforms) {
    const n = t.name === 'moving_average' ? movingAverageWindow(t.expr.args[1]) : ONE_EXTRA.has(t.name) ? 1n : 0n;
    if (n > extra) extra = n;
  }
  return extra;
}

function movingAverageWindow(arg: Expr | undefined): bigint {
  return arg?.kind === 'Integer' ? BigInt(arg.value) : 0n;
}

/** Whether the top-level statement answers nothing because the widened range wraps around int64. */
export function extendedRangeWraps(plan: SelectPlan): boolean {
  const extra = extraIntervals(plan);
  if (extra === 0n || !plan.window) return false;
  const by = extra * plan.window.interval;
  return plan.ascending ? plan.time.min - by < INT64_MIN : plan.time.max + by > INT64_MAX;
}
