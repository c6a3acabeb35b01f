/**
 * mode(): the most frequent value, in the input type, every type accepted.
 *
 * 1.x ModeReduceSlice walks the values sorted ascending (equal values in time order). The
 * smallest value's run is counted in full and becomes the mode; every later run whose first
 * point is skipped by the Go loop can take over when its count exceeds the current best, or
 * equals it while the run's earliest point is not later than the point at which the current
 * mode reached its count (its latest point). Hence ties between values seen once keep the
 * smallest. This is evaluated per distinct value (count, earliest, latest) without sorting
 * the points. Booleans: true unless false is strictly more frequent.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { compareScalar } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { Collected } from './collect.js';
import type { Reducer } from './types.js';

interface Run {
  value: Scalar;
  count: number;
  first: number;
  last: number;
}

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
    const pts = this.pts;
    const n = pts.length;
    if (n === 0) return [];
    if (n === 1) return [{ value: pts.value(0) }];
    if (this.outputType === FieldType.Boolean) {
      let t = 0;
      for (let i = 0; i < n; i++) if (pts.value(i) === true) t++;
      return [{ value: t >= n - t }];
    }
    const runs = new Map<unknown, Run>();
    for (let i = 0; i < n; i++) {
      const v = pts.value(i);
      const key = typeof v === 'bigint' ? `n${v}` : v;
      const r = runs.get(key);
      if (r === undefined) runs.set(key, { value: v, count: 1, first: i, last: i });
      else {
        r.count++;
        if (pts.compareTime(i, r.first) < 0) r.first = i;
        if (pts.compareTime(i, r.last) >= 0) r.last = i;
      }
    }
    const ordered = [...runs.values()].sort((a, b) => compareScalar(a.value, b.value));
    const head = ordered[0] as Run;
    let mode = head;
    for (let j = 1; j < ordered.length; j++) {
      const r = ordered[j] as Run;
      if (r.count < 2) continue;
      if (r.count > mode.count || (r.count === mode.count && pts.compareTime(r.first, mode.last) <= 0)) mode = r;
    }
    return [{ value: mode.value }];
  }
}
