/**
 * The grammar: one typed `P.createLanguage<Grammar>()` for the recursive rules (expressions,
 * SELECT, sources) and the statement dispatch on the first keyword(s), in influxql's parse-tree
 * order so that "expected ..." lists read exactly as 1.x prints them. Strata's additions
 * (MATERIALIZED VIEW) are dispatched too but left out of those lists.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import type { Expr, SelectStatement, Source } from '../ast/nodes.js';
import type { Statement } from '../ast/statements.js';
import * as D from './ddl.js';
import { expr } from './expr.js';
import { dispatch, expect, ident, keyword, opt } from './lexeme.js';
import { selectRules } from './select.js';
import { show } from './show.js';
import * as U from './user.js';

/** Rule name → the type it parses. */
export interface Grammar {
  /** A full expression (binary operators folded by precedence; see ./expr.ts). */
  expr: Expr;
  /** SELECT body after the SELECT keyword; INTO optional. */
  select: SelectStatement;
  /** SELECT body with INTO required (continuous queries, materialized views). */
  selectInto: SelectStatement;
  /** One FROM source of a SELECT (measurement, regex or subquery). */
  source: Source;
  /** One statement. */
  statement: Statement;
}

export const language = P.createLanguage<Grammar>({
  expr: () => expr,
  ...selectRules,
  statement: (r) => statementTable(r),
});

function statementTable(r: P.TypedLanguage<Grammar>): Parser<Statement> {
  const explain = P.seqMap(
    opt(keyword('analyze')),
    opt(keyword('verbose')),
    expect(keyword('select'), 'SELECT').then(r.select),
    (analyze, verbose, statement): Statement => ({ kind: 'Explain', analyze: analyze !== null, verbose: verbose !== null, statement }),
  );
  const killQuery = P.seqMap(D.uint64Arg, opt(keyword('on').then(expect(ident, 'identifier'))), (queryId, host): Statement => ({
    kind: 'KillQuery', queryId, host: host ?? '',
  }));
  return dispatch<Statement>([
    ['select', r.select],
    ['delete', D.deleteStatement],
    ['show', show],
    ['create', dispatch<Statement>([
      ['continuous', dispatch<Statement>([['query', D.createContinuousQuery(r)]])],
      ['database', D.createDatabase],
      ['user', U.createUser],
      ['retention', dispatch<Statement>([['policy', D.createRetentionPolicy]])],
      ['subscription', D.createSubscription],
      ['materialized', D.createMaterializedView(r), 'hidden'],
    ])],
    ['drop', dispatch<Statement>([
      ['continuous', dispatch<Statement>([['query', D.dropContinuousQuery]])],
      ['database', D.dropDatabase],
      ['measurement', D.dropMeasurement],
      ['retention', dispatch<Statement>([['policy', D.dropRetentionPolicy]])],
      ['series', D.dropSeries],
      ['shard', D.dropShard],
      ['subscription', D.dropSubscription],
      ['user', U.dropUser],
      ['materialized', D.dropMaterializedView, 'hidden'],
    ])],
    ['explain', explain],
    ['grant', U.grant],
    ['revoke', U.revoke],
    ['alter', dispatch<Statement>([['retention', dispatch<Statement>([['policy', D.alterRetentionPolicy]])]])],
    ['set', dispatch<Statement>([['password', dispatch<Statement>([['for', U.setPassword]])]])],
    ['kill', dispatch<Statement>([['query', killQuery]])],
  ]);
}
