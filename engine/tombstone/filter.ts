/**
 * What reads and compaction need from tombstones: for one series-field of a shard, the time
 * ranges hidden in a given TSM file. A tombstone hides rows of files that existed when it was
 * applied (file generation below the tombstone's mark for that shard); files written later
 * only hold data the delete had already removed from the cache, or data written after it.
 */
import type { Shard } from '../shard/shard.js';

/** Inclusive [minNs, maxNs] ranges, possibly overlapping, in no particular order. */
export type HiddenRanges = readonly (readonly [bigint, bigint])[];

export interface TombstoneFilter {
  hidden(shard: Shard, seriesKey: string, field: string, fileGeneration: number): HiddenRanges;
  /** True when no tombstone touches the shard at all (the common fast path). */
  isClean(shard: Shard): boolean;
  /** Changes whenever the set of tombstones does (answers cached under another version are stale). */
  readonly version?: number;
}

export const NO_TOMBSTONES: TombstoneFilter = {
  hidden: () => [],
  isClean: () => true,
};

/** Drop rows of an ascending-or-descending block whose absolute time falls in a hidden range. */
export function isHidden(ranges: HiddenRanges, tNs: bigint): boolean {
  for (const [lo, hi] of ranges) if (tNs >= lo && tNs <= hi) return true;
  return false;
}
