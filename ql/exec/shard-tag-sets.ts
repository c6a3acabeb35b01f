/**
 * The series SLIMIT/SOFFSET page over: 1.6.7 pages, in each shard the query's time range maps
 * to, the tag sets of the series that shard holds, and answers the union of the pages, each
 * tag set with the data of the shards that paged it only. So a host that last reported weeks
 * ago is no tag set of a dashboard's "last 6 hours" (found with Grafana-style queries; `now() -
 * 1h` and SLIMIT 1 SOFFSET 1), and over two shard groups `SLIMIT 2` may answer three or four
 * series, one of them with the rows of one group only (seen on 1.6.7: cases s-m100...).
 *
 * A series counts as held by a shard when it has a point anywhere in the shard, also outside
 * the query's range (1.x's shard index lists it).
 */
import { checkpoint, type QueryContext } from './context.js';
import type { EngineSource } from './engine-source.js';
import type { SeriesRef } from './source.js';

export interface ShardSeries {
  /** The shard's start, as CursorRequest.shardStarts names it. */
  readonly startSec: number;
  /** Keys of the series with a point in the shard. */
  readonly present: ReadonlySet<string>;
}

/** The shards of the source's policy overlapping [minNs, maxNs], in time order, each with the series of `refs` it holds. */
export async function seriesPerRangeShard(ctx: QueryContext, source: EngineSource, refs: readonly SeriesRef[], minNs: bigint, maxNs: bigint): Promise<ShardSeries[]> {
  const fields = [...source.fieldTypes().keys()];
  const out: ShardSeries[] = [];
  for (const shard of ctx.engine.shardsOverlapping(source.db, source.rp, minNs, maxNs)) {
    const only = new Set([shard.startSec]);
    const present = new Set<string>();
    for (const ref of refs) {
      await checkpoint(ctx);
      for (const field of fields) {
        const cursor = source.cursor({ ...ref, shardStarts: only }, field, shard.baseNs, shard.endNs - 1n, true);
        try {
          if ((await cursor.next()) !== null) {
            present.add(ref.key);
            break;
          }
        } finally {
          cursor.close();
        }
      }
    }
    out.push({ startSec: shard.startSec, present });
  }
  return out;
}
