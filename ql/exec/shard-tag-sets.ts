/**
 * SLIMIT/SOFFSET over stored data as 1.6.7 pages it: in each shard the query's time range maps
 * to, over the tag sets of the series that shard holds, answering the union of the pages, each
 * tag set with the data of the shards that paged it only. So a host that last reported weeks
 * ago is no tag set of a dashboard's "last 6 hours" (found with Grafana-style queries; `now() -
 * 1h` and SLIMIT 1 SOFFSET 1), and over two shard groups `SLIMIT 2` may answer three or four
 * series, one of them with the rows of one group only (seen on 1.6.7: cases s-m100-s-m102).
 *
 * A series counts as held by a shard when it has a point anywhere in the shard, also outside
 * the query's range (1.x's shard index lists it). Each shard's page is found by walking the tag
 * sets in paging order until it is full, so a small SLIMIT asks about a few tag sets per shard.
 */
import { shardHoldsSeries, type Shard } from '../../engine/index.js';
import { checkpoint, type QueryContext } from './context.js';
import type { EngineSource } from './engine-source.js';
import type { SeriesRef } from './source.js';
import { pagingOrder } from './tag-set-page.js';

interface TagSet {
  readonly key: readonly string[];
  readonly series: readonly SeriesRef[];
}

/**
 * The tag sets of `tagSets` (in their order) that some shard in [minNs, maxNs] pages; one that
 * not every such shard paged reads only the shards that did (SeriesRef.shardStarts).
 */
export async function pagedPerShard<G extends TagSet>(ctx: QueryContext, source: EngineSource, tagSets: readonly G[], dims: readonly string[], slimit: number, soffset: number, minNs: bigint, maxNs: bigint): Promise<G[]> {
  if (slimit === 0) return soffset === 0 ? [...tagSets] : [];
  const ordered = pagingOrder(tagSets, dims);
  const fields = [...source.fieldTypes().keys()];
  const shards = ctx.engine.shardsOverlapping(source.db, source.rp, minNs, maxNs);
  const pagedIn = new Map<G, number[]>();
  for (const shard of shards) {
    let held = 0;
    for (const g of ordered) {
      if (held === soffset + slimit) break;
      if (!(await holdsAny(ctx, source, shard, g.series, fields))) continue;
      if (held++ < soffset) continue;
      const starts = pagedIn.get(g);
      if (starts) starts.push(shard.startSec);
      else pagedIn.set(g, [shard.startSec]);
    }
  }
  const out: G[] = [];
  for (const g of tagSets) {
    const starts = pagedIn.get(g);
    if (!starts) continue;
    if (starts.length === shards.length) out.push(g);
    else {
      const only: ReadonlySet<number> = new Set(starts);
      out.push({ ...g, series: g.series.map((s) => ({ ...s, shardStarts: only })) });
    }
  }
  return out;
}

/** Whether `shard` holds one of `series`: from its indexes when no tombstone reaches it, else by reading. */
async function holdsAny(ctx: QueryContext, source: EngineSource, shard: Shard, series: readonly SeriesRef[], fields: readonly string[]): Promise<boolean> {
  const clean = ctx.engine.tombstones.isClean(shard);
  const only = new Set([shard.startSec]);
  for (const ref of series) {
    await checkpoint(ctx);
    if (clean) {
      if (shardHoldsSeries(shard, ref.key, fields)) return true;
      continue;
    }
    for (const field of fields) {
      const cursor = source.cursor({ ...ref, shardStarts: only }, field, shard.baseNs, shard.endNs - 1n, true);
      try {
        if ((await cursor.next()) !== null) return true;
      } finally {
        cursor.close();
      }
    }
  }
  return false;
}
