/** sum(): float sum in point order; integer/unsigned sums wrap around like Go int64/uint64. */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { IntValue, ResultRow } from '../value.js';
import { IntSum } from './intsum.js';
import type { BatchStats, StatsReducer } from './types.js';

export class SumReducer implements StatsReducer {
  readonly name = 'sum';
  readonly outputType: FieldType;
  private fsum = 0;
  private readonly isum: IntSum | null;
  private n = 0;

  constructor(inputType: FieldType) {
    this.outputType = inputType;
    this.isum = inputType === FieldType.Float ? null : new IntSum(inputType === FieldType.Unsigned);
  }

  add(_base: bigint, _offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    this.n += to - from;
    if (column.type === FieldType.Float) {
      let s = this.fsum;
      const v = column.values;
      for (let i = from; i < to; i++) s += v[i] as number;
      this.fsum = s;
    } else if (column.type === FieldType.Integer || column.type === FieldType.Unsigned) {
      this.isum?.addColumn(column.values, from, to);
    }
  }

  /** The batch's sum is added as one term (for floats the order of additions then differs). */
  addStats(stats: BatchStats): void {
    if (stats.count === 0) return;
    this.n += stats.count;
    const s = stats.sum ?? 0;
    if (this.isum) this.isum.add(s);
    else this.fsum += Number(s);
  }

  /** Points added so far. */
  get count(): number {
    return this.n;
  }

  /** The running sum in the input's type (wrapped int64/uint64 for integers). */
  total(): IntValue {
    return this.isum ? this.isum.value() : this.fsum;
  }

  result(): ResultRow[] {
    if (this.n === 0) return [];
    return [{ value: this.total() }];
  }
}
