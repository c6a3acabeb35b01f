/**
 * A row condition as one series sees it: tag comparisons decided by the series' tags and
 * folded through AND/OR, as 1.x reduces each series' filter before opening cursors. EXPLAIN
 * counts cursors for the fields that remain (`host = 'a' OR v > 1` reads `v` for every series
 * but host=a's).
 */
import type { Expr } from '../../ast/nodes.js';
import { compileRegex } from '../../ast/regex.js';
import { isTag, type SchemaInfo } from '../../plan/projection.js';

type Reduced = Expr | boolean;

function tagCompare(e: Expr & { kind: 'Binary' }, tags: Readonly<Record<string, string>>, schema: SchemaInfo): boolean | undefined {
  const [ref, lit] = e.lhs.kind === 'VarRef' ? [e.lhs, e.rhs] : [e.rhs, e.lhs];
  if (ref.kind !== 'VarRef' || !isTag(ref.name, ref.type, schema)) return undefined;
  const value = tags[ref.name] ?? '';
  if (lit.kind === 'String' && (e.op === '=' || e.op === '!=')) return (value === lit.value) === (e.op === '=');
  if (lit.kind === 'Regex' && (e.op === '=~' || e.op === '!~')) return compileRegex(lit.source).test(value) === (e.op === '=~');
  return undefined;
}

export function reduceForSeries(e: Expr, tags: Readonly<Record<string, string>>, schema: SchemaInfo): Reduced {
  if (e.kind !== 'Binary') return e;
  if (e.op === 'AND' || e.op === 'OR') {
    const l = reduceForSeries(e.lhs, tags, schema);
    const r = reduceForSeries(e.rhs, tags, schema);
    const and = e.op === 'AND';
    if (typeof l === 'boolean') return l === and ? r : l;
    if (typeof r === 'boolean') return r === and ? l : r;
    return { ...e, lhs: l, rhs: r };
  }
  return tagCompare(e, tags, schema) ?? e;
}
