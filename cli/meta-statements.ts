/**
 * Interim non-SELECT statements until ql/exec/meta lands: the database DDL every client
 * needs first. Replaced by ql's full meta executor.
 */
import { CatalogError } from '../engine/index.js';
import type { MetaExecutor } from '../ql/index.js';

export const executeMetaStatement: MetaExecutor = async (stmt, ctx) => {
  switch (stmt.kind) {
    case 'CreateDatabase':
      await ctx.engine.catalog.createDatabase(stmt.name);
      return { series: [] };
    case 'DropDatabase':
      await ctx.engine.dropDatabase(stmt.name);
      return { series: [] };
    case 'ShowDatabases':
      return { series: [{ name: 'databases', columns: ['name'], values: ctx.engine.catalog.databases().map((d) => [d.name]) }] };
    default:
      throw new CatalogError(`statement not supported yet: ${stmt.kind}`);
  }
};
