/**
 * What reading one series-field over a time range would touch in one shard, without reading
 * it: values in the caches, TSM files and blocks with their stored bytes. EXPLAIN reports these
 * (1.x's IteratorCost); they are counted from the caches and the files' indexes only.
 */
import { fieldKey } from '../cache/cache.js';
import type { Cache } from '../cache/cache.js';
import type { Shard } from '../shard/shard.js';
import { BLOCK_CHECKSUM_SIZE } from '../tsm/format.js';
import type { TombstoneFilter } from '../tombstone/filter.js';
import { fileGeneration } from '../tombstone/tombstones.js';

export interface ReadCost {
  /** Values held in memory (the active cache and caches being flushed) inside the range. */
  cachedValues: number;
  /** Files with at least one block of the series-field overlapping the range. */
  files: number;
  blocks: number;
  /** Stored bytes of those blocks, checksums included (what a read of them fetches). */
  blockBytes: number;
}

export const NO_COST: Readonly<ReadCost> = Object.freeze({ cachedValues: 0, files: 0, blocks: 0, blockBytes: 0 });

export function addCost(into: ReadCost, c: Readonly<ReadCost>): void {
  into.cachedValues += c.cachedValues;
  into.files += c.files;
  into.blocks += c.blocks;
  into.blockBytes += c.blockBytes;
}

function cachedInRange(cache: Cache, seriesKey: string, field: string, minOff: number, maxOff: number): number {
  const entry = cache.get(seriesKey, field);
  if (!entry || entry.length === 0) return 0;
  const { offsets } = entry.view();
  return upperBound(offsets, maxOff) - upperBound(offsets, minOff - 1);
}

/** Index of the first offset greater than `x` (offsets ascending). */
function upperBound(offsets: Float64Array, x: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The cost of reading `seriesKey`.`field` in [startNs, endNs] from `shard`. Files and blocks
 * follow 1.x's FileStore.cost: a file or block counts when it overlaps the range with both
 * ends strictly inside (a block that only touches a bound is not counted), and a block that a
 * delete hides entirely is skipped.
 */
export function shardReadCost(shard: Shard, tombstones: TombstoneFilter, seriesKey: string, field: string, startNs: bigint, endNs: bigint): ReadCost {
  const cost: ReadCost = { cachedValues: 0, files: 0, blocks: 0, blockBytes: 0 };
  if (endNs < shard.baseNs || startNs >= shard.endNs) return cost;
  const minOff = startNs <= shard.baseNs ? 0 : Number(startNs - shard.baseNs);
  const maxOff = endNs >= shard.endNs ? shard.spanSec * 1e9 - 1 : Number(endNs - shard.baseNs);
  for (const cache of shard.snapshots) cost.cachedValues += cachedInRange(cache, seriesKey, field, minOff, maxOff);
  cost.cachedValues += cachedInRange(shard.cache, seriesKey, field, minOff, maxOff);
  if (!shard.files) return cost;
  const snap = shard.files.acquire();
  try {
    const key = fieldKey(seriesKey, field);
    for (const reader of snap.files) {
      const { min, max } = reader.timeRange;
      if (!(max > startNs && min < endNs)) continue;
      const index = reader.index;
      const k = index.findSeriesField(seriesKey, field, key);
      if (k < 0) continue;
      const hidden = tombstones.isClean(shard) ? [] : tombstones.hidden(shard, seriesKey, field, fileGeneration(reader.path));
      let counted = false;
      // The inclusive overlap search, then 1.x's strict test on the few entries it leaves.
      const { start, end } = index.entryRangeAt(k, startNs, endNs);
      for (let j = start; j < end; j++) {
        const e = index.entryAt(k, j);
        if (!(e.maxTime > startNs && e.minTime < endNs)) continue;
        if (hidden.some(([lo, hi]) => lo <= e.minTime && hi >= e.maxTime)) continue;
        cost.blocks++;
        cost.blockBytes += e.size + BLOCK_CHECKSUM_SIZE;
        counted = true;
      }
      if (counted) cost.files++;
    }
  } finally {
    void snap.release()?.catch(() => undefined);
  }
  return cost;
}
