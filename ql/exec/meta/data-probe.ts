/**
 * Questions the series index cannot answer alone, asked through engine cursors:
 * - which series have data in the shards a time range touches (SHOW SERIES / TAG KEYS / TAG
 *   VALUES with a time condition) or at all (DELETE deciding which series are left empty),
 * - which fields a measurement has in one retention policy (1.x keeps field sets per shard,
 *   so SHOW FIELD KEYS answers for the default or the named policy only).
 * One cursor is opened per (series, field, policy) until the first hit; cost grows with the
 * number of candidate series, which is acceptable for metadata statements.
 */
import { MAX_TIME_NS, MIN_TIME_NS, selectSeries } from '../../../engine/index.js';
import type { FieldType, MeasurementIndex } from '../../../engine/index.js';
import { checkpoint, type QueryContext } from '../context.js';
import type { TagCondition } from './tag-cond.js';

async function hasData(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex, seriesKey: string, field: string, minNs: bigint, maxNs: bigint): Promise<boolean> {
  const cursor = ctx.engine.cursor({ db, rp, measurement: m.name, seriesKey, field, startNs: minNs, endNs: maxNs, ascending: true });
  try {
    return (await cursor.next()) !== null;
  } finally {
    cursor.close();
  }
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
 * Fields of `m` with data in policy `rp`. When `rp` is the only policy with storage, every
 * registered field belongs to it (no probing).
 */
export async function fieldsInPolicy(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex): Promise<Map<string, FieldType>> {
  const opened = ctx.engine.openedDatabase(db);
  if (!opened) return new Map();
  const others = [...opened.shardSets.keys()].filter((k) => k !== rp);
  if (others.length === 0) return m.fields;
  if (!opened.shardSets.has(rp)) return new Map();
  const out = new Map<string, FieldType>();
  for (const [field, type] of m.fields) {
    for (const id of m.seriesIds) {
      const info = opened.index.seriesById(id);
      if (info && (await hasData(ctx, db, rp, m, info.key, field, MIN_TIME_NS, MAX_TIME_NS))) {
        out.set(field, type);
        break;
      }
    }
  }
  return out;
}

/**
 * Series of `m` present in the shards of one policy that overlap [minNs, maxNs]: 1.x answers
 * SHOW statements with a time condition from whole shards of the default (or requested)
 * policy, so a series counts when it has data anywhere in such a shard.
 */
export async function seriesInShards(ctx: QueryContext, db: string, m: MeasurementIndex, ids: readonly number[], minNs: bigint, maxNs: bigint): Promise<number[]> {
  const opened = ctx.engine.openedDatabase(db);
  const info = ctx.engine.catalog.database(db);
  const rp = (db === ctx.database ? ctx.retentionPolicy : '') || info?.defaultRp || '';
  const shards = opened?.shardSets.get(rp)?.shards.filter((s) => s.endNs > minNs && s.baseNs <= maxNs) ?? [];
  if (!opened || shards.length === 0 || ids.length === 0) return [];
  const out: number[] = [];
  for (const id of ids) {
    await checkpoint(ctx);
    const info = opened.index.seriesById(id);
    if (!info) continue;
    let found = false;
    for (const shard of shards) {
      for (const field of m.fields.keys()) {
        if (await hasData(ctx, db, rp, m, info.key, field, shard.baseNs, shard.endNs - 1n)) {
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

/** Series of `m` matching a WHERE condition (tags, and shards in the time range when WHERE has one). */
export async function matchingSeries(ctx: QueryContext, db: string, m: MeasurementIndex, cond: TagCondition): Promise<number[]> {
  if (cond.empty) return [];
  const ids = selectSeries(m, cond.exprFor(m));
  return cond.timed ? seriesInShards(ctx, db, m, ids, cond.minNs, cond.maxNs) : ids;
}
