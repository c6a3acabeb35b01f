/**
 * Split the (time-free) WHERE condition of one source: top-level AND conjuncts that only
 * compare tags with literals become a TagExpr for series selection from the index; every
 * other conjunct stays a row filter, evaluated per row with field values and tags.
 */
import { TRUE_EXPR, type TagExpr } from '../../engine/index.js';
import type { Expr } from '../ast/nodes.js';
import { isTag, type SchemaInfo } from './projection.js';
import { jsRegex } from '../ast/regex.js';

export interface ConditionSplit {
  readonly tags: TagExpr;
  readonly rows: Expr | null;
}

function conjuncts(e: Expr | null, out: Expr[] = []): Expr[] {
  if (!e) return out;
  if (e.kind === 'Binary' && e.op === 'AND') {
    conjuncts(e.lhs, out);
    conjuncts(e.rhs, out);
  } else out.push(e);
  return out;
}

/**
 * Whether WHERE compares `name` as a tag. 1.x's index takes every key that is not a field of
 * the measurement for a tag, also one no series has (its value is then ''): `"dc" = ''` or
 * `"cpu" != 'cpu0'` on a measurement without that tag keep every series, as Grafana's ad-hoc
 * filters, applied to every panel of a dashboard, rely on. A row filter reads such a tag, and
 * a tag a series lacks, as '' too (conditionTagValue).
 */
export function isConditionTag(name: string, hint: string | null, schema: SchemaInfo): boolean {
  if (isTag(name, hint, schema)) return true;
  // `host::field` on a tag asks for a field of that name: none, so no row matches (1.6.7)
  if (hint === 'field' && schema.tags.has(name)) return false;
  return (hint === null || hint === 'field') && !schema.fields.has(name);
}

/** The value a WHERE sees for a condition tag of a series: '' when the series lacks it (1.x). */
export function conditionTagValue(tags: Readonly<Record<string, string>>, name: string): string {
  return tags[name] ?? '';
}

/** Convert a tag-only expression; undefined when it touches anything else. */
export function toTagExpr(e: Expr, schema: SchemaInfo): TagExpr | undefined {
  if (e.kind !== 'Binary') return undefined;
  if (e.op === 'AND' || e.op === 'OR') {
    const l = toTagExpr(e.lhs, schema);
    const r = toTagExpr(e.rhs, schema);
    return l && r ? { op: e.op === 'AND' ? 'and' : 'or', left: l, right: r } : undefined;
  }
  let ref = e.lhs;
  let lit = e.rhs;
  if (ref.kind !== 'VarRef') [ref, lit] = [lit, ref];
  if (ref.kind !== 'VarRef' || !isConditionTag(ref.name, ref.type, schema)) return undefined;
  if ((e.op === '=' || e.op === '!=') && lit.kind === 'String') {
    return { op: e.op === '=' ? 'eq' : 'neq', key: ref.name, value: lit.value };
  }
  if ((e.op === '=~' || e.op === '!~') && lit.kind === 'Regex') {
    const re = jsRegex(lit.source);
    return { op: e.op === '=~' ? 'match' : 'nmatch', key: ref.name, pattern: re.source, flags: re.flags };
  }
  return undefined;
}

export function splitCondition(cond: Expr | null, schema: SchemaInfo): ConditionSplit {
  let tags: TagExpr = TRUE_EXPR;
  let rows: Expr | null = null;
  for (const c of conjuncts(cond)) {
    const t = toTagExpr(c, schema);
    if (t) tags = tags.op === 'true' ? t : { op: 'and', left: tags, right: t };
    else rows = rows ? { kind: 'Binary', op: 'AND', lhs: rows, rhs: c } : c;
  }
  return { tags, rows };
}
