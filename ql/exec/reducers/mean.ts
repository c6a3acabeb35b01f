/**
 * mean(): always a float. Float: sum in point order / count. Integer and unsigned: the sum is
 * accumulated as Go int64/uint64 (wrapping) and converted once: float64(sum) / float64(count).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat } from '../value.js';
import type { ResultRow } from '../value.js';
import { SumReducer } from './sum.js';
import type { BatchStats, StatsReducer } from './types.js';

export class MeanReducer implements StatsReducer {
  readonly name = 'mean';
  readonly outputType = FieldType.Float;
  /** mean = sum / count: the sum keeps the input's arithmetic (float, or wrapping int64/uint64). */
  private readonly sum: SumReducer;

  constructor(inputType: FieldType) {
    this.sum = new SumReducer(inputType);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.sum.add(base, offsets, column, from, to);
  }

  addStats(stats: BatchStats): void {
    this.sum.addStats(stats);
  }

  result(): ResultRow[] {
    const n = this.sum.count;
    if (n === 0) return [];
    return [{ value: intToFloat(this.sum.total()) / n }];
  }
}
