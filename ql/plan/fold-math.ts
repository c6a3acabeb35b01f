/**
 * 1.x reduces a math call whose arguments are all literals to its value before it names the
 * columns and checks the fields (query.Compile reduces them with its math valuer): `exp(2) + x`
 * is the column `x`, and `SELECT abs(-1)` or `exp(1)` beside a field is "field must contain at
 * least one variable". A NaN result stays a NaN literal (the row's value is then null).
 */
import * as N from '../ast/nodes.js';
import type { Expr } from '../ast/nodes.js';
import { applyMath } from '../exec/math.js';
import { isMath } from './functions.js';

export function foldConstantMath(e: Expr): Expr {
  switch (e.kind) {
    case 'Binary': {
      const lhs = foldConstantMath(e.lhs);
      const rhs = foldConstantMath(e.rhs);
      return lhs === e.lhs && rhs === e.rhs ? e : N.binary(e.op, lhs, rhs);
    }
    case 'Unary': {
      const inner = foldConstantMath(e.expr);
      return inner === e.expr ? e : N.unary(e.op, inner);
    }
    case 'Call': {
      const args = e.args.map(foldConstantMath);
      const name = e.name.toLowerCase();
      if (isMath(name) && args.length > 0 && args.every((a) => a.kind === 'Number' || a.kind === 'Integer')) {
        try {
          const v = applyMath(name, args.map((a) => (a.kind === 'Number' || a.kind === 'Integer' ? a.value : null)));
          return typeof v === 'bigint' ? N.integer(v) : N.number(typeof v === 'number' ? v : Number.NaN);
        } catch {
          return e; // a wrong argument count: the call's own check reports it
        }
      }
      return args.every((a, i) => a === e.args[i]) ? e : N.call(e.name, args);
    }
    default:
      return e;
  }
}
