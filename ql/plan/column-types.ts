/**
 * The type of each SELECT column as 1.x's compiler gives it (influxql's CallTypeMapper and
 * MathTypeMapper, and the binary-expression rules), from the sources' field types.
 *
 * Why: result cells do not say whether 76 is an integer or a float (both print the same), but
 * SELECT ... INTO writes fields, and 1.x writes an integer iterator's values as integers:
 * `SELECT n INTO copy` keeps `n` integer, `count(x)` writes integers, `mean(n)` floats.
 * Undefined: not known statically (the writer then falls back to the value's own form).
 */
import { FieldType } from '../../engine/index.js';
import type { Expr } from '../ast/nodes.js';
import type { SchemaInfo } from './projection.js';
import { isTag } from './projection.js';

const HINTS: Readonly<Record<string, FieldType>> = {
  float: FieldType.Float,
  integer: FieldType.Integer,
  unsigned: FieldType.Unsigned,
  string: FieldType.String,
  boolean: FieldType.Boolean,
};

/** Calls whose result has their (first) argument's type: selectors and order-keeping transforms. */
const SAME_TYPE: ReadonlySet<string> = new Set([
  'sum', 'spread', 'mode', 'min', 'max', 'first', 'last', 'percentile', 'distinct', 'top', 'bottom', 'sample',
  'difference', 'non_negative_difference', 'cumulative_sum', 'abs', 'floor', 'ceil', 'round',
]);
const INTEGER_RESULT: ReadonlySet<string> = new Set(['count', 'elapsed']);
const COMPARISON: ReadonlySet<string> = new Set(['=', '!=', '<', '<=', '>', '>=', '=~', '!~', 'AND', 'OR']);

const isNumeric = (t: FieldType | undefined): boolean => t === FieldType.Float || t === FieldType.Integer || t === FieldType.Unsigned;

export function columnType(e: Expr, schema: SchemaInfo): FieldType | undefined {
  switch (e.kind) {
    case 'VarRef': {
      const hinted = e.type === null ? undefined : HINTS[e.type];
      if (hinted !== undefined) return hinted;
      if (isTag(e.name, e.type, schema)) return FieldType.String;
      return schema.fields.get(e.name);
    }
    case 'Integer':
      return FieldType.Integer;
    case 'Unsigned':
      return FieldType.Unsigned;
    case 'Number':
      return FieldType.Float;
    case 'String':
      return FieldType.String;
    case 'Boolean':
      return FieldType.Boolean;
    case 'Distinct':
      return schema.fields.get(e.name);
    case 'Unary':
      return e.op === 'NOT' ? FieldType.Boolean : columnType(e.expr, schema);
    case 'Binary':
      return binaryType(e.op, columnType(e.lhs, schema), columnType(e.rhs, schema));
    case 'Call': {
      const name = e.name.toLowerCase();
      if (INTEGER_RESULT.has(name)) return FieldType.Integer;
      if (SAME_TYPE.has(name)) return e.args[0] ? columnType(e.args[0], schema) : undefined;
      return FieldType.Float;
    }
    default:
      return undefined;
  }
}

function binaryType(op: string, l: FieldType | undefined, r: FieldType | undefined): FieldType | undefined {
  if (COMPARISON.has(op)) return FieldType.Boolean;
  if (l === FieldType.Boolean && r === FieldType.Boolean) return FieldType.Boolean;
  if (!isNumeric(l) || !isNumeric(r)) return undefined;
  // 1.x divides integers as floats; any float operand makes the result a float.
  if (op === '/' || l === FieldType.Float || r === FieldType.Float) return FieldType.Float;
  return l === FieldType.Unsigned || r === FieldType.Unsigned ? FieldType.Unsigned : FieldType.Integer;
}
