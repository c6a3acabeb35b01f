/**
 * mean(): always a float. Float: sum in point order / count. Integer and unsigned: the sum is
 * accumulated as Go int64/uint64 (wrapping) and converted once: float64(sum) / float64(count).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat } from '../value.js';
import type { ResultRow } from '../value.js';
import { IntSum } from './intsum.js';
import type { Reducer } from './types.js';

export class MeanReducer implements Reducer {
  readonly name = 'mean';
  readonly outputType = FieldType.Float;
  private fsum = 0;
  private readonly isum: IntSum | null;
  private n = 0;

  constructor(inputType: FieldType) {
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

  result(): ResultRow[] {
    if (this.n === 0) return [];
    const sum = this.isum ? intToFloat(this.isum.value()) : this.fsum;
    return [{ value: sum / this.n }];
  }
}
