/**
 * 1.x's compile-time checks of SELECT fields that hold no data to read or that combine
 * incompatible operands: `SELECT 1 + 1` ("field must contain at least one variable"),
 * `usage_user + 'x'` or `ok + 1` ("type error: usage_user::float + 'x': incompatible types:
 * float and string"). Only leaf operands (a field, an aggregate of known type or a literal) are
 * typed here; anything else is left to evaluation. A tag in arithmetic is always an error (type `tag`).
 */
import { FieldType } from '../../engine/index.js';
import type { DataType, Expr } from '../ast/nodes.js';
import { quoteIdent } from '../ast/keywords.js';
import { printExpr } from '../ast/print.js';
import { QueryError } from '../errors.js';
import { goFixed3 } from '../ast/go-fixed.js';
import { MATH_FUNCTIONS } from '../exec/math.js';

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%', '&', '|', '^']);

/** influxql's names of the field types (`usage_user::float`). */
export const TYPE_NAMES: Readonly<Record<FieldType, DataType>> = {
  [FieldType.Float]: 'float',
  [FieldType.Integer]: 'integer',
  [FieldType.Unsigned]: 'unsigned',
  [FieldType.String]: 'string',
  [FieldType.Boolean]: 'boolean',
};

export function hasVariable(e: Expr): boolean {
  // a regex field is expanded into the fields it matches; inside an expression it is a literal
  return e.kind === 'Regex' || holdsVariable(e);
}

function holdsVariable(e: Expr): boolean {
  switch (e.kind) {
    case 'VarRef':
    case 'Wildcard':
    case 'Distinct':
      return true;
    case 'Call':
      // a math call reads its arguments as they are (`abs(1h)` holds none); others read data
      return !MATH_FUNCTIONS.has(e.name.toLowerCase()) || e.args.some(holdsVariable);
    case 'Binary':
      return holdsVariable(e.lhs) || holdsVariable(e.rhs);
    case 'Unary':
      return holdsVariable(e.expr);
    default:
      return false;
  }
}

export interface OperandSchema {
  readonly fields: ReadonlyMap<string, FieldType>;
  readonly tags: ReadonlySet<string>;
}

/** Calls whose result type does not depend on their argument (1.x's call type mapper). */
const FIXED_CALL_TYPES: Readonly<Record<string, string>> = {
  mean: 'float', median: 'float', stddev: 'float', integral: 'float', derivative: 'float', non_negative_derivative: 'float',
  moving_average: 'float', count: 'integer', elapsed: 'integer',
};
/** Calls of the type of their first argument; for the math functions too, in 1.x's type check (`sqrt(code::integer)` is integer there). */
const ARGUMENT_TYPED_CALLS: ReadonlySet<string> = new Set([
  'sum', 'min', 'max', 'first', 'last', 'mode', 'spread', 'difference', 'non_negative_difference', 'cumulative_sum', 'percentile', 'top', 'bottom', 'sample', 'distinct',
  'abs', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'exp', 'log', 'ln', 'log2', 'log10', 'sqrt', 'pow', 'floor', 'ceil', 'round',
]);

/** A call's type and 1.x's text of it (`derivative(mean(usage_user::float))`); undefined when 1.x would not know it. */
function callType(e: Expr & { kind: 'Call' }, schema: OperandSchema): { name: string; text: string } | undefined {
  const name = e.name.toLowerCase();
  const arg = e.args[0] === undefined ? undefined : leafType(e.args[0], schema);
  const type = FIXED_CALL_TYPES[name] ?? (ARGUMENT_TYPED_CALLS.has(name) ? arg?.name : undefined);
  if (type === undefined) return undefined;
  const argText = (a: Expr): string => leafType(a, schema)?.text ?? printExpr(a);
  return { name: type, text: `${e.name}(${e.args.map(argText).join(', ')})` };
}

function leafType(e: Expr, schema: OperandSchema): { name: string; text: string } | undefined {
  switch (e.kind) {
    case 'Call':
      return callType(e, schema);
    case 'VarRef': {
      const field = e.type === 'tag' ? undefined : schema.fields.get(e.name);
      const name = field !== undefined ? TYPE_NAMES[field] : e.type !== 'field' && schema.tags.has(e.name) ? 'tag' : undefined;
      return name === undefined ? undefined : { name, text: `${quoteIdent(e.name)}::${name}` };
    }
    case 'String':
      return { name: 'string', text: printExpr(e) };
    case 'Boolean':
      return { name: 'boolean', text: printExpr(e) };
    case 'Integer':
      return { name: 'integer', text: printExpr(e) };
    case 'Number':
      return { name: 'float', text: goFixed3(e.value) };
    default:
      return undefined;
  }
}

const NUMERIC: ReadonlySet<string> = new Set(['float', 'integer', 'unsigned']);

/** Throw 1.x's type error for arithmetic between a field and an incompatible leaf. */
export function checkOperandTypes(e: Expr, schema: OperandSchema): void {
  if (e.kind === 'Unary') {
    // 1.x parses `-x` as `-1 * x`.
    const t = e.op === '-' && e.expr.kind === 'VarRef' ? leafType(e.expr, schema) : undefined;
    if (t && !NUMERIC.has(t.name)) throw new QueryError(`type error: -1 * ${t.text}: incompatible types: integer and ${t.name}`);
    return checkOperandTypes(e.expr, schema);
  }
  if (e.kind !== 'Binary') return;
  checkOperandTypes(e.lhs, schema);
  checkOperandTypes(e.rhs, schema);
  if (!ARITHMETIC.has(e.op)) return;
  const l = leafType(e.lhs, schema);
  const r = leafType(e.rhs, schema);
  // An unsigned literal (an integer beyond int64) beside an integer field needs a cast in 1.x.
  const unsignedBesideInteger = (e.rhs.kind === 'Unsigned' && l?.name === 'integer') || (e.lhs.kind === 'Unsigned' && r?.name === 'integer');
  if (unsignedBesideInteger) {
    const text = (side: Expr, t: { text: string } | undefined): string => t?.text ?? printExpr(side);
    throw new QueryError(`type error: ${text(e.lhs, l)} ${e.op} ${text(e.rhs, r)}: cannot use ${e.op} with an integer and unsigned literal`);
  }
  const operand = (x: Expr): boolean => x.kind === 'VarRef' || x.kind === 'Call';
  if (!l || !r || (!operand(e.lhs) && !operand(e.rhs))) return;
  const bitwise = e.op === '&' || e.op === '|' || e.op === '^';
  // 1.x types a bitwise operation on a boolean as boolean whatever the right side is (its value
  // is then false: the right side is no boolean).
  if (bitwise && l.name === 'boolean') return;
  const ok = bitwise ? l.name === r.name && l.name !== 'string' && l.name !== 'float' : NUMERIC.has(l.name) && NUMERIC.has(r.name);
  if (!ok) throw new QueryError(`type error: ${l.text} ${e.op} ${r.text}: incompatible types: ${l.name} and ${r.name}`);
}
