/**
 * What each statement requires of a non-admin user (InfluxDB 1.x `RequiredPrivileges`), and
 * the 1.x authorization texts. Admins may run everything.
 *
 * - READ on the database: SELECT (each measurement source, subqueries included; the source's
 *   own `db.` qualifier, else the request's `db`), EXPLAIN, SHOW MEASUREMENTS / TAG KEYS /
 *   TAG VALUES / FIELD KEYS / SERIES / cardinality / RETENTION POLICIES / CONTINUOUS QUERIES /
 *   MATERIALIZED VIEWS / QUERIES.
 * - WRITE on the database: SELECT ... INTO (the target's database), DELETE, DROP SERIES,
 *   DROP CONTINUOUS QUERY.
 * - CREATE CONTINUOUS QUERY: READ on its database (1.x, and the text 1.x answers when that is
 *   missing), then what its SELECT needs, and WRITE on the database it writes into. 1.x asks
 *   only the first (and WRITE on an INTO database named explicitly), so a READ-only user could
 *   leave behind a query that writes, or reads other databases, with the server's rights for
 *   as long as it runs; Strata refuses those two cases and agrees with 1.x everywhere else.
 * - nothing: SHOW DATABASES (the executor lists only granted databases), Strata's `SHOW
 *   GRANTS` without FOR (the caller's own grants; 1.x has no such statement).
 * - admin: user management (CREATE/DROP USER, SET PASSWORD, GRANT, REVOKE, SHOW USERS, SHOW
 *   GRANTS FOR any user, oneself included, as in 1.x), CREATE/DROP DATABASE, retention
 *   policies, DROP MEASUREMENT and DROP SHARD (admin in 1.x), materialized views (they run
 *   with the server's rights), SHOW SHARDS / SHARD GROUPS / STATS / DIAGNOSTICS /
 *   SUBSCRIPTIONS, subscriptions, KILL QUERY.
 * A grant `ALL` satisfies READ and WRITE.
 */
import type { SelectStatement, Source, Statement } from '../../ql/index.js';
import { printStatement } from '../../ql/index.js';
import type { AuthUser } from './verifier.js';

export type Need = { readonly admin: true } | { readonly admin: false; readonly privilege: 'READ' | 'WRITE'; readonly database: string };

const ADMIN: readonly Need[] = [{ admin: true }];

function on(privilege: 'READ' | 'WRITE', database: string, fallback: string): Need {
  return { admin: false, privilege, database: database || fallback };
}

function sourceNeeds(sources: readonly Source[], privilege: 'READ' | 'WRITE', db: string): Need[] {
  return sources.flatMap((s) => (s.kind === 'SubQuery' ? selectNeeds(s.statement, db) : [on(privilege, s.database, db)]));
}

function selectNeeds(stmt: SelectStatement, db: string): Need[] {
  const needs = sourceNeeds(stmt.sources, 'READ', db);
  if (stmt.target) needs.push(on('WRITE', stmt.target.database, db));
  return needs;
}

/** The privileges `stmt` needs when the request's default database is `db`. */
export function requiredPrivileges(stmt: Statement, db: string): readonly Need[] {
  switch (stmt.kind) {
    case 'Select':
      return selectNeeds(stmt, db);
    case 'Explain':
      return selectNeeds(stmt.statement, db);
    case 'Delete':
    case 'DropSeries':
      return stmt.sources.length === 0 ? [on('WRITE', '', db)] : sourceNeeds(stmt.sources, 'WRITE', db);
    case 'ShowDatabases':
      return [];
    case 'ShowGrants':
      return stmt.user === '' ? [] : ADMIN;
    case 'CreateContinuousQuery': {
      const into = stmt.source.target?.database || stmt.database;
      return [on('READ', stmt.database, db), ...selectNeeds({ ...stmt.source, target: null }, stmt.database), on('WRITE', into, db)];
    }
    case 'DropContinuousQuery':
      return [on('WRITE', stmt.database, db)];
    case 'ShowMeasurements':
    case 'ShowTagKeys':
    case 'ShowTagValues':
    case 'ShowFieldKeys':
    case 'ShowSeries':
    case 'ShowCardinality':
    case 'ShowRetentionPolicies':
    case 'ShowMaterializedViews':
      return [on('READ', stmt.database, db)];
    case 'ShowContinuousQueries':
    case 'ShowQueries':
      return [on('READ', '', db)];
    case 'DropMeasurement':
    case 'DropShard':
    case 'ShowUsers':
    case 'ShowShards':
    case 'ShowShardGroups':
    case 'ShowStats':
    case 'ShowDiagnostics':
    case 'ShowSubscriptions':
    case 'CreateDatabase':
    case 'DropDatabase':
    case 'CreateRetentionPolicy':
    case 'AlterRetentionPolicy':
    case 'DropRetentionPolicy':
    case 'CreateUser':
    case 'DropUser':
    case 'SetPassword':
    case 'Grant':
    case 'Revoke':
    case 'CreateMaterializedView':
    case 'DropMaterializedView':
    case 'CreateSubscription':
    case 'DropSubscription':
    case 'KillQuery':
      return ADMIN;
    default: {
      const unhandled: never = stmt;
      return unhandled;
    }
  }
}

/** 1.x UserInfo.AuthorizeDatabase: admin, or a grant equal to the need, or ALL. */
export function hasPrivilege(user: AuthUser, privilege: 'READ' | 'WRITE', database: string): boolean {
  if (user.admin) return true;
  const granted = user.privileges[database];
  return granted === privilege || granted === 'ALL';
}

/**
 * The 1.x denial text for the first statement `user` may not run (without the
 * `error authorizing query: ` prefix), or undefined when every statement is allowed.
 */
export function denyStatements(user: AuthUser, statements: readonly Statement[], db: string): string | undefined {
  if (user.admin) return undefined;
  for (const stmt of statements) {
    for (const need of requiredPrivileges(stmt, db)) {
      const text = () => printStatement(stmt, { redactPasswords: true });
      if (need.admin) return `${user.name} not authorized to execute statement '${text()}', requires admin privilege`;
      if (!hasPrivilege(user, need.privilege, need.database)) {
        return `${user.name} not authorized to execute statement '${text()}', requires ${need.privilege} on ${need.database}`;
      }
    }
  }
  return undefined;
}
