/**
 * The value of arithmetic in a time condition (`time > now() - 1h`), folded as 1.x's reduce
 * folds literals. Only some pairs fold; any other sum stays a BinaryExpr, which no time
 * comparison takes. Measured against 1.6.7 (T a time: now() or a string that parses as one,
 * D a duration, I an integer, N a float, X another string):
 *   +  T+D T+I D+T D+D I+T I+D I+I I+N N+I N+N → folded; a string plus a string concatenates
 *      into a string no comparison reads as a time (`now() + '...'` is not folded);
 *   -  T-T T-D T-I D-D I-D I-I I-N N-I N-N → folded (T-T is a duration);
 *   * / D*I D*N I*I I*N N*I N*N (and the same with /) → folded, a duration times a float
 *      truncates the float first (Go's time.Duration(f));
 * everything else (T+N, T-N, D+I, D-T, I-T, X with anything but +, ...) is refused.
 */
import type { Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';

type Folded =
  | { readonly kind: 'time' | 'duration' | 'integer'; readonly ns: bigint }
  | { readonly kind: 'number'; readonly value: number }
  /** A string: a time when it parses (`ns`), text otherwise. */
  | { readonly kind: 'string'; readonly text: string; readonly ns: bigint | undefined };

export const UNREDUCED = 'invalid operation: time and *influxql.BinaryExpr are not compatible';

export interface TimeLeaves {
  readonly nowNs: bigint;
  /** A string's time, undefined when it is none. */
  parse(text: string): bigint | undefined;
}

const unreduced = (): never => {
  throw new QueryError(UNREDUCED);
};

function leaf(e: Expr, env: TimeLeaves): Folded {
  switch (e.kind) {
    case 'String':
      return { kind: 'string', text: e.value, ns: env.parse(e.value) };
    case 'Duration':
      return { kind: 'duration', ns: e.ns };
    case 'Integer':
    case 'Unsigned':
      return { kind: 'integer', ns: e.value };
    case 'Number':
      return { kind: 'number', value: e.value };
    case 'Call':
      return e.name.toLowerCase() === 'now' && e.args.length === 0 ? { kind: 'time', ns: env.nowNs } : unreduced();
    case 'Unary': {
      // 1.x reads `-x` of anything but a number as `-1 * x`, which no time comparison takes.
      if (e.op !== '-') return unreduced();
      const inner = e.expr;
      if (inner.kind === 'Number') return { kind: 'number', value: -inner.value };
      if (inner.kind === 'Integer' || inner.kind === 'Unsigned') return { kind: 'integer', ns: -inner.value };
      if (inner.kind === 'Duration') return { kind: 'duration', ns: -inner.ns };
      return unreduced();
    }
    case 'Binary':
      return fold(e.op, leaf(e.lhs, env), leaf(e.rhs, env));
    default:
      return unreduced();
  }
}

/** T (a time or a time string), X (another string), or the literal's own kind. */
function sort(f: Folded): 'T' | 'X' | 'D' | 'I' | 'N' {
  if (f.kind === 'time') return 'T';
  if (f.kind === 'string') return f.ns === undefined ? 'X' : 'T';
  return f.kind === 'duration' ? 'D' : f.kind === 'integer' ? 'I' : 'N';
}

const nsOf = (f: Folded): bigint => (f.kind === 'number' ? BigInt(Math.trunc(f.value)) : f.kind === 'string' ? f.ns ?? 0n : f.ns);
const numOf = (f: Folded): number => (f.kind === 'number' ? f.value : Number(nsOf(f)));

function fold(op: string, l: Folded, r: Folded): Folded {
  // a concatenation stays a string literal, never read as a time (even when it parses as one)
  if (op === '+' && l.kind === 'string' && r.kind === 'string') return { kind: 'string', text: l.text + r.text, ns: undefined };
  const pair = sort(l) + op + sort(r);
  const a = nsOf(l);
  const b = nsOf(r);
  switch (pair) {
    case 'T+D': case 'T+I': case 'D+T': case 'I+T': case 'T-D': case 'T-I':
      return { kind: 'time', ns: op === '+' ? a + b : a - b };
    case 'T-T':
      return { kind: 'duration', ns: a - b };
    case 'D+D': case 'D-D': case 'I+D':
      return { kind: 'duration', ns: op === '+' ? a + b : a - b };
    case 'I-D': case 'I+I': case 'I-I':
      return { kind: 'integer', ns: op === '+' ? a + b : a - b };
    case 'I*I':
      return { kind: 'integer', ns: a * b };
    case 'I/I': case 'I+N': case 'I-N': case 'I*N': case 'I/N': case 'N+I': case 'N-I': case 'N*I': case 'N/I':
    case 'N+N': case 'N-N': case 'N*N': case 'N/N':
      return { kind: 'number', value: arithmetic(op, numOf(l), numOf(r)) };
    case 'D*I': case 'D*N':
      return { kind: 'duration', ns: a * b };
    case 'D/I': case 'D/N':
      return { kind: 'duration', ns: b === 0n ? 0n : a / b };
    default:
      return unreduced();
  }
}

function arithmetic(op: string, x: number, y: number): number {
  if (op === '+') return x + y;
  if (op === '-') return x - y;
  if (op === '*') return x * y;
  return y === 0 ? 0 : x / y;
}

/**
 * The nanoseconds a folded sum stands for in a time comparison; a string that is no time is
 * 1.x's StringLiteral error.
 */
export function timeSumNs(e: Expr, env: TimeLeaves): bigint {
  const f = leaf(e, env);
  if (f.kind === 'string' && f.ns === undefined) throw new QueryError('invalid operation: time and *influxql.StringLiteral are not compatible');
  return nsOf(f);
}
