/**
 * SHOW MATERIALIZED VIEWS [ON db] (Strata; no 1.x counterpart): shaped like SHOW CONTINUOUS
 * QUERIES, one series per database with `name,query,target`.
 */
import type { ShowMaterializedViewsStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, requireDatabase, series } from './common.js';

export function showMaterializedViews(stmt: ShowMaterializedViewsStatement, ctx: QueryContext): StatementOutput {
  const catalog = ctx.engine.catalog;
  const dbs = stmt.database ? [requireDatabase(ctx, stmt.database)] : catalog.databases();
  const views = catalog.materializedViews();
  return output(
    dbs.map((db) =>
      series(
        db.name,
        ['name', 'query', 'target'],
        views.filter((v) => v.database === db.name).map((v) => [v.name, v.queryText, v.target]),
      ),
    ),
  );
}
