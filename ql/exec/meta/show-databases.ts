/** SHOW DATABASES: series `databases`, column `name`, creation order; non-admin users see their granted databases. */
import type { ShowDatabasesStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';

export function showDatabases(_stmt: ShowDatabasesStatement, ctx: QueryContext): StatementOutput {
  const catalog = ctx.engine.catalog;
  let names = catalog.databases().map((d) => d.name);
  const user = ctx.user;
  if (user && !user.admin) {
    const privileges = catalog.user(user.name)?.privileges ?? {};
    names = names.filter((n) => privileges[n] !== undefined && privileges[n] !== 'NONE');
  }
  return output([series('databases', ['name'], names.map((n) => [n]))]);
}
