/**
 * mean(): always a float. Float: sum in point order / count. Integer and unsigned: the sum is
 * accumulated as Go int64/uint64 (wrapping) and converted once: float64(sum) / float64(count).
 * With a partial clock, each series and shard gets its own mean first and those are merged by
 * count, as 1.x does (partials.ts).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat } from '../value.js';
import type { ResultRow } from '../value.js';
import { SumReducer } from './sum.js';
import { Partials, type PartialClock } from './partials.js';
import type { BatchStats, StatsReducer } from './types.js';

export class MeanReducer implements StatsReducer {
  readonly name = 'mean';
  readonly outputType = FieldType.Float;
  /** mean = sum / count: the sum keeps the input's arithmetic (float, or wrapping int64/uint64). */
  private sum: SumReducer;
  private readonly partials: Partials | null;

  constructor(
    private readonly inputType: FieldType,
    clock?: PartialClock,
    /** ORDER BY time DESC: a partial's points are added newest first (sum.ts). */
    private readonly newestFirst = false,
  ) {
    this.sum = new SumReducer(inputType, undefined, newestFirst);
    this.partials = clock ? new Partials(clock, true) : null;
  }

  /** Close the running partial when the points now come from another series or shard. */
  private sync(): void {
    const p = this.partials;
    if (!p) return;
    const shard = p.currentShard;
    if (!p.moved()) return;
    p.fold(intToFloat(this.sum.total()), this.sum.count, shard);
    this.sum = new SumReducer(this.inputType, undefined, this.newestFirst);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    this.sync();
    this.sum.add(base, offsets, column, from, to);
  }

  addStats(stats: BatchStats): void {
    if (stats.count === 0) return;
    this.sync();
    this.sum.addStats(stats);
  }

  result(): ResultRow[] {
    const n = this.sum.count;
    if (this.partials) {
      const mean = this.partials.result(intToFloat(this.sum.total()), n);
      return mean === undefined ? [] : [{ value: mean }];
    }
    if (n === 0) return [];
    return [{ value: intToFloat(this.sum.total()) / n }];
  }
}
