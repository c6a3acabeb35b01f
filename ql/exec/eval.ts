/**
 * Row-level expression evaluation with 1.x semantics: arithmetic on integers stays integer
 * (int64 wrap) except `/` which is float, `x / 0` is 0, null propagates, comparisons between
 * integers and floats are numeric, regexes match strings, and unknown references are null.
 */
import type { BinaryOp, Expr } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { durationComparison } from './duration-constant.js';
import { applyMath } from './math.js';
import type { Scalar } from './value.js';

export interface RowScope {
  readonly time: bigint;
  /** Field values, tags and computed values (aggregates) by name. */
  lookup(name: string, hint: string | null): Scalar;
  /** Values of calls already computed (aggregates, transforms), by call expression identity. */
  call?(e: Expr): Scalar | undefined;
  /** A WHERE condition is being evaluated (1.x reads a bitwise operation with a null side otherwise there). */
  readonly condition?: true;
}

function isInt(v: Scalar): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

function num(v: number | bigint): number {
  return typeof v === 'bigint' ? Number(v) : v;
}

function intOp(op: BinaryOp, a: bigint, b: bigint): Scalar {
  let r: bigint;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '%':
      if (b === 0n) return 0;
      r = a % b;
      break;
    case '&':
      r = a & b;
      break;
    case '|':
      r = a | b;
      break;
    case '^':
      r = a ^ b;
      break;
    default:
      return null;
  }
  return int64(r);
}

/** An integer result as 1.x's int64 gives it: wrapped, a number while it is exact. */
function int64(r: bigint): Scalar {
  const w = BigInt.asIntN(64, r);
  return w >= -9007199254740991n && w <= 9007199254740991n ? Number(w) : w;
}

/**
 * A bitwise operation beside a boolean in a field, as 1.x evaluates it (recorded from 1.6.7): a
 * null beside a boolean counts as false, and a boolean left side with anything but a boolean on
 * the right gives false.
 */
function bitwiseBoolean(op: BinaryOp, a: Scalar, b: Scalar): Scalar {
  const l = a === null ? false : a;
  const r = b === null ? false : b;
  if (typeof l !== 'boolean') return null;
  if (typeof r !== 'boolean') return false;
  if (op === '&') return l && r;
  if (op === '|') return l || r;
  return l !== r;
}

/**
 * Arithmetic. `intTyped` tells whether each side is an integer-typed value (a float 2.0 is a
 * JS integer too, so the type comes from the schema, not from the number).
 */
export function arithmetic(op: BinaryOp, a: Scalar, b: Scalar, aInt: boolean, bInt: boolean, inCondition = false): Scalar {
  const bitwise = op === '&' || op === '|' || op === '^';
  // In a WHERE condition 1.6.7 reads a bitwise operation with a null side as false.
  if (bitwise && inCondition && (a === null || b === null)) return false;
  if (bitwise && (typeof a === 'boolean' || typeof b === 'boolean')) return bitwiseBoolean(op, a, b);
  if (a === null || b === null) return null;
  if (typeof a === 'boolean' || typeof b === 'boolean') return null;
  // 1.x has no string arithmetic (`+` included): in a WHERE it is null, so the row fails.
  if (typeof a === 'string' || typeof b === 'string') return null;
  if (aInt && bInt && isInt(a) && isInt(b) && op !== '/') return intOp(op, BigInt(a), BigInt(b));
  const x = num(a);
  const y = num(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? 0 : x / y;
    case '%':
      return y === 0 ? 0 : x % y;
    default:
      return null;
  }
}

export function compare(op: BinaryOp, a: Scalar, b: Scalar): boolean {
  if (a === null || b === null) return op === '!=' && a !== b ? false : false;
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    // Exact when both sides are integers (an unsigned literal beyond int64 stays above every int64,
    // as 1.x compares it); a fractional or non-finite number compares as floats (1.x casts the integer).
    const exact = (typeof a === 'bigint' || typeof b === 'bigint') && Number.isInteger(Number(a)) && Number.isInteger(Number(b));
    const d = exact ? Number(BigInt(a) - BigInt(b)) : Number(a) - Number(b);
    switch (op) {
      case '=':
        return d === 0;
      case '!=':
        return d !== 0;
      case '<':
        return d < 0;
      case '<=':
        return d <= 0;
      case '>':
        return d > 0;
      case '>=':
        return d >= 0;
      default:
        return false;
    }
  }
  if (typeof a === 'string' && typeof b === 'string') {
    switch (op) {
      case '=':
        return a === b;
      case '!=':
        return a !== b;
      default:
        // 1.x does not order strings: `message > 'm'` is false for every row.
        return false;
    }
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    if (op === '=') return a === b;
    if (op === '!=') return a !== b;
  }
  return false;
}

export interface EvalTypes {
  /** Whether a reference is integer-typed (field types from the schema). */
  isInteger(name: string): boolean;
}

export function evaluate(e: Expr, scope: RowScope, types: EvalTypes): Scalar {
  switch (e.kind) {
    case 'VarRef':
      // 1.x's valuer holds no `time`: only a condition's own time comparison reads it (comparand)
      return isTime(e) ? null : scope.lookup(e.name, e.type);
    case 'Integer':
    case 'Unsigned': {
      const v = e.value;
      return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
    }
    case 'Number':
      return e.value;
    case 'String':
      return e.value;
    case 'Boolean':
      return e.value;
    // 1.x's valuer has no value for a duration (nor for now(), below): `v + 1h` is null and
    // `v < 1h` false; time conditions fold their durations before (time-range.ts), and two
    // durations compare when the statement is reduced (duration-constant.ts)
    case 'Duration':
    case 'Regex':
    case 'Wildcard':
    case 'Distinct':
      return null;
    case 'Unary': {
      const v = evaluate(e.expr, scope, types);
      if (e.op === 'NOT') return typeof v === 'boolean' ? !v : null;
      // An int64 has no -0; a float 0 negated is -0, which 1.x prints as `-0`.
      if (typeof v === 'number') return v === 0 && isIntegerExpr(e.expr, types) ? 0 : -v;
      if (typeof v === 'bigint') return int64(-v); // -(-2^63) wraps to itself in Go
      return null;
    }
    case 'Call': {
      const pre = scope.call?.(e);
      if (pre !== undefined) return pre;
      if (e.args.length === 0 && e.name.toLowerCase() === 'now') return null;
      const args = e.args.map((a) => evaluate(a, scope, types));
      return applyMath(e.name.toLowerCase(), args, e.args[0] !== undefined && isIntegerExpr(e.args[0], types));
    }
    case 'Binary': {
      if (e.op === 'AND' || e.op === 'OR') {
        const l = evaluate(e.lhs, scope, types) === true;
        if (e.op === 'AND' && !l) return false;
        if (e.op === 'OR' && l) return true;
        return evaluate(e.rhs, scope, types) === true;
      }
      if (e.op === '=~' || e.op === '!~') {
        const v = evaluate(e.lhs, scope, types);
        const re = e.rhs.kind === 'Regex' ? compileRegex(e.rhs.source) : null;
        if (!re || typeof v !== 'string') return false;
        return re.test(v) === (e.op === '=~');
      }
      if (COMPARISONS.has(e.op)) {
        // (a reference or call on either side is never a duration constant: no lookup per row)
        const folded = foldable(e.lhs) && foldable(e.rhs) ? durationComparison(e) : undefined;
        if (folded !== undefined) return folded;
        const a = comparand(e.lhs, scope, types);
        const b = comparand(e.rhs, scope, types);
        // 1.x casts a nil beside a boolean to false, but only an untyped nil (a duration, null
        // arithmetic): a field without a value is a typed nil there, which compares false
        if (typeof a === 'boolean' && b === null && untypedNil(e.rhs)) return compare(e.op, a, false);
        if (typeof b === 'boolean' && a === null && untypedNil(e.lhs)) return compare(e.op, false, b);
        return compare(e.op, a, b);
      }
      const a = evaluate(e.lhs, scope, types);
      const b = evaluate(e.rhs, scope, types);
      return arithmetic(e.op, a, b, isIntegerExpr(e.lhs, types), isIntegerExpr(e.rhs, types), scope.condition === true);
    }
  }
}

const COMPARISONS: ReadonlySet<BinaryOp> = new Set<BinaryOp>(['=', '!=', '<', '<=', '>', '>=']);

function foldable(e: Expr): boolean {
  return e.kind === 'Duration' || e.kind === 'Binary' || e.kind === 'Unary';
}

function isTime(e: Expr): boolean {
  return e.kind === 'VarRef' && e.type === null && e.name.toLowerCase() === 'time';
}

/** A side of a comparison: a row's time is read only by the condition's own `time <op> ns`. */
function comparand(e: Expr, scope: RowScope, types: EvalTypes): Scalar {
  return scope.condition === true && isTime(e) ? scope.time : evaluate(e, scope, types);
}

/** Whether a null from `e` is Go's untyped nil in 1.x's valuer (not a field or call without a value). */
function untypedNil(e: Expr): boolean {
  return e.kind === 'Duration' || e.kind === 'Binary' || e.kind === 'Unary' || (e.kind === 'Call' && e.name.toLowerCase() === 'now');
}

/** Static integer typing of an expression (1.x type inference, simplified). */
export function isIntegerExpr(e: Expr, types: EvalTypes): boolean {
  switch (e.kind) {
    case 'Integer':
    case 'Unsigned':
    case 'Duration':
      return true;
    case 'VarRef':
      return types.isInteger(e.name);
    case 'Unary':
      return isIntegerExpr(e.expr, types);
    case 'Binary':
      return e.op !== '/' && isIntegerExpr(e.lhs, types) && isIntegerExpr(e.rhs, types);
    case 'Call': {
      const name = e.name.toLowerCase();
      const arg = e.args[0];
      // 1.x's abs/floor/ceil/round keep an integer argument's type (`abs(code) | 1` is an integer operation)
      if (INTEGER_KEEPING.has(name) && arg !== undefined && isIntegerExpr(arg, types)) return true;
      if (types.isInteger(callKey(e))) return true;
      // difference() and cumulative_sum() of an integer are integers, elapsed() always is: so
      // abs(difference(writes)) keeps a negative difference (the abs quirk above, math.ts)
      return name === 'elapsed' || (INTEGER_TRANSFORMS.has(name) && arg !== undefined && isIntegerExpr(arg, types));
    }
    default:
      return false;
  }
}

const INTEGER_KEEPING: ReadonlySet<string> = new Set(['abs', 'floor', 'ceil', 'round']);
const INTEGER_TRANSFORMS: ReadonlySet<string> = new Set(['difference', 'non_negative_difference', 'cumulative_sum']);

/** A stable identity for a call expression (used to look up computed call values and types). */
export function callKey(e: Expr): string {
  // Looked up per row and column: memoised per (immutable) AST node, not re-serialised.
  let key = CALL_KEYS.get(e);
  if (key === undefined) CALL_KEYS.set(e, (key = JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))));
  return key;
}
const CALL_KEYS = new WeakMap<Expr, string>();
