/**
 * Execution of every non-SELECT statement: SHOW, DDL, DELETE, user management, continuous
 * queries and materialized views. One entry point, `executeMetaStatement`; errors are typed
 * (StrataError subclasses) with the 1.x per-statement texts. Authorization is the caller's.
 */
import type { Statement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { createContinuousQuery, dropContinuousQuery } from './cq.js';
import { alterRetentionPolicy, createDatabase, createRetentionPolicy, dropDatabase, dropRetentionPolicy } from './ddl.js';
import { deleteData, dropMeasurement, dropSeries } from './delete.js';
import { dropShard } from './drop-shard.js';
import { MetaError } from './errors.js';
import { createMaterializedView, dropMaterializedView } from './mv.js';
import { showCardinality } from './show-cardinality.js';
import { showContinuousQueries } from './show-cq.js';
import { showDatabases } from './show-databases.js';
import { showFieldKeys } from './show-field-keys.js';
import { showMeasurements } from './show-measurements.js';
import { showMaterializedViews } from './show-mv.js';
import { killQuery, showQueries, showSubscriptions } from './show-queries.js';
import { showRetentionPolicies } from './show-retention-policies.js';
import { showSeries } from './show-series.js';
import { showShardGroups, showShards } from './show-shards.js';
import { showDiagnostics } from './show-diagnostics.js';
import { showStats } from './show-stats.js';
import { showTagKeys } from './show-tag-keys.js';
import { showTagValues } from './show-tag-values.js';
import { showGrants } from './show-grants.js';
import { showUsers } from './show-users.js';
import { createUser, dropUser, grant, revoke, setPassword } from './users.js';

export { MetaError } from './errors.js';
export { hashPasswordArgon2id, verifyPassword, ARGON2_PARAMS } from './password.js';

export type MetaStatement = Exclude<Statement, { kind: 'Select' | 'Explain' }>;

/** True for every statement this module executes (all but SELECT and EXPLAIN). */
export function isMetaStatement(stmt: Statement): stmt is MetaStatement {
  return stmt.kind !== 'Select' && stmt.kind !== 'Explain';
}

const unsupported = (what: string): MetaError => new MetaError(`${what} is not supported`, 'unsupported');

export async function executeMetaStatement(stmt: Statement, ctx: QueryContext): Promise<StatementOutput> {
  switch (stmt.kind) {
    case 'ShowDatabases': return showDatabases(stmt, ctx);
    case 'ShowMeasurements': return showMeasurements(stmt, ctx);
    case 'ShowTagKeys': return showTagKeys(stmt, ctx);
    case 'ShowTagValues': return showTagValues(stmt, ctx);
    case 'ShowFieldKeys': return showFieldKeys(stmt, ctx);
    case 'ShowSeries': return showSeries(stmt, ctx);
    case 'ShowCardinality': return showCardinality(stmt, ctx);
    case 'ShowRetentionPolicies': return showRetentionPolicies(stmt, ctx);
    case 'ShowUsers': return showUsers(stmt, ctx);
    case 'ShowGrants': return showGrants(stmt, ctx);
    case 'ShowContinuousQueries': return showContinuousQueries(stmt, ctx);
    case 'ShowMaterializedViews': return showMaterializedViews(stmt, ctx);
    case 'ShowQueries': return showQueries(stmt, ctx);
    case 'ShowShards': return showShards(stmt, ctx);
    case 'ShowShardGroups': return showShardGroups(stmt, ctx);
    case 'ShowStats': return showStats(stmt, ctx);
    case 'ShowDiagnostics': return showDiagnostics(stmt, ctx);
    case 'ShowSubscriptions': return showSubscriptions(stmt, ctx);
    case 'CreateDatabase': return createDatabase(stmt, ctx);
    case 'DropDatabase': return dropDatabase(stmt, ctx);
    case 'CreateRetentionPolicy': return createRetentionPolicy(stmt, ctx);
    case 'AlterRetentionPolicy': return alterRetentionPolicy(stmt, ctx);
    case 'DropRetentionPolicy': return dropRetentionPolicy(stmt, ctx);
    case 'Delete': return deleteData(stmt, ctx);
    case 'DropSeries': return dropSeries(stmt, ctx);
    case 'DropMeasurement': return dropMeasurement(stmt, ctx);
    case 'CreateUser': return createUser(stmt, ctx);
    case 'DropUser': return dropUser(stmt, ctx);
    case 'SetPassword': return setPassword(stmt, ctx);
    case 'Grant': return grant(stmt, ctx);
    case 'Revoke': return revoke(stmt, ctx);
    case 'CreateContinuousQuery': return createContinuousQuery(stmt, ctx);
    case 'DropContinuousQuery': return dropContinuousQuery(stmt, ctx);
    case 'CreateMaterializedView': return createMaterializedView(stmt, ctx);
    case 'DropMaterializedView': return dropMaterializedView(stmt, ctx);
    case 'KillQuery': return killQuery(stmt, ctx);
    case 'DropShard': return dropShard(stmt, ctx);
    case 'CreateSubscription': throw unsupported('CREATE SUBSCRIPTION');
    case 'DropSubscription': throw unsupported('DROP SUBSCRIPTION');
    case 'Select':
    case 'Explain':
      throw unsupported(`${stmt.kind.toUpperCase()} in the metadata executor`);
  }
}
