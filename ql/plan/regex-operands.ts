/**
 * A regex bound as a parameter (`{"regex": "^a"}`) can stand wherever 1.x's parser takes an
 * operand, so it can meet arithmetic in a field. 1.x refuses that in two places (recorded from
 * 1.6.7): compiling the field, a regex beside another literal is `cannot perform a binary
 * expression on two literals` (`1 + $re`); rewriting the fields, any top-level expression that
 * holds a regex is `unsupported expression with regex field: <field>`, printed with the types
 * of its references (`mean(v::float) + /^a/`). Inside a math call (`abs(v + $re)`) it is only a
 * literal the valuer has no value for: the column is null.
 */
import type { FieldType } from '../../engine/index.js';
import type { DataType, Expr } from '../ast/nodes.js';
import { printExpr } from '../ast/print.js';
import { rewriteExpr, walkExpr } from '../ast/walk.js';
import { QueryError } from '../errors.js';
import { TYPE_NAMES } from './operand-types.js';

const LITERALS: ReadonlySet<Expr['kind']> = new Set(['Integer', 'Unsigned', 'Number', 'String', 'Boolean', 'Duration', 'Regex']);

/** Throws 1.x's compile error for a regex in arithmetic with another literal. */
export function refuseRegexBesideLiteral(e: Expr): void {
  walkExpr(e, (n) => {
    if (n.kind === 'Binary' && (n.lhs.kind === 'Regex' || n.rhs.kind === 'Regex') && LITERALS.has(n.lhs.kind) && LITERALS.has(n.rhs.kind)) {
      throw new QueryError('cannot perform a binary expression on two literals');
    }
    return true;
  });
}

/** Throws 1.x's RewriteFields error for a top-level binary field that holds a regex. */
export function refuseRegexInExpression(e: Expr, schema: { readonly fields: ReadonlyMap<string, FieldType>; readonly tags: ReadonlySet<string> }): void {
  if (e.kind !== 'Binary') return;
  let regex = false;
  walkExpr(e, (n) => {
    if (n.kind === 'Regex') regex = true;
    return !regex;
  });
  if (!regex) return;
  const typed = rewriteExpr(e, (n) => {
    if (n.kind !== 'VarRef' || n.type !== null) return n;
    const field = schema.fields.get(n.name);
    const type: DataType | undefined = field !== undefined ? TYPE_NAMES[field] : schema.tags.has(n.name) ? 'tag' : undefined;
    return type === undefined ? n : { ...n, type };
  });
  throw new QueryError(`unsupported expression with regex field: ${printExpr(typed)}`);
}
