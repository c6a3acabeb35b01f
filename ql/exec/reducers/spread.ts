/** spread(): max - min in the input type; integer/unsigned results wrap like Go int64/uint64. */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { numAt, subInt } from '../value.js';
import type { IntValue, ResultRow } from '../value.js';
import type { Reducer } from './types.js';

export class SpreadReducer implements Reducer {
  readonly name = 'spread';
  readonly outputType: FieldType;
  private has = false;
  private min: number | bigint = 0;
  private max: number | bigint = 0;

  constructor(inputType: FieldType) {
    this.outputType = inputType;
  }

  add(_base: bigint, _offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    let lo = this.has ? this.min : numAt(column, from);
    let hi = this.has ? this.max : lo;
    if (column.values instanceof Float64Array) {
      const v = column.values;
      let l = lo as number;
      let h = hi as number;
      if (typeof lo === 'bigint' || typeof hi === 'bigint') {
        for (let i = from; i < to; i++) {
          const x = v[i] as number;
          if (x < lo) lo = x;
          if (x > hi) hi = x;
        }
      } else {
        for (let i = from; i < to; i++) {
          const x = v[i] as number;
          if (x < l) l = x;
          else if (x !== x) l = h = NaN; // NaN from a subquery's math: Go's math.Min/Max keep it
          if (x > h) h = x;
        }
        lo = l;
        hi = h;
      }
    } else {
      for (let i = from; i < to; i++) {
        const x = numAt(column, i);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
    this.has = true;
    this.min = lo;
    this.max = hi;
  }

  result(): ResultRow[] {
    if (!this.has) return [];
    if (this.outputType === FieldType.Float) return [{ value: (this.max as number) - (this.min as number) }];
    return [{ value: subInt(this.max as IntValue, this.min as IntValue, this.outputType === FieldType.Unsigned) }];
  }
}
