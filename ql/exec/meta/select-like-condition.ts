/**
 * SHOW SERIES / MEASUREMENT CARDINALITY with WHERE run in 1.6.7 as a SELECT counting series
 * keys, so a key that is a field of any of the measurements is a field in all of them, and a
 * comparison on a field never holds there (the counted rows carry no field values): with
 * `level` a tag of one measurement and a field of another, `level = 'error'` counts nothing.
 * Observed on 1.6.7 with string, regex and number comparisons. So is a tag compared with `=` or
 * `!=` to a regex (a bound `{"regex"}` parameter): a string never equals a regex in a row.
 */
import type { MeasurementIndex } from '../../../engine/index.js';
import type { Expr } from '../../ast/nodes.js';
import { walkExpr } from '../../ast/walk.js';
import { fieldOnlyKeys, namedKeys, SHOW_OPTIONS, tagCondition, type TagCondition } from './tag-cond.js';

/**
 * The condition as 1.6.7's SELECT reads it, or undefined when it names no key that is a field
 * of one of `measurements` (then the index rules apply unchanged).
 */
export function selectLikeCondition(cond: Expr, nowNs: bigint, measurements: readonly MeasurementIndex[]): TagCondition | undefined {
  const fieldKeys = measurements.map(fieldOnlyKeys);
  const fields = new Set([...namedKeys(cond)].filter((k) => fieldKeys.some((f) => f.has(k))));
  const regexEquality = (value: Expr, op: string): boolean => value.kind === 'Regex' && op !== '=~' && op !== '!~';
  let compared = false;
  walkExpr(cond, (n) => {
    if (n.kind === 'Binary' && (regexEquality(n.rhs, n.op) || regexEquality(n.lhs, n.op))) compared = true;
    return !compared;
  });
  if (fields.size === 0 && !compared) return undefined;
  return tagCondition(cond, nowNs, {
    ...SHOW_OPTIONS,
    fieldsFromIndex: false,
    fieldVerdict: (key, value, op) => (fields.has(key) || regexEquality(value, op) ? false : undefined),
  });
}
