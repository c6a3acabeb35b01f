/**
 * The series SLIMIT/SOFFSET page over: 1.6.7 pages the tag sets its shards know, those of the
 * series present in the shards the query's time range maps to, not every tag set of the
 * database's index. A host that last reported weeks ago is no tag set of a dashboard's
 * "last 6 hours" (found with Grafana-style queries; `now() - 1h` and SLIMIT 1 SOFFSET 1).
 *
 * A series counts as present when it holds a point in one of those shards. 1.6.7 pages each
 * shard on its own and merges the pages; over several shard groups this keeps their union,
 * which answers as 1.6.7 only when the range lies in one shard group (left as is).
 */
import { checkpoint, type QueryContext } from './context.js';
import type { EngineSource } from './engine-source.js';
import type { SeriesRef } from './source.js';

/** Keys of the series of `refs` with a point in a shard of the source's policy overlapping [minNs, maxNs]. */
export async function seriesInRangeShards(ctx: QueryContext, source: EngineSource, refs: readonly SeriesRef[], minNs: bigint, maxNs: bigint): Promise<Set<string>> {
  const shards = ctx.engine.shardsOverlapping(source.db, source.rp, minNs, maxNs);
  const present = new Set<string>();
  if (shards.length === 0) return present;
  let lo = shards[0]!.baseNs;
  let hi = shards[0]!.endNs;
  for (const s of shards) {
    if (s.baseNs < lo) lo = s.baseNs;
    if (s.endNs > hi) hi = s.endNs;
  }
  const fields = [...source.fieldTypes().keys()];
  for (const ref of refs) {
    await checkpoint(ctx);
    for (const field of fields) {
      const cursor = source.cursor(ref, field, lo, hi - 1n, true);
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
  return present;
}
