/**
 * median(): always a float. Odd count: the middle value; even: lo + (hi - lo) / 2 with the
 * subtraction done in the input type (int64 wrap for integers), as 1.x MedianReduceSlice.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat, subInt } from '../value.js';
import type { IntValue, ResultRow } from '../value.js';
import { Collected } from './collect.js';
import { nthSmallest } from './nth-smallest.js';
import type { Reducer } from './types.js';

export class MedianReducer implements Reducer {
  readonly name = 'median';
  readonly outputType = FieldType.Float;
  private readonly pts = new Collected();

  constructor(private readonly inputType: FieldType) {}

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  result(): ResultRow[] {
    const n = this.pts.length;
    if (n === 0) return [];
    const fast = this.pts.numbersCopy();
    let at: (k: number) => IntValue;
    if (fast !== null) {
      // The middle one or two values by selection, not a sort (10M points held the loop ~2 s):
      // after it, everything before the k-th is no larger, so the (k-1)-th is their maximum.
      const k = Math.floor(n / 2);
      const mid = nthSmallest(fast, k);
      let below = -Infinity;
      if (n % 2 === 0) for (let i = 0; i < k; i++) if (fast[i]! > below) below = fast[i]!;
      at = (i) => (i === k ? mid : below);
    } else {
      const idx = this.pts.numeric ? this.pts.goSortedByValue() : this.pts.sortedByValue();
      at = (k) => this.pts.value(idx[k] as number) as IntValue;
    }
    if (n % 2 === 1) return [{ value: intToFloat(at((n - 1) / 2)) }];
    const lo = at(n / 2 - 1);
    const hi = at(n / 2);
    if (this.inputType === FieldType.Float) return [{ value: (lo as number) + ((hi as number) - (lo as number)) / 2 }];
    const diff = subInt(hi, lo, this.inputType === FieldType.Unsigned);
    return [{ value: intToFloat(lo) + intToFloat(diff) / 2 }];
  }
}
