/**
 * Database and retention-policy DDL with 1.x semantics and texts:
 * - CREATE DATABASE is idempotent; `WITH DURATION/REPLICATION/SHARD DURATION/NAME` creates that
 *   policy as the default (a different existing one: `retention policy conflicts with an
 *   existing policy`).
 * - DROP DATABASE goes through engine.dropDatabase (guard tombstone) and removes the users'
 *   grants on it; DROP RETENTION POLICY hides the policy's data and forgets series left without
 *   data (1.x drops the shards and their index); of a missing database or policy it is a no-op.
 * - Shard durations below 1h are raised to 1h; an explicit shard duration longer than a finite
 *   policy duration is `retention policy duration must be greater than the shard duration`.
 * - ALTER keeps every property not given (the shard duration too); SHARD DURATION 0s takes the
 *   default of the policy's duration.
 */
import { defaultShardGroupDurationSec, MAX_TIME_NS, MIN_TIME_NS, TRUE_EXPR } from '../../../engine/index.js';
import type { RetentionPolicyInfo, RetentionPolicySpec } from '../../../engine/index.js';
import type {
  AlterRetentionPolicyStatement,
  CreateDatabaseStatement,
  CreateRetentionPolicyStatement,
  DropDatabaseStatement,
  DropRetentionPolicyStatement,
} from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { nsToSec, requireDatabase } from './common.js';
import { dropSeriesWithoutData } from './delete.js';
import { MetaError } from './errors.js';
import { requireValidName } from './valid-name.js';

const HOUR = 3600;

const incompatible = (): MetaError => new MetaError('retention policy duration must be greater than the shard duration', 'incompatible_durations');

/** 1.x normalisedShardGroupDuration for an explicit value (0 = default). */
function shardSec(ns: bigint | null): number | undefined {
  if (ns === null || ns === 0n) return undefined;
  return Math.max(HOUR, nsToSec(ns));
}

function spec(name: string, durationNs: bigint | null, replication: number | null, shardNs: bigint | null): RetentionPolicySpec {
  const durationSec = durationNs === null ? 0 : nsToSec(durationNs);
  const shard = shardSec(shardNs);
  if (shard !== undefined && durationSec > 0 && durationSec >= HOUR && shard > durationSec) throw incompatible();
  const out: RetentionPolicySpec = { name, durationSec, replicaN: replication ?? 1 };
  return shard === undefined ? out : { ...out, shardGroupDurationSec: shard };
}

/** The policy the catalog would store for `s` (defaults applied), to compare with an existing one. */
function normalised(s: RetentionPolicySpec): RetentionPolicyInfo {
  const shard = s.shardGroupDurationSec || defaultShardGroupDurationSec(s.durationSec);
  return { name: s.name, durationSec: s.durationSec, replicaN: s.replicaN, shardGroupDurationSec: s.durationSec > 0 && shard > s.durationSec ? s.durationSec : shard };
}

export async function createDatabase(stmt: CreateDatabaseStatement, ctx: QueryContext): Promise<StatementOutput> {
  requireValidName(stmt.name);
  const rp = stmt.retentionPolicy;
  if (rp?.name) requireValidName(rp.name);
  if (!rp) {
    await ctx.engine.createDatabase(stmt.name);
    return EMPTY_OUTPUT;
  }
  await ctx.engine.createDatabase(stmt.name, spec(rp.name || 'autogen', rp.duration, rp.replication, rp.shardDuration));
  return EMPTY_OUTPUT;
}

export async function dropDatabase(stmt: DropDatabaseStatement, ctx: QueryContext): Promise<StatementOutput> {
  const catalog = ctx.engine.catalog;
  await ctx.engine.dropDatabase(stmt.name);
  for (const u of catalog.users()) {
    if (u.privileges[stmt.name] !== undefined) await catalog.setPrivilege(u.name, stmt.name, null);
  }
  return EMPTY_OUTPUT;
}

export async function createRetentionPolicy(stmt: CreateRetentionPolicyStatement, ctx: QueryContext): Promise<StatementOutput> {
  requireValidName(stmt.name);
  const info = requireDatabase(ctx, stmt.database);
  const wanted = spec(stmt.name, stmt.duration, stmt.replication, stmt.shardDuration);
  const have = info.rps.find((r) => r.name === stmt.name);
  if (have) {
    const n = normalised(wanted);
    const same = n.durationSec === have.durationSec && n.replicaN === have.replicaN && n.shardGroupDurationSec === have.shardGroupDurationSec;
    if (!same) throw new MetaError('retention policy already exists', 'rp_exists');
    if (stmt.isDefault && info.defaultRp !== have.name) throw new MetaError('retention policy conflicts with an existing policy', 'rp_conflict');
    return EMPTY_OUTPUT;
  }
  await ctx.engine.catalog.createRetentionPolicy(stmt.database, wanted, stmt.isDefault);
  return EMPTY_OUTPUT;
}

export async function alterRetentionPolicy(stmt: AlterRetentionPolicyStatement, ctx: QueryContext): Promise<StatementOutput> {
  const info = requireDatabase(ctx, stmt.database);
  const have = info.rps.find((r) => r.name === stmt.name);
  const change: { durationSec?: number; replicaN?: number; shardGroupDurationSec?: number; makeDefault?: boolean } = {};
  if (stmt.duration !== null) change.durationSec = nsToSec(stmt.duration);
  if (stmt.replication !== null) change.replicaN = stmt.replication;
  const shard = shardSec(stmt.shardDuration);
  if (shard !== undefined) change.shardGroupDurationSec = shard;
  // An explicit 0s asks for the default of the (new) duration, as 1.x's normalisation does.
  else if (stmt.shardDuration === 0n) change.shardGroupDurationSec = defaultShardGroupDurationSec(change.durationSec ?? have?.durationSec ?? 0);
  if (stmt.isDefault) change.makeDefault = true;
  if (have) {
    const duration = change.durationSec ?? have.durationSec;
    const group = change.shardGroupDurationSec ?? have.shardGroupDurationSec;
    if (duration >= HOUR && group > duration) throw incompatible();
  }
  await ctx.engine.catalog.alterRetentionPolicy(stmt.database, stmt.name, change);
  return EMPTY_OUTPUT;
}

export async function dropRetentionPolicy(stmt: DropRetentionPolicyStatement, ctx: QueryContext): Promise<StatementOutput> {
  const info = ctx.engine.catalog.database(stmt.database);
  if (!info || !info.rps.some((r) => r.name === stmt.name)) return EMPTY_OUTPUT;
  // Hide the policy's data so a policy created later under the same name starts empty, and
  // forget the series that only lived there (1.x indexes series per shard).
  const hadData = ctx.engine.openedDatabase(stmt.database)?.shardSets.has(stmt.name) ?? false;
  if (hadData) {
    await ctx.engine.delete({ db: stmt.database, rp: stmt.name, measurements: null, expr: TRUE_EXPR, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: false });
  }
  await ctx.engine.catalog.dropRetentionPolicy(stmt.database, stmt.name);
  if (hadData) await dropSeriesWithoutData(ctx, stmt.database, null, TRUE_EXPR);
  return EMPTY_OUTPUT;
}
