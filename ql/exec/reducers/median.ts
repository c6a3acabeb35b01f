/**
 * median(): always a float. Odd count: the middle value; even: lo + (hi - lo) / 2 with the
 * subtraction done in the input type (int64 wrap for integers), as 1.x MedianReduceSlice.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat, subInt } from '../value.js';
import type { IntValue, ResultRow } from '../value.js';
import { Collected } from './collect.js';
import { nthSmallestSteps } from './nth-smallest.js';
import { runSteps, runStepsPausing, type Steps } from '../steps.js';
import type { Reducer } from './types.js';

interface Middle {
  readonly k: number;
  readonly mid: number;
  readonly below: number;
}

export class MedianReducer implements Reducer {
  readonly name = 'median';
  readonly outputType = FieldType.Float;
  private readonly pts = new Collected();

  constructor(private readonly inputType: FieldType) {}

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  /** The middle value (and for an even count the one below it) found ahead of result(); null: not all numbers, or NaN. */
  #middle: Middle | null | undefined;

  /** Selecting the middle of 10M points takes a few hundred ms: done ahead, in steps (Reducer.prepare). */
  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.pts.length > 0) this.#middle = await runStepsPausing(this.#middleSteps(), pause);
  }

  /**
   * The middle one or two values by selection, not a sort (10M points held the loop ~2 s):
   * after it, everything before the k-th is no larger, so the (k-1)-th is their maximum.
   */
  *#middleSteps(): Steps<Middle | null> {
    const fast = this.pts.numbersCopy();
    if (fast === null) return null;
    const n = fast.length;
    const k = Math.floor(n / 2);
    const mid = yield* nthSmallestSteps(fast, k);
    let below = -Infinity;
    if (n % 2 === 0) for (let i = 0; i < k; i++) if (fast[i]! > below) below = fast[i]!;
    return { k, mid, below };
  }

  result(): ResultRow[] {
    const n = this.pts.length;
    if (n === 0) return [];
    const middle = this.#middle !== undefined ? this.#middle : runSteps(this.#middleSteps());
    let at: (k: number) => IntValue;
    if (middle !== null) {
      at = (i) => (i === middle.k ? middle.mid : middle.below);
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
