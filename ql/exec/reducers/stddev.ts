/**
 * stddev(): sample standard deviation (divides by n - 1), always a float. 1.x computes the
 * mean incrementally (mean += (x - mean) / count), then sums squared deviations; fewer than
 * two points give NaN, which 1.x prints as null: the row is returned with a null value.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat, numAt } from '../value.js';
import type { ResultRow } from '../value.js';
import type { Reducer } from './types.js';

export class StddevReducer implements Reducer {
  readonly name = 'stddev';
  readonly outputType = FieldType.Float;
  private readonly xs: number[] = [];

  add(_base: bigint, _offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (column.values instanceof Float64Array) {
      const v = column.values;
      for (let i = from; i < to; i++) this.xs.push(v[i] as number);
    } else {
      for (let i = from; i < to; i++) this.xs.push(intToFloat(numAt(column, i)));
    }
  }

  result(): ResultRow[] {
    const xs = this.xs;
    if (xs.length === 0) return [];
    // NaN, not a missing value: fill() keeps the row and transforms carry NaN on (1.x).
    if (xs.length < 2) return [{ value: NaN }];
    let mean = 0;
    let count = 0;
    for (const x of xs) {
      count++;
      mean += (x - mean) / count;
    }
    let variance = 0;
    for (const x of xs) {
      const d = x - mean;
      variance += d * d;
    }
    return [{ value: Math.sqrt(variance / (count - 1)) }];
  }
}
