/**
 * Tag predicates in engine terms. The query layer translates WHERE / DELETE conditions on
 * tags into a TagExpr; the engine evaluates it against a series' tags (tombstones) or turns
 * it into postings (series selection). Regexes are kept as source text so a TagExpr can be
 * persisted (tombstones) and compiled once per use.
 */
import type { Tag } from '../point.js';
import type { MeasurementIndex } from './measurement.js';
import { difference, intersect, union, unionAll } from './postings.js';
import { linearMatcher, type Matcher } from './linear-regex.js';

export type TagExpr =
  | { readonly op: 'true' }
  | { readonly op: 'false' }
  | { readonly op: 'and' | 'or'; readonly left: TagExpr; readonly right: TagExpr }
  | { readonly op: 'eq' | 'neq'; readonly key: string; readonly value: string }
  | { readonly op: 'match' | 'nmatch'; readonly key: string; readonly pattern: string; readonly flags?: string };

export const TRUE_EXPR: TagExpr = { op: 'true' };

const regexCache = new Map<string, Matcher>();
/**
 * `pattern`/`flags` are JavaScript RegExp syntax (the query layer translates RE2). A pattern
 * JS cannot compile matches nothing rather than failing the read. One that a backtracking
 * engine could take exponential time on is matched in linear time (linear-regex.ts).
 */
export function compilePattern(pattern: string, flags = ''): Matcher {
  const key = `${flags}/${pattern}`;
  let re = regexCache.get(key);
  if (!re) {
    re = linearMatcher(pattern, flags);
    if (!re) {
      try {
        re = new RegExp(pattern, flags);
      } catch {
        re = /(?!)/;
      }
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

function tagValue(tags: readonly Tag[], key: string): string {
  for (const t of tags) if (t.key === key) return t.value;
  return '';
}

/** Evaluate against one series' tags. A missing tag has the empty value, as in 1.x. */
export function matchesTags(expr: TagExpr, tags: readonly Tag[]): boolean {
  switch (expr.op) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'and':
      return matchesTags(expr.left, tags) && matchesTags(expr.right, tags);
    case 'or':
      return matchesTags(expr.left, tags) || matchesTags(expr.right, tags);
    case 'eq':
      return tagValue(tags, expr.key) === expr.value;
    case 'neq':
      return tagValue(tags, expr.key) !== expr.value;
    case 'match':
      return compilePattern(expr.pattern, expr.flags).test(tagValue(tags, expr.key));
    case 'nmatch':
      return !compilePattern(expr.pattern, expr.flags).test(tagValue(tags, expr.key));
  }
}

/** Series ids of `m` matching `expr`, sorted, from postings (no per-series evaluation). */
export function selectSeries(m: MeasurementIndex, expr: TagExpr): number[] {
  switch (expr.op) {
    case 'true':
      return m.seriesIds;
    case 'false':
      return [];
    case 'and':
      return intersect(selectSeries(m, expr.left), selectSeries(m, expr.right));
    case 'or':
      return union(selectSeries(m, expr.left), selectSeries(m, expr.right));
    case 'eq':
    case 'neq': {
      const values = m.tags.get(expr.key);
      // `k = ''` matches series without the tag.
      const hit = expr.value === '' ? difference(m.seriesIds, unionAll([...(values?.values() ?? [])])) : (values?.get(expr.value) ?? []);
      return expr.op === 'eq' ? [...hit] : difference(m.seriesIds, hit);
    }
    case 'match':
    case 'nmatch': {
      const re = compilePattern(expr.pattern, expr.flags);
      const values = m.tags.get(expr.key);
      const lists: number[][] = [];
      for (const [v, ids] of values ?? []) if (re.test(v)) lists.push(ids);
      let hit = unionAll(lists);
      if (re.test('')) hit = union(hit, difference(m.seriesIds, unionAll([...(values?.values() ?? [])])));
      return expr.op === 'match' ? hit : difference(m.seriesIds, hit);
    }
  }
}
