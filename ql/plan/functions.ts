/** Function classes of TimeseriesQL and their 1.x rules. */
import { formatDuration } from '../ast/duration.js';
import type { Call } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { MATH_FUNCTIONS } from '../exec/math.js';

export const AGGREGATES: ReadonlySet<string> = new Set([
  'count', 'sum', 'mean', 'median', 'mode', 'spread', 'stddev', 'min', 'max', 'first', 'last',
  'percentile', 'distinct', 'top', 'bottom', 'sample', 'integral',
]);

/** Aggregates whose result is a point of the input (its time can label the row). */
export const SELECTORS: ReadonlySet<string> = new Set(['first', 'last', 'min', 'max', 'percentile', 'top', 'bottom', 'sample']);

/** Aggregates that can return several rows per window. */
export const MULTI_ROW: ReadonlySet<string> = new Set(['top', 'bottom', 'distinct', 'sample']);

export const TRANSFORMS: ReadonlySet<string> = new Set([
  'derivative', 'non_negative_derivative', 'difference', 'non_negative_difference',
  'moving_average', 'cumulative_sum', 'elapsed',
]);

export function isMath(name: string): boolean {
  return MATH_FUNCTIONS.has(name);
}

export function isKnownFunction(name: string): boolean {
  return AGGREGATES.has(name) || TRANSFORMS.has(name) || MATH_FUNCTIONS.has(name);
}

/**
 * Argument checks 1.x makes while compiling a call (influxql compile.go) that the executor
 * would otherwise paper over: moving_average() needs its window, and the unit of
 * derivative(), non_negative_derivative(), elapsed() and integral() must be positive.
 */
export function checkCallArgs(call: Call): void {
  const name = call.name.toLowerCase();
  if (name === 'moving_average' && call.args.length !== 2) {
    throw new QueryError(`invalid number of arguments for moving_average, expected 2, got ${call.args.length}`);
  }
  if (name === 'moving_average') {
    const n = call.args[1];
    if (n?.kind === 'Number') throw new QueryError('second argument for moving_average must be an integer, got *influxql.NumberLiteral');
    if (n?.kind === 'Integer' && n.value < 2n) throw new QueryError(`moving_average window must be greater than 1, got ${n.value}`);
  }
  const unit = call.args[1];
  if (POSITIVE_UNIT.has(name) && unit?.kind === 'Duration' && unit.ns <= 0n) {
    throw new QueryError(`duration argument must be positive, got ${formatDuration(unit.ns)}`);
  }
}

const POSITIVE_UNIT: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative', 'elapsed', 'integral']);
