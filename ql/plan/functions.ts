/** Function classes of TimeseriesQL and their 1.x rules. */
import { MATH_FUNCTIONS } from '../exec/math.js';
import { TECHNICAL } from '../exec/technical.js';
import type { Expr } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';

export const AGGREGATES: ReadonlySet<string> = new Set([
  'count', 'sum', 'mean', 'median', 'mode', 'spread', 'stddev', 'min', 'max', 'first', 'last',
  'percentile', 'distinct', 'top', 'bottom', 'sample', 'integral',
]);

/** Aggregates whose result is a point of the input (its time can label the row). */
export const SELECTORS: ReadonlySet<string> = new Set(['first', 'last', 'min', 'max', 'percentile', 'top', 'bottom', 'sample']);

/** Aggregates that can return several rows per window. */
export const MULTI_ROW: ReadonlySet<string> = new Set(['top', 'bottom', 'distinct', 'sample']);

/** holt_winters() and its with_fit form: a forecast from a series of aggregates. */
export const FORECASTS: ReadonlySet<string> = new Set(['holt_winters', 'holt_winters_with_fit']);

/** Functions over the stream of an aggregate (or, except forecasts, of a raw field). */
export const TRANSFORMS: ReadonlySet<string> = new Set([
  'derivative', 'non_negative_derivative', 'difference', 'non_negative_difference',
  'moving_average', 'cumulative_sum', 'elapsed', ...TECHNICAL, ...FORECASTS,
]);

export function isMath(name: string): boolean {
  return MATH_FUNCTIONS.has(name);
}

/**
 * Whether a field list holds a call that is not math (1.x's FunctionCalls): without one,
 * fill(none) and fill(linear) are errors and fill(null) and fill(none) mean the same.
 */
export function hasFunctionCall(fields: readonly { readonly expr: Expr }[]): boolean {
  let found = false;
  for (const f of fields) {
    walkExpr(f.expr, (n) => {
      if (n.kind === 'Distinct' || (n.kind === 'Call' && !isMath(n.name.toLowerCase()))) found = true;
      return !found;
    });
    if (found) return true;
  }
  return false;
}
