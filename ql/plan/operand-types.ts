/**
 * 1.x's compile-time checks of SELECT fields that hold no data to read or that combine
 * incompatible operands: `SELECT 1 + 1` ("field must contain at least one variable"),
 * `usage_user + 'x'` or `ok + 1` ("type error: usage_user::float + 'x': incompatible types:
 * float and string"). As influxql's TypeValuerEval, every binary expression of the (reduced) field
 * is typed, bottom up: a side of unknown type (a duration, a time, a field no source has, a call
 * 1.x cannot type) gives the other side's type, two known types give the type Go's evaluator
 * returns for their zero values, and no type at all is the error, printed with the whole binary
 * expression (`type error: v::float + 2 + 'x'`). A tag is typed `tag`, which no operator takes.
 */
import { FieldType } from '../../engine/index.js';
import type { DataType, Expr } from '../ast/nodes.js';
import * as N from '../ast/nodes.js';
import { printAs1x, printExpr } from '../ast/print.js';
import { QueryError } from '../errors.js';
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
const FIXED_CALL_TYPES: Readonly<Record<string, DataType>> = {
  mean: 'float', median: 'float', stddev: 'float', integral: 'float', derivative: 'float', non_negative_derivative: 'float',
  moving_average: 'float', count: 'integer', elapsed: 'integer',
};
/** Calls of the type of their first argument; for the math functions too, in 1.x's type check (`sqrt(code::integer)` is integer there). */
const ARGUMENT_TYPED_CALLS: ReadonlySet<string> = new Set([
  'sum', 'min', 'max', 'first', 'last', 'mode', 'spread', 'difference', 'non_negative_difference', 'cumulative_sum', 'percentile', 'top', 'bottom', 'sample', 'distinct',
  'abs', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'exp', 'log', 'ln', 'log2', 'log10', 'sqrt', 'pow', 'floor', 'ceil', 'round',
]);

/** A type name of 1.x (`float`, `tag`, ...), or undefined for its Unknown. */
type TypeName = DataType | undefined;

function refType(e: Expr & { kind: 'VarRef' }, schema: OperandSchema): TypeName {
  const field = e.type === 'tag' ? undefined : schema.fields.get(e.name);
  return field !== undefined ? TYPE_NAMES[field] : e.type !== 'field' && schema.tags.has(e.name) ? 'tag' : undefined;
}

/** The type Go's evaluator gives `l op r` for two zero values of these types; undefined where it gives nil. */
function arithmeticType(op: string, l: DataType, r: DataType): TypeName {
  const bitwise = op === '&' || op === '|' || op === '^';
  switch (l) {
    case 'boolean':
      // a bitwise operation on a boolean is boolean whatever the right side is (its value false)
      return bitwise ? 'boolean' : undefined;
    case 'float':
      return !bitwise && NUMERIC.has(r) ? 'float' : undefined;
    case 'integer':
    case 'unsigned':
      if (r === 'float') return bitwise ? undefined : 'float';
      // with no integer-float division in the type check, `i / i` stays an integer
      if (r === 'integer' || r === 'unsigned') return l === 'unsigned' || r === 'unsigned' ? 'unsigned' : 'integer';
      return undefined;
    default:
      return undefined; // strings and tags take no arithmetic
  }
}

/** The field with the types 1.x prints in a type error: `v::float`, `-1 * x`, floats as `1.500`. */
function annotated(e: Expr, schema: OperandSchema): Expr {
  switch (e.kind) {
    case 'VarRef': {
      const type = refType(e, schema);
      return type === undefined ? e : N.varRef(e.name, type);
    }
    case 'Call':
      return { ...e, args: e.args.map((a) => annotated(a, schema)) };
    case 'Binary':
      return { ...e, lhs: annotated(e.lhs, schema), rhs: annotated(e.rhs, schema) };
    case 'Unary':
      return e.op === '-' ? N.binary('*', N.integer(-1n), annotated(e.expr, schema)) : { ...e, expr: annotated(e.expr, schema) };
    default:
      return e;
  }
}

function typeError(e: Expr, schema: OperandSchema, message: string): QueryError {
  return new QueryError(`type error: ${printAs1x(() => printExpr(annotated(e, schema)))}: ${message}`);
}

/** 1.x's type of `e`, throwing its type error for a binary expression of incompatible sides. */
function typeOf(e: Expr, schema: OperandSchema): TypeName {
  switch (e.kind) {
    case 'VarRef':
      return refType(e, schema);
    case 'Call': {
      // every argument is typed first, so an error inside one comes first
      const args = e.args.map((a) => typeOf(a, schema));
      const name = e.name.toLowerCase();
      return FIXED_CALL_TYPES[name] ?? (ARGUMENT_TYPED_CALLS.has(name) ? args[0] : undefined);
    }
    case 'String': return 'string';
    case 'Boolean': return 'boolean';
    case 'Integer': return 'integer';
    case 'Unsigned': return 'unsigned';
    case 'Number': return 'float';
    case 'Unary':
      // 1.x parses `-x` as `-1 * x`
      return e.op === '-' ? binaryType(N.binary('*', N.integer(-1n), e.expr), e, schema) : undefined;
    case 'Binary':
      return binaryType(e, e, schema);
    default:
      return undefined; // durations, regexes, wildcards
  }
}

/** The type of `e` (a binary expression), whose errors print `shown` (the unary `-x` as `-1 * x`). */
function binaryType(e: Expr & { kind: 'Binary' }, shown: Expr, schema: OperandSchema): TypeName {
  // a pair left after reduction folds into a time (literal-pairs.ts): unknown
  if (LITERAL_KINDS.has(e.lhs.kind) && LITERAL_KINDS.has(e.rhs.kind)) return undefined;
  const l = typeOf(e.lhs, schema);
  const r = typeOf(e.rhs, schema);
  if (!ARITHMETIC.has(e.op)) return undefined;
  // An unsigned literal beside an integer needs a cast in 1.x (a Strata-only case: 1.6.7 has no
  // unsigned fields, so two unsigned and integer variables are left without its cast error).
  if ((e.rhs.kind === 'Unsigned' && l === 'integer') || (e.lhs.kind === 'Unsigned' && r === 'integer')) {
    throw typeError(shown, schema, `cannot use ${e.op} with an integer and unsigned literal`);
  }
  if (l === undefined || r === undefined) return l ?? r;
  const type = arithmeticType(e.op, l, r);
  if (type === undefined) throw typeError(shown, schema, `incompatible types: ${l} and ${r}`);
  return type;
}

const LITERAL_KINDS: ReadonlySet<string> = new Set(['Integer', 'Unsigned', 'Number', 'String', 'Boolean', 'Duration', 'Regex']);
const NUMERIC: ReadonlySet<DataType> = new Set(['float', 'integer', 'unsigned']);

/** Throw 1.x's type error for arithmetic between incompatible operands of a field reduceLiteralPairs() reduced. */
export function checkOperandTypes(e: Expr, schema: OperandSchema): void {
  typeOf(e, schema);
}
