/**
 * CREATE / DROP MATERIALIZED VIEW: definitions in the catalog (view maintenance is not here).
 * `queryText` is the fully qualified SELECT ... INTO, `target` its qualified INTO measurement.
 * The parser's WITH BACKFILL flag has no catalog field yet, so it is not stored.
 */
import type { MaterializedViewInfo } from '../../../engine/index.js';
import { printSelect } from '../../ast/print.js';
import type { CreateMaterializedViewStatement, DropMaterializedViewStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { requireDatabase } from './common.js';
import { MetaError } from './errors.js';
import { qualifySelect, targetText } from './qualify.js';

export async function createMaterializedView(stmt: CreateMaterializedViewStatement, ctx: QueryContext): Promise<StatementOutput> {
  requireDatabase(ctx, stmt.database);
  const source = qualifySelect(ctx, stmt.source, stmt.database);
  if (!source.target) throw new MetaError('materialized view requires SELECT ... INTO', 'mv_invalid');
  const info: MaterializedViewInfo = {
    name: stmt.name,
    database: stmt.database,
    queryText: printSelect(source),
    target: targetText(source.target),
    createdAt: new Date(Number(ctx.nowNs / 1_000_000n)).toISOString(),
  };
  await ctx.engine.catalog.createMaterializedView(info);
  return EMPTY_OUTPUT;
}

export async function dropMaterializedView(stmt: DropMaterializedViewStatement, ctx: QueryContext): Promise<StatementOutput> {
  await ctx.engine.catalog.dropMaterializedView(stmt.database, stmt.name);
  return EMPTY_OUTPUT;
}
