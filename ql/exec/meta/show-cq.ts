/** SHOW CONTINUOUS QUERIES: one series per database (creation order) with `name,query`, present even without queries. */
import type { ShowContinuousQueriesStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';
import { cqCreateText } from './cq.js';

export function showContinuousQueries(_stmt: ShowContinuousQueriesStatement, ctx: QueryContext): StatementOutput {
  const catalog = ctx.engine.catalog;
  const cqs = catalog.continuousQueries();
  return output(
    catalog.databases().map((db) =>
      series(
        db.name,
        ['name', 'query'],
        cqs.filter((c) => c.database === db.name).map((c) => [c.name, cqCreateText(c)]),
      ),
    ),
  );
}
