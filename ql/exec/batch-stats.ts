/**
 * Aggregating a cursor batch from its statistics instead of its values (engine cursor.ts,
 * `Batch.stats`): count, sum, min, max and mean (sum + count) when the batch lies wholly in
 * one GROUP BY time window (or there is no window). The engine sets stats only on whole stored
 * blocks that no other source overlaps and no delete touches, so the answer equals the one
 * from decoded values: sums are exact (integer fields only), min/max carry the row of their
 * earliest occurrence, whose time costs a timestamp-only decode.
 */
import type { Batch } from '../../engine/index.js';
import type { BatchStats, Reducer, StatsReducer } from './reducers/index.js';
import { window, type WindowSpec } from './window.js';

const NEEDS: Readonly<Record<string, (s: NonNullable<Batch['stats']>) => boolean>> = {
  count: () => true,
  sum: (s) => s.sum !== undefined,
  mean: (s) => s.sum !== undefined,
  min: (s) => s.min !== undefined && s.minRow !== undefined,
  max: (s) => s.max !== undefined && s.maxRow !== undefined,
};

/**
 * Feeds `b` to the reducers of its window through their stats; false (nothing consumed) when
 * the batch has no usable stats for every call or spans windows: the caller then feeds values.
 * `calls` are the reducer names; `reducersAt(start)` gives the window's reducers in that order.
 */
export function aggregateFromStats(
  b: Batch,
  calls: readonly string[],
  spec: WindowSpec | undefined,
  noWindowStart: bigint,
  reducersAt: (start: bigint) => readonly Reducer[],
): boolean {
  const s = b.stats;
  if (!s || s.count === 0 || !calls.every((c) => NEEDS[c]?.(s) === true)) return false;
  let start = noWindowStart;
  if (spec) {
    const lo = Math.min(s.firstOffset, s.lastOffset);
    const hi = Math.max(s.firstOffset, s.lastOffset);
    const w = window(b.base + BigInt(lo), spec);
    if (b.base + BigInt(hi) >= w.end) return false;
    start = w.start;
  }
  const rs = reducersAt(start);
  if (!rs.every((r): r is StatsReducer => 'addStats' in r)) return false;
  rs.forEach((r, i) => r.addStats(reducerStats(b, s, calls[i]!)));
  return true;
}

function reducerStats(b: Batch, s: NonNullable<Batch['stats']>, call: string): BatchStats {
  if (call === 'min') return { count: s.count, min: s.min, minTime: b.base + BigInt(b.offsets[s.minRow!]!) };
  if (call === 'max') return { count: s.count, max: s.max, maxTime: b.base + BigInt(b.offsets[s.maxRow!]!) };
  return { count: s.count, sum: s.sum };
}
