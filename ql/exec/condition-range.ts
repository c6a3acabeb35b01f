/**
 * Whether a row condition on ONE field can hold anywhere in a batch, from the batch's min and
 * max alone (block statistics, cursor.ts): `usage_user > 90.0` cannot hold in a block whose max
 * is 90, so the condition-first reader skips that block without decoding it. The answer is
 * "false" only when no value in [min, max] can satisfy the condition; any shape it does not
 * understand (other fields, tags, arithmetic, NOT, strings) counts as "may hold".
 */
import type { Expr } from '../ast/nodes.js';
import { evaluate, type EvalTypes } from './eval.js';

export type RangeCheck = (min: number, max: number) => boolean;

const MAY_HOLD: RangeCheck = () => true;
const NO_ROW = { time: 0n, lookup: () => null };
const FLIPPED: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=' };

/** A numeric literal's value, or undefined. */
function literal(e: Expr, types: EvalTypes): number | undefined {
  if (e.kind !== 'Integer' && e.kind !== 'Number') return undefined;
  const v = evaluate(e, NO_ROW, types);
  if (typeof v === 'number') return v;
  return typeof v === 'bigint' && v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : undefined;
}

function compile(e: Expr, isField: (ref: Expr) => boolean, types: EvalTypes): RangeCheck {
  if (e.kind !== 'Binary') return MAY_HOLD;
  if (e.op === 'AND' || e.op === 'OR') {
    const l = compile(e.lhs, isField, types);
    const r = compile(e.rhs, isField, types);
    if (l === MAY_HOLD) return e.op === 'AND' ? r : MAY_HOLD;
    if (r === MAY_HOLD) return e.op === 'AND' ? l : MAY_HOLD;
    return e.op === 'AND' ? (lo, hi) => l(lo, hi) && r(lo, hi) : (lo, hi) => l(lo, hi) || r(lo, hi);
  }
  let op: string = e.op;
  let c = isField(e.lhs) ? literal(e.rhs, types) : undefined;
  if (c === undefined && isField(e.rhs)) {
    c = literal(e.lhs, types);
    op = FLIPPED[op] ?? '';
  }
  if (c === undefined) return MAY_HOLD;
  const k = c;
  switch (op) {
    case '>':
      return (_lo, hi) => hi > k;
    case '>=':
      return (_lo, hi) => hi >= k;
    case '<':
      return (lo) => lo < k;
    case '<=':
      return (lo) => lo <= k;
    case '=':
      return (lo, hi) => lo <= k && k <= hi;
    default:
      return MAY_HOLD;
  }
}

/**
 * The range check of `e` for the field `isField` recognises, or undefined when it would never
 * rule a batch out. NaN bounds (a float block holding NaN) always may hold.
 */
export function rangeCheck(e: Expr, isField: (ref: Expr) => boolean, types: EvalTypes): RangeCheck | undefined {
  const check = compile(e, isField, types);
  if (check === MAY_HOLD) return undefined;
  return (lo, hi) => Number.isNaN(lo) || Number.isNaN(hi) || check(lo, hi);
}
