/**
 * mode(): the most frequent value, in the input type, every type accepted.
 *
 * 1.x ModeReduceSlice walks the values sorted ascending (equal values in time order). A value
 * becomes the mode when its run count exceeds the current best, or equals it while the run's
 * first point is not later than the point where the current mode reached that count. The
 * first point of each run is not examined (so ties between values seen once keep the
 * smallest). Booleans: true unless false is strictly more frequent.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { ResultRow, Scalar } from '../value.js';
import { Collected } from './collect.js';
import type { Reducer } from './types.js';

export class ModeReducer implements Reducer {
  readonly name = 'mode';
  readonly outputType: FieldType;
  private readonly pts = new Collected();

  constructor(inputType: FieldType) {
    this.outputType = inputType;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  result(): ResultRow[] {
    const n = this.pts.length;
    if (n === 0) return [];
    const v = this.pts.values;
    if (n === 1) return [{ value: v[0] ?? null }];
    if (this.outputType === FieldType.Boolean) {
      let t = 0;
      for (const x of v) if (x === true) t++;
      return [{ value: t >= n - t }];
    }
    const idx = this.pts.sortedByValue();
    const i0 = idx[0] as number;
    let mostFreq = 0;
    let currFreq = 0;
    let currMode: Scalar = v[i0] ?? null;
    let mostMode: Scalar = currMode;
    let mostAt = i0; // index of the point whose time is mostTime
    let currAt = i0;
    for (const i of idx) {
      const x = v[i] ?? null;
      if (x !== currMode) {
        currFreq = 1;
        currMode = x;
        currAt = i;
        continue;
      }
      currFreq++;
      if (mostFreq > currFreq || (mostFreq === currFreq && this.pts.compareTime(currAt, mostAt) > 0)) continue;
      mostFreq = currFreq;
      mostMode = x;
      mostAt = i;
    }
    return [{ value: mostMode }];
  }
}
