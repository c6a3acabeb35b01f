/**
 * Per-block statistics stored in the TSM index (format version 2), so a reader can answer
 * count/min/max/sum of a whole block without reading or decoding it.
 *
 * Kept only where cheap and exact:
 * - float blocks: min and max (a float sum depends on the order of additions, and 1.x sums in
 *   point order across blocks, so a stored per-block sum would change answers in the last bits);
 * - integer and unsigned blocks: min, max and sum, when every value, the sum and max − min are
 *   safe integers (|x| ≤ 2^53 − 1); otherwise the block has no stats;
 * - boolean and string blocks: none (the entry's count is always there).
 * `minIndex`/`maxIndex` locate the first occurrence (in ascending time) of the extreme inside
 * the block, so a selector can report its time by decoding only the block's timestamps.
 */
import { FieldType } from '../point.js';
import type { ValueColumn } from '../point.js';

export interface BlockStats {
  readonly min: number;
  readonly max: number;
  /** Positions in the block (ascending time) of the first minimum and the first maximum. */
  readonly minIndex: number;
  readonly maxIndex: number;
  /** Exact sum; present for integer and unsigned blocks only. */
  readonly sum?: number;
}

/** Block types that may carry stats, and whether they carry a sum. */
export function statsShape(type: FieldType): 'none' | 'minmax' | 'minmax-sum' {
  if (type === FieldType.Float) return 'minmax';
  if (type === FieldType.Integer || type === FieldType.Unsigned) return 'minmax-sum';
  return 'none';
}

/** Stats of values [start, end) of `column`, or undefined when the type or values do not allow them. */
export function columnStats(column: ValueColumn, start: number, end: number): BlockStats | undefined {
  const shape = statsShape(column.type);
  const values = column.values;
  if (shape === 'none' || end <= start || !(values instanceof Float64Array)) return undefined;
  let min = values[start]!;
  let max = min;
  let minIndex = 0;
  let maxIndex = 0;
  let sum = 0;
  for (let i = start; i < end; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) return undefined;
    if (v < min) {
      min = v;
      minIndex = i - start;
    } else if (v > max) {
      max = v;
      maxIndex = i - start;
    }
    sum += v;
    // Every partial sum must be exact for the total to be (the value column may be any length).
    if (sum > Number.MAX_SAFE_INTEGER || sum < -Number.MAX_SAFE_INTEGER) sum = NaN;
  }
  if (shape === 'minmax') return Number.isFinite(min) && Number.isFinite(max) ? { min, max, minIndex, maxIndex } : undefined;
  // Integer values arrive as doubles only while safe; the sum must stay exact too.
  if (![min, max, max - min, sum].every(Number.isSafeInteger)) return undefined;
  return { min, max, minIndex, maxIndex, sum };
}
