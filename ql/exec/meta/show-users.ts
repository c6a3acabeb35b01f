/** SHOW USERS: `user,admin`, creation order, the columns even without users. */
import type { ShowUsersStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';

export function showUsers(_stmt: ShowUsersStatement, ctx: QueryContext): StatementOutput {
  const rows = ctx.engine.catalog.users().map((u) => [u.name, u.admin]);
  return output([series(undefined, ['user', 'admin'], rows)]);
}
