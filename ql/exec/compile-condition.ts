/**
 * A row condition compiled to a closure over one row's condition values, for the shapes the
 * condition-first path meets most: comparisons of field references, tags and literals,
 * combined with AND/OR (`usage_user > 90.0`, `a > 1 AND b <= 2`). It answers exactly
 * `evaluate(e, scope) === true` (same compare(), same short-circuit) without walking the AST
 * per row. Any other shape gives undefined and the caller keeps the interpreter.
 */
import type { Expr } from '../ast/nodes.js';
import { compare, evaluate, type EvalTypes } from './eval.js';
import type { Scalar } from './value.js';

/** Where a reference comes from: a slot of the condition values, or a value fixed for the series. */
export type Resolve = (name: string, hint: string | null) => { readonly slot: number } | { readonly value: Scalar };

type Values = readonly Scalar[];

const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);
const NO_ROW = { time: 0n, lookup: () => null };

function compileValue(e: Expr, resolve: Resolve, types: EvalTypes): ((v: Values) => Scalar) | undefined {
  switch (e.kind) {
    case 'VarRef': {
      if (e.name.toLowerCase() === 'time' && e.type === null) return undefined;
      const r = resolve(e.name, e.type);
      if ('value' in r) return () => r.value;
      const k = r.slot;
      return (v) => v[k] ?? null;
    }
    case 'Integer':
    case 'Unsigned':
    case 'Number':
    case 'String':
    case 'Boolean': {
      const c = evaluate(e, NO_ROW, types);
      return () => c;
    }
    default:
      return undefined;
  }
}

export function compileCondition(e: Expr, resolve: Resolve, types: EvalTypes): ((v: Values) => boolean) | undefined {
  if (e.kind !== 'Binary') return undefined;
  if (e.op === 'AND' || e.op === 'OR') {
    const l = compileCondition(e.lhs, resolve, types);
    const r = compileCondition(e.rhs, resolve, types);
    if (!l || !r) return undefined;
    return e.op === 'AND' ? (v) => l(v) && r(v) : (v) => l(v) || r(v);
  }
  if (!COMPARISONS.has(e.op)) return undefined;
  const a = compileValue(e.lhs, resolve, types);
  const b = compileValue(e.rhs, resolve, types);
  if (!a || !b) return undefined;
  const op = e.op;
  return (v) => compare(op, a(v), b(v));
}
