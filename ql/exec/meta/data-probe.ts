/**
 * Questions the series index cannot answer alone, asked through engine cursors:
 * - which series have data in the shards a time range touches (SHOW SERIES / TAG KEYS / TAG
 *   VALUES with a time condition) or at all (DELETE deciding which series are left empty),
 * One cursor is opened per (series, field, policy) until the first hit; cost grows with the
 * number of candidate series, which is acceptable for metadata statements.
 */
import { MAX_TIME_NS, MIN_TIME_NS, selectSeries } from '../../../engine/index.js';
import type { DatabaseInfo, FieldType, MeasurementIndex } from '../../../engine/index.js';
import { checkpoint, type QueryContext } from '../context.js';
import { policyFields } from '../engine-source.js';
import type { TagCondition } from './tag-cond.js';

/** The time span of a shard (engine shards are [baseNs, endNs)). */
interface ShardSpan {
  readonly baseNs: bigint;
  readonly endNs: bigint;
}

async function hasData(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex, seriesKey: string, field: string, minNs: bigint, maxNs: bigint): Promise<boolean> {
  const cursor = ctx.engine.cursor({ db, rp, measurement: m.name, seriesKey, field, startNs: minNs, endNs: maxNs, ascending: true });
  try {
    return (await cursor.next()) !== null;
  } finally {
    cursor.close();
  }
}

/**
 * Whether any policy of `db` has a shard overlapping [minNs, maxNs]. 1.6.7 answers SHOW TAG
 * KEYS and SHOW TAG VALUES with a time condition from the shard groups of every policy in the
 * range, and its (database-wide) index then gives every matching series: time only decides
 * whether there is anything to read.
 */
export function anyPolicyHasShardIn(ctx: QueryContext, info: DatabaseInfo, minNs: bigint, maxNs: bigint): boolean {
  return info.rps.some((rp) => ctx.engine.hasShardOverlapping(info.name, rp.name, minNs, maxNs));
}

/** Policies of `db` that have storage and a shard overlapping [minNs, maxNs]. */
function policiesInRange(ctx: QueryContext, db: string, minNs: bigint, maxNs: bigint): string[] {
  const opened = ctx.engine.openedDatabase(db);
  if (!opened) return [];
  const out: string[] = [];
  for (const [rp, set] of opened.shardSets) {
    if (set.shards.some((s) => s.endNs > minNs && s.baseNs <= maxNs)) out.push(rp);
  }
  return out;
}

/** The ids (sorted, a subset of `ids`) of series with at least one value in [minNs, maxNs] in any policy. */
export async function seriesWithData(ctx: QueryContext, db: string, m: MeasurementIndex, ids: readonly number[], minNs: bigint, maxNs: bigint): Promise<number[]> {
  const rps = policiesInRange(ctx, db, minNs, maxNs);
  if (rps.length === 0 || ids.length === 0) return [];
  const index = ctx.engine.openedDatabase(db)?.index;
  const out: number[] = [];
  for (const id of ids) {
    await checkpoint(ctx);
    const info = index?.seriesById(id);
    if (!info) continue;
    let found = false;
    for (const rp of rps) {
      for (const field of m.fields.keys()) {
        if (await hasData(ctx, db, rp, m, info.key, field, minNs, maxNs)) {
          found = true;
          break;
        }
      }
      if (found) break;
    }
    if (found) out.push(id);
  }
  return out;
}

/**
 * Fields of `m` in policy `rp`: those written into it (see policyFields). When no other
 * policy has storage, every registered field, also one whose only write was refused for a
 * type conflict within its batch (1.x registers it in the shard before the conflict shows).
 */
export function fieldsInPolicy(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex): ReadonlyMap<string, FieldType> {
  const opened = ctx.engine.openedDatabase(db);
  if (!opened) return new Map();
  const others = [...opened.shardSets.keys()].filter((k) => k !== rp);
  if (others.length === 0) return m.fields;
  if (!opened.shardSets.has(rp)) return new Map();
  return policyFields(opened, rp, m);
}

/** The policy SHOW statements read: the request's `rp` for its own database, else the default. */
export function readPolicy(ctx: QueryContext, db: string): string {
  return (db === ctx.database ? ctx.retentionPolicy : '') || ctx.engine.catalog.database(db)?.defaultRp || '';
}

/**
 * The series of `m` held by the shards of the policy SHOW statements read: 1.x rewrites
 * SHOW SERIES (and the EXACT or filtered cardinality statements) into reads of those shards,
 * so a policy without shards answers nothing even where other policies hold data (a new
 * DEFAULT policy, say). Undefined: every series (no other policy has shards).
 */
export async function seriesInPolicy(ctx: QueryContext, db: string, m: MeasurementIndex): Promise<readonly number[] | undefined> {
  const sets = ctx.engine.openedDatabase(db)?.shardSets;
  const rp = readPolicy(ctx, db);
  if (!sets?.get(rp)?.shards.length) return [];
  for (const [other, set] of sets) if (other !== rp && set.shards.length > 0) return seriesInShards(ctx, db, m, m.seriesIds, MIN_TIME_NS, MAX_TIME_NS);
  return undefined;
}

/** Does the policy SHOW statements read have a shard? (1.6.7's SHOW SERIES answers nothing otherwise.) */
export function readPolicyHasShards(ctx: QueryContext, db: string): boolean {
  return (ctx.engine.openedDatabase(db)?.shardSets.get(readPolicy(ctx, db))?.shards.length ?? 0) > 0;
}

/** `ids` limited to `scope` (undefined: no limit), in the order of `ids`. */
export function withinScope(ids: readonly number[], scope: readonly number[] | undefined): readonly number[] {
  if (!scope) return ids;
  const keep = new Set(scope);
  return ids.filter((id) => keep.has(id));
}

/**
 * Series of `m` present in the shards of one policy that overlap [minNs, maxNs]: 1.x answers
 * SHOW statements with a time condition from whole shards of the default (or requested)
 * policy, so a series counts when it has data anywhere in such a shard.
 */
export async function seriesInShards(ctx: QueryContext, db: string, m: MeasurementIndex, ids: readonly number[], minNs: bigint, maxNs: bigint): Promise<number[]> {
  const opened = ctx.engine.openedDatabase(db);
  const rp = readPolicy(ctx, db);
  const shards = ctx.engine.shardsOverlapping(db, rp, minNs, maxNs);
  if (!opened || shards.length === 0 || ids.length === 0) return [];
  const out: number[] = [];
  for (const id of ids) {
    await checkpoint(ctx);
    const info = opened.index.seriesById(id);
    if (info && (await hasDataInShards(ctx, db, rp, m, info.key, shards))) out.push(id);
  }
  return out;
}

async function hasDataInShards(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex, seriesKey: string, shards: readonly ShardSpan[]): Promise<boolean> {
  for (const shard of shards) {
    for (const field of m.fields.keys()) {
      if (await hasData(ctx, db, rp, m, seriesKey, field, shard.baseNs, shard.endNs - 1n)) return true;
    }
  }
  return false;
}

/**
 * `ids` once per shard of the policy read that holds data of the series: 1.6.7 counts SHOW
 * SERIES [EXACT] CARDINALITY with its rewritten `SELECT count(_seriesKey)`, one row per series
 * in each shard, so a series spanning two shard groups counts twice (SHOW SERIES itself
 * dedupes). With one shard at most this is seriesInPolicy's answer, without probing.
 */
export async function seriesShardRows(ctx: QueryContext, db: string, m: MeasurementIndex, ids: readonly number[]): Promise<readonly number[]> {
  const opened = ctx.engine.openedDatabase(db);
  const rp = readPolicy(ctx, db);
  const shards = opened?.shardSets.get(rp)?.shards ?? [];
  if (!opened || shards.length <= 1) return withinScope(ids, await seriesInPolicy(ctx, db, m));
  const out: number[] = [];
  for (const shard of shards) {
    for (const id of ids) {
      await checkpoint(ctx);
      const info = opened.index.seriesById(id);
      if (info && (await hasDataInShards(ctx, db, rp, m, info.key, [shard]))) out.push(id);
    }
  }
  return out;
}

/** Series of `m` matching a WHERE condition (tags, and shards in the time range when WHERE has one). */
export async function matchingSeries(ctx: QueryContext, db: string, m: MeasurementIndex, cond: TagCondition): Promise<number[]> {
  if (cond.empty) return [];
  const ids = selectSeries(m, cond.exprFor(m));
  return cond.timed ? seriesInShards(ctx, db, m, ids, cond.minNs, cond.maxNs) : ids;
}
