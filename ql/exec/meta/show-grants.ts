/**
 * SHOW GRANTS FOR user (`database,privilege` with the 1.x names READ, WRITE, ALL PRIVILEGES;
 * the columns even without grants). Without FOR: the requesting user.
 */
import type { Privilege } from '../../../engine/index.js';
import type { ShowGrantsStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';
import { userNotFound } from './errors.js';

export const PRIVILEGE_NAMES: Readonly<Record<Privilege, string>> = { READ: 'READ', WRITE: 'WRITE', ALL: 'ALL PRIVILEGES', NONE: 'NO PRIVILEGES' };

export function showGrants(stmt: ShowGrantsStatement, ctx: QueryContext): StatementOutput {
  const name = stmt.user || ctx.user?.name || '';
  const user = ctx.engine.catalog.user(name);
  if (!user) throw userNotFound();
  const rows = Object.entries(user.privileges).map(([db, p]) => [db, PRIVILEGE_NAMES[p]]);
  return output([series(undefined, ['database', 'privilege'], rows)]);
}
