/**
 * `time` inside a field expression under fill(N) reads N, in every row (`max(v) + time ...
 * fill(1)` is max + 1, `v + time ... fill(1)` is v + 1; influxd 1.6.7).
 *
 * 1.x's valueMapper makes the `time` reference an auxiliary key of the iterator scanner like any
 * other name, no iterator ever sends a value for it, and NewIteratorScanner gives every key
 * without a value the statement's fill value: N under fill(N) (an integer written stays an int64),
 * nil under fill(null), none and linear, and SkipDefault (read as nil) under fill(previous). So
 * only fill(N) changes the reference, which is otherwise null (eval.ts), and the time column
 * itself (a bare `time` field) is not an expression reading it.
 */
import type { Expr, FillOption } from '../ast/nodes.js';
import { rewriteExpr } from '../ast/walk.js';
import type { Column } from '../plan/projection.js';

const isTimeRef = (e: Expr): boolean => e.kind === 'VarRef' && e.type === null && e.name.toLowerCase() === 'time';

/** The columns with every `time` reference in their expressions read as fill(N)'s value. */
export function timeReadsFillValue(columns: readonly Column[], fill: FillOption): readonly Column[] {
  if (fill.mode !== 'number') return columns;
  const value: Expr = typeof fill.value === 'bigint' ? { kind: 'Integer', value: fill.value } : { kind: 'Number', value: fill.value };
  return columns.map((c) => {
    if (isTimeRef(c.expr)) return c;
    const expr = rewriteExpr(c.expr, (e) => (isTimeRef(e) ? value : e));
    return expr === c.expr ? c : { ...c, expr };
  });
}
