/**
 * SHOW SERIES with a time condition and LIMIT or OFFSET, as 1.6.7 answers it. It rewrites the
 * statement into a raw `SELECT _seriesKey ... LIMIT l OFFSET o`, whose storage engine gives one
 * row per series of each measurement in each shard of the time range (the condition's time
 * picks shards, not points), series in key order, and stops each measurement's shard after
 * o + l + 1 rows, leaving the offset to the query layer, which dedupes the keys, sorts and
 * pages them. So `OFFSET 1` without LIMIT keeps the second series of each measurement's shard
 * and nothing after it, rather than every series but one. Recorded from 1.6.7 (cases s-k157 on).
 */
import type { MeasurementIndex } from '../../../engine/index.js';
import { checkpoint, type QueryContext } from '../context.js';
import { byteOrder } from './common.js';
import { readPolicy } from './data-probe.js';

/**
 * The keys of the first `cap` series among `ids`, in key order, that hold data in each shard of
 * the policy read overlapping [minNs, maxNs]: their union, in no particular order.
 */
export async function firstSeriesPerShard(ctx: QueryContext, db: string, m: MeasurementIndex, ids: readonly number[], cap: number, minNs: bigint, maxNs: bigint): Promise<string[]> {
  const opened = ctx.engine.openedDatabase(db);
  const rp = readPolicy(ctx, db);
  if (!opened || ids.length === 0) return [];
  const keys = ids.flatMap((id) => opened.index.seriesById(id)?.key ?? []).sort(byteOrder);
  const out = new Set<string>();
  for (const shard of ctx.engine.shardsOverlapping(db, rp, minNs, maxNs)) {
    let taken = 0;
    for (const key of keys) {
      if (taken >= cap) break;
      await checkpoint(ctx);
      if (await holdsData(ctx, db, rp, m, key, shard.baseNs, shard.endNs - 1n)) {
        out.add(key);
        taken++;
      }
    }
  }
  return [...out];
}

async function holdsData(ctx: QueryContext, db: string, rp: string, m: MeasurementIndex, seriesKey: string, startNs: bigint, endNs: bigint): Promise<boolean> {
  for (const field of m.fields.keys()) {
    const cursor = ctx.engine.cursor({ db, rp, measurement: m.name, seriesKey, field, startNs, endNs, ascending: true });
    try {
      if ((await cursor.next()) !== null) return true;
    } finally {
      cursor.close();
    }
  }
  return false;
}
