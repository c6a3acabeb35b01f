/**
 * The value of a literal pair influxql.Reduce folds, for the field 1.x type-checks after it
 * (`v & (1 + 2)` is `type error: v::float & 3`). Reduce computes in Go's types: int64 and uint64
 * wrap, an integer division is a float, and a division or remainder by an integer 0 is 0 (`7 / 0`
 * prints `0.000`, `7 % 0` prints `0`), while a float remainder by 0 is math.Mod's NaN. Which pairs
 * fold, and into what, is literal-pairs.ts's table; this only computes the value.
 */
import * as N from '../ast/nodes.js';
import type { Expr } from '../ast/nodes.js';
import { rfc3339Ns } from './time-literal.js';

type Num = Expr & { kind: 'Integer' | 'Unsigned' | 'Number' };

const isNum = (e: Expr): e is Num => e.kind === 'Integer' || e.kind === 'Unsigned' || e.kind === 'Number';

/** Go's int64 (or uint64) arithmetic of a folded integer pair. */
function integerOp(op: string, l: bigint, r: bigint, wrap: (v: bigint) => bigint): bigint | number {
  switch (op) {
    case '+': return wrap(l + r);
    case '-': return wrap(l - r);
    case '*': return wrap(l * r);
    case '/': return r === 0n ? 0 : Number(l) / Number(r);
    case '%': return r === 0n ? 0n : wrap(l % r);
    case '&': return wrap(l & r);
    case '|': return wrap(l | r);
    default: return wrap(l ^ r);
  }
}

function floatOp(op: string, l: number, r: number): number {
  switch (op) {
    case '+': return l + r;
    case '-': return l - r;
    case '*': return l * r;
    case '/': return r === 0 ? 0 : l / r;
    default: return l % r; // math.Mod: the dividend's sign, NaN for a 0 divisor
  }
}

function numberPair(op: string, l: Num, r: Num): Expr {
  if (l.kind === 'Number' || r.kind === 'Number') return N.number(floatOp(op, Number(l.value), Number(r.value)));
  const unsigned = l.kind === 'Unsigned' || r.kind === 'Unsigned';
  const v = integerOp(op, l.value, r.value, unsigned ? (x) => BigInt.asUintN(64, x) : (x) => BigInt.asIntN(64, x));
  if (typeof v === 'number') return N.number(v);
  return unsigned ? N.unsigned(v) : N.integer(v);
}

/** A duration (or two time strings' difference) scaled or summed as Reduce does, in time.Duration. */
function durationPair(op: string, l: Expr, r: Expr): Expr | undefined {
  const ns = (e: Expr): bigint | undefined => (e.kind === 'Duration' ? e.ns : e.kind === 'String' ? rfc3339Ns(e.value) : undefined);
  const a = ns(l);
  if (a === undefined) return undefined;
  // time.Duration(x) of a float truncates it first: `2h * 1.5` is 2h
  const factor = r.kind === 'Integer' ? r.value : r.kind === 'Number' && Number.isFinite(r.value) ? BigInt(Math.trunc(r.value)) : undefined;
  if (factor !== undefined && (op === '*' || op === '/')) {
    if (op === '*') return N.duration(BigInt.asIntN(64, a * factor));
    return factor === 0n ? undefined : N.duration(a / factor);
  }
  const b = ns(r);
  if (b === undefined) return undefined;
  return N.duration(op === '+' ? a + b : a - b);
}

/**
 * The literal `l op r` folds into, for a pair literal-pairs.ts found folding into an integer,
 * unsigned, float, boolean or duration; undefined where its value is not computed here.
 */
export function foldValue(op: string, l: Expr, r: Expr): Expr | undefined {
  if (isNum(l) && isNum(r)) return numberPair(op, l, r);
  if (l.kind === 'Boolean' && r.kind === 'Boolean') return N.boolean(op === '&' ? l.value && r.value : op === '|' ? l.value || r.value : l.value !== r.value);
  return durationPair(op, l, r);
}
