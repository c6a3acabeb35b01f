/**
 * Result types of InfluxQL functions for a given input field type (what the planner needs to
 * type result columns before any value is computed), as 1.x's FunctionTypeMapper gives them,
 * plus the 1.x check that a function accepts the input type.
 */
import { FieldType } from '../../engine/index.js';
import { QueryError, UnsupportedTypeError } from './errors.js';
import { MATH_FUNCTIONS } from './math.js';
import { ACCEPTED_TYPES } from './reducers/index.js';

const INTEGER_RESULT = new Set(['count', 'count_distinct', 'elapsed']);
const FLOAT_RESULT = new Set(['mean', 'median', 'stddev', 'integral', 'derivative', 'non_negative_derivative', 'moving_average']);
const SAME_AS_INPUT = new Set([
  'sum', 'min', 'max', 'first', 'last', 'spread', 'mode', 'percentile', 'distinct', 'top', 'bottom', 'sample',
  'difference', 'non_negative_difference', 'cumulative_sum',
]);
const NUMERIC: readonly FieldType[] = [FieldType.Float, FieldType.Integer, FieldType.Unsigned];
const TRANSFORM_TYPES: Readonly<Record<string, { types: readonly FieldType[]; errorName: string }>> = {
  derivative: { types: NUMERIC, errorName: 'derivative' },
  non_negative_derivative: { types: NUMERIC, errorName: 'derivative' },
  difference: { types: NUMERIC, errorName: 'difference' },
  non_negative_difference: { types: NUMERIC, errorName: 'difference' },
  moving_average: { types: NUMERIC, errorName: 'moving average' },
  cumulative_sum: { types: NUMERIC, errorName: 'cumulative sum' },
  elapsed: { types: [...NUMERIC, FieldType.Boolean, FieldType.String], errorName: 'elapsed' },
};
const KEEPS_INT_MATH = new Set(['abs', 'floor', 'ceil', 'round']);

/** The field type of `fn`'s results for `input` (`count_distinct` = count(distinct(x))). */
export function resultType(fn: string, input: FieldType): FieldType {
  if (INTEGER_RESULT.has(fn)) return FieldType.Integer;
  if (FLOAT_RESULT.has(fn)) return FieldType.Float;
  if (SAME_AS_INPUT.has(fn)) return input;
  if (MATH_FUNCTIONS.has(fn)) {
    return KEEPS_INT_MATH.has(fn) && (input === FieldType.Integer || input === FieldType.Unsigned) ? input : FieldType.Float;
  }
  throw new QueryError(`undefined function ${fn}()`);
}

/** Throw the 1.x error if `fn` does not accept `input` (math functions accept anything: null). */
export function checkInputType(fn: string, input: FieldType): void {
  const agg = ACCEPTED_TYPES[fn];
  if (agg !== undefined) {
    if (!agg.includes(input)) throw new UnsupportedTypeError(fn === 'count_distinct' ? 'distinct' : fn, input);
    return;
  }
  const tr = TRANSFORM_TYPES[fn];
  if (tr !== undefined) {
    if (!tr.types.includes(input)) throw new UnsupportedTypeError(tr.errorName, input);
    return;
  }
  if (!MATH_FUNCTIONS.has(fn)) throw new QueryError(`undefined function ${fn}()`);
}
