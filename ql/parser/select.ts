/**
 * SELECT ... INTO ... FROM ... WHERE ... GROUP BY ... fill() ORDER BY ... LIMIT/OFFSET/SLIMIT/SOFFSET TZ()
 * in 1.x clause order, plus the clauses SHOW/DELETE reuse (sources, WHERE, GROUP BY, ORDER BY, LIMIT).
 *
 * The clauses are token-level primitives (./clauses.ts) like the expressions they contain; this file
 * composes them with Parsimmon, which keeps the recursion (subqueries) and the statement structure.
 */
import P from 'parsimmon';
import type { Parser, TypedRule } from 'parsimmon';
import * as N from '../ast/nodes.js';
import type { Expr, Measurement, SortField, Source } from '../ast/nodes.js';
import {
  fieldsAt, groupByAt, intAt, measurementAt, orderByAt, primitive, selectTailAt, sourcesAt, targetAt, whereAt,
} from './clauses.js';
import type { Grammar } from './language.js';
import { expect, fatal, keyword, sym } from './lexeme.js';

/** `WHERE expr`, or null. */
export const where: Parser<Expr | null> = primitive(whereAt);
/** `GROUP BY dim, ...`, or empty. */
export const groupBy: Parser<Expr[]> = primitive(groupByAt);
/** `ORDER BY time [ASC|DESC]` / `ORDER BY ASC|DESC`, or empty. */
export const orderBy: Parser<SortField[]> = primitive(orderByAt);
/** `LIMIT n`, `OFFSET n`, ...: 0 when absent. */
export const intClause = (word: string): Parser<number> => primitive((input, i) => intAt(input, i, word));
/** One measurement (name or regex, qualified or not). */
export const measurementSource: Parser<Measurement> = primitive(measurementAt).or(fatal('identifier'));
/** Comma-separated measurements (SHOW/DELETE/DROP SERIES: no subqueries). */
export const measurementSources: Parser<Measurement[]> = primitive(sourcesAt);

export type SelectRules = Pick<TypedRule<Grammar>, 'select' | 'selectInto' | 'source'>;

function selectBody(r: P.TypedLanguage<Grammar>, requireTarget: boolean): Parser<N.SelectStatement> {
  return P.seqMap(
    primitive(fieldsAt),
    primitive((input, i) => targetAt(input, i, requireTarget)),
    expect(keyword('from'), 'FROM').then(P.sepBy1(r.source, sym(','))),
    primitive(selectTailAt),
    (fields, target, sources: Source[], tail) => N.select(fields, sources, { target, ...tail }),
  );
}

export const selectRules: SelectRules = {
  select: (r) => selectBody(r, false),
  selectInto: (r) => selectBody(r, true),
  source: (r) =>
    P.alt<Source>(
      sym('(').then(expect(keyword('select'), 'SELECT')).then(r.select).skip(expect(sym(')'), ')')).map(N.subQuery),
      measurementSource,
    ),
};
