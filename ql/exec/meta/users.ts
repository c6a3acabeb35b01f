/**
 * User statements: CREATE USER, DROP USER, SET PASSWORD, GRANT, REVOKE (1.x semantics and texts).
 * - CREATE USER of an existing user succeeds when password and admin flag are the same, else
 *   `user already exists`; an empty name is `username required`.
 * - GRANT ALL [PRIVILEGES] TO u makes u admin, REVOKE ALL PRIVILEGES FROM u removes it.
 * - GRANT sets the database privilege (READ then WRITE leaves WRITE, as 1.x); REVOKE clears
 *   bits (ALL - WRITE = READ, WRITE - READ = WRITE); revoking the last bit keeps the entry as
 *   NONE, which SHOW GRANTS lists as `NO PRIVILEGES` like 1.x. REVOKE on a database the
 *   user holds nothing on also stores NONE, and on a missing database is `database not found`
 *   (1.x sets the revoked privilege's remainder whatever was there before).
 * Passwords go only to the hasher (ctx.hashPassword, else argon2id here).
 */
import type { Privilege } from '../../../engine/index.js';
import type { CreateUserStatement, DropUserStatement, GrantStatement, RevokeStatement, SetPasswordStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { requireDatabase } from './common.js';
import { MetaError, userNotFound } from './errors.js';
import { hashPasswordArgon2id, verifyPassword } from './password.js';

const BITS: Readonly<Record<Privilege, number>> = { NONE: 0, READ: 1, WRITE: 2, ALL: 3 };
const FROM_BITS: readonly Privilege[] = ['NONE', 'READ', 'WRITE', 'ALL'];

function hasher(ctx: QueryContext): (password: string) => Promise<string> {
  return ctx.hashPassword ?? hashPasswordArgon2id;
}

export async function createUser(stmt: CreateUserStatement, ctx: QueryContext): Promise<StatementOutput> {
  if (!stmt.name) throw new MetaError('username required', 'username_required');
  const catalog = ctx.engine.catalog;
  const existing = catalog.user(stmt.name);
  if (existing) {
    if (existing.admin === stmt.admin && (await verifyPassword(existing.hash, stmt.password))) return EMPTY_OUTPUT;
    throw new MetaError('user already exists', 'user_exists');
  }
  await catalog.createUser(stmt.name, await hasher(ctx)(stmt.password), stmt.admin);
  return EMPTY_OUTPUT;
}

export async function dropUser(stmt: DropUserStatement, ctx: QueryContext): Promise<StatementOutput> {
  if (!ctx.engine.catalog.user(stmt.name)) throw userNotFound();
  await ctx.engine.catalog.dropUser(stmt.name);
  return EMPTY_OUTPUT;
}

export async function setPassword(stmt: SetPasswordStatement, ctx: QueryContext): Promise<StatementOutput> {
  if (!ctx.engine.catalog.user(stmt.name)) throw userNotFound();
  const hash = await hasher(ctx)(stmt.password);
  await ctx.engine.catalog.updateUser(stmt.name, (u) => ({ ...u, hash }));
  return EMPTY_OUTPUT;
}

export async function grant(stmt: GrantStatement, ctx: QueryContext): Promise<StatementOutput> {
  const catalog = ctx.engine.catalog;
  const user = catalog.user(stmt.user);
  if (!user) throw userNotFound();
  if (stmt.database === null) {
    await catalog.updateUser(stmt.user, (u) => ({ ...u, admin: true }));
    return EMPTY_OUTPUT;
  }
  requireDatabase(ctx, stmt.database);
  await catalog.setPrivilege(stmt.user, stmt.database, stmt.privilege);
  return EMPTY_OUTPUT;
}

export async function revoke(stmt: RevokeStatement, ctx: QueryContext): Promise<StatementOutput> {
  const catalog = ctx.engine.catalog;
  const user = catalog.user(stmt.user);
  if (!user) throw userNotFound();
  if (stmt.database === null) {
    await catalog.updateUser(stmt.user, (u) => ({ ...u, admin: false }));
    return EMPTY_OUTPUT;
  }
  requireDatabase(ctx, stmt.database);
  const bits = BITS[user.privileges[stmt.database] ?? 'NONE'] & ~BITS[stmt.privilege];
  await catalog.setPrivilege(stmt.user, stmt.database, FROM_BITS[bits] ?? 'NONE');
  return EMPTY_OUTPUT;
}
