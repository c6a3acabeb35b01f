/** count(): number of points, an integer (1.x counts every type). */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { ResultRow } from '../value.js';
import type { BatchStats, StatsReducer } from './types.js';

export class CountReducer implements StatsReducer {
  readonly name = 'count';
  readonly outputType = FieldType.Integer;
  private n = 0;

  add(_base: bigint, _offsets: Float64Array, _column: ValueColumn, from: number, to: number): void {
    if (to > from) this.n += to - from;
  }

  addStats(stats: BatchStats): void {
    this.n += stats.count;
  }

  /** 1.x emits count 0 only through fill; an empty group has no row. */
  result(): ResultRow[] {
    return this.n === 0 ? [] : [{ value: this.n }];
  }
}
