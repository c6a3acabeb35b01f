/**
 * 1.x reduces a math call whose arguments are all literals to its value before it names the
 * columns and checks the fields (query.Compile reduces them with its math valuer): `exp(2) + x`
 * is the column `x`, and `SELECT abs(-1)` or `exp(1)` beside a field is "field must contain at
 * least one variable". A NaN result stays a NaN literal (the row's value is then null).
 */
import * as N from '../ast/nodes.js';
import type { Expr } from '../ast/nodes.js';
import { rewriteExpr } from '../ast/walk.js';
import { applyMath } from '../exec/math.js';
import { isMath } from './functions.js';

export function foldConstantMath(e: Expr): Expr {
  return rewriteExpr(e, foldCall);
}

/** A math call whose arguments (already folded) are all numbers, as its value; any other node as it is. */
function foldCall(e: Expr): Expr {
  if (e.kind !== 'Call') return e;
  const name = e.name.toLowerCase();
  if (!isMath(name) || e.args.length === 0 || !e.args.every((a) => a.kind === 'Number' || a.kind === 'Integer')) return e;
  try {
    const v = applyMath(name, e.args.map((a) => (a.kind === 'Number' || a.kind === 'Integer' ? a.value : null)));
    return typeof v === 'bigint' ? N.integer(v) : N.number(typeof v === 'number' ? v : Number.NaN);
  } catch {
    return e; // a wrong argument count: the call's own check reports it
  }
}
