/**
 * The database and retention policy named in a SHOW statement's FROM (`db.rp.m`, `rp.m`,
 * `db..m`). 1.6.7 rewrites SHOW SERIES, SHOW FIELD KEYS and the cardinality statements into
 * reads of their sources, so a database or policy named there that does not exist is that
 * statement's error (`database not found: x`, `retention policy not found: x`), and they read
 * the database and policy the first qualified source names. The other SHOW statements read the
 * index of the statement's database whatever FROM says.
 */
import { RetentionPolicyNotFoundError } from '../../../engine/index.js';
import type { Source } from '../../ast/nodes.js';
import type { QueryContext } from '../context.js';
import { databaseName, requireDatabase } from './common.js';

/** Throws 1.6.7's error for the first source naming a database or policy that does not exist. */
export function checkSourceScopes(ctx: QueryContext, stmtDb: string, sources: readonly Source[]): void {
  for (const s of sources) {
    if (s.kind !== 'Measurement' || (!s.database && !s.retentionPolicy)) continue;
    const info = requireDatabase(ctx, s.database || databaseName(stmtDb, ctx));
    if (s.retentionPolicy && !info.rps.some((r) => r.name === s.retentionPolicy)) throw new RetentionPolicyNotFoundError(s.retentionPolicy);
  }
}

/** The database the statement reads: the first source's database qualifier, else its own. */
export function sourceDatabase(ctx: QueryContext, stmtDb: string, sources: readonly Source[]): string {
  checkSourceScopes(ctx, stmtDb, sources);
  const named = sources.find((s) => s.kind === 'Measurement' && s.database !== '');
  return named?.kind === 'Measurement' ? named.database : databaseName(stmtDb, ctx);
}

/**
 * The context SHOW SERIES and the cardinality statements read with: the database and policy of its first qualified source
 * (the request's `rp` still applies to the request's database when FROM names no policy).
 */
export function sourceContext(ctx: QueryContext, stmtDb: string, sources: readonly Source[]): { db: string; ctx: QueryContext } {
  const db = sourceDatabase(ctx, stmtDb, sources);
  const named = sources.find((s) => s.kind === 'Measurement' && s.retentionPolicy !== '');
  const rp = named?.kind === 'Measurement' ? named.retentionPolicy : db === ctx.database ? ctx.retentionPolicy : '';
  return db === ctx.database && rp === ctx.retentionPolicy ? { db, ctx } : { db, ctx: { ...ctx, database: db, retentionPolicy: rp } };
}
