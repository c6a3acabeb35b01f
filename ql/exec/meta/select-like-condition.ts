/**
 * SHOW SERIES / MEASUREMENT / TAG KEY / TAG VALUES / FIELD KEY [EXACT] CARDINALITY with WHERE
 * run in 1.6.7 as a SELECT (influxql's rewrite into `count(distinct(_seriesKey))` and the like),
 * whose series come from its index's idsForExpr:
 * - a key that is a field of any of the measurements is a field in all of them, and a
 *   comparison on a field never holds there (the counted rows carry no field values): with
 *   `level` a tag of one measurement and a field of another, `level = 'error'` counts nothing;
 * - a tag compared with anything but a string by `=` / `!=` or a regex by `=~` / `!~` selects
 *   no series: `host = 0`, `host != true`, `host > 'a'` (no ordering on tags), and `host = $re`
 *   (a string never equals a regex in a row); the plain SHOW statements ignore the first and
 *   refuse the ordering;
 * - TAG VALUES only: a comparison on a key that is not a tag of the measurement counts nothing
 *   for it (`nosuch != 'x'`; `sensor != 's1'` over mem and sparse counts sparse alone).
 * Observed on 1.6.7.
 */
import type { MeasurementIndex } from '../../../engine/index.js';
import type { Expr } from '../../ast/nodes.js';
import { fieldOnlyKeys, namedKeys, SHOW_OPTIONS, tagCondition, type MeasurementKeys, type TagCondition } from './tag-cond.js';

/** The condition as 1.6.7's SELECT reads it. `tagValues`: SHOW TAG VALUES [EXACT] CARDINALITY. */
export function selectLikeCondition(cond: Expr, nowNs: bigint, measurements: readonly MeasurementIndex[], tagValues = false): TagCondition {
  const fieldKeys = measurements.map(fieldOnlyKeys);
  const fields = new Set([...namedKeys(cond)].filter((k) => fieldKeys.some((f) => f.has(k))));
  const verdict = (key: string, value: Expr, op: string, m?: MeasurementKeys): boolean | undefined => {
    if (fields.has(key)) return false;
    const compared = value.kind === 'Regex' ? op === '=~' || op === '!~' : value.kind === 'String' && (op === '=' || op === '!=');
    if (!compared) return false;
    return tagValues && m?.tags !== undefined && key !== '_name' && !m.tags.has(key) ? false : undefined;
  };
  return tagCondition(cond, nowNs, { ...SHOW_OPTIONS, fieldsFromIndex: false, fieldVerdict: verdict, perMeasurement: tagValues });
}
