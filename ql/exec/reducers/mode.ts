/**
 * mode(): the most frequent value, in the input type, every type accepted.
 *
 * Replays 1.x ModeReduceSlice over the points in the order Go's sort by value leaves them
 * (goSort): a run of equal values becomes the mode when its count exceeds the best so far, or
 * equals it while the run's first point (in that order) is not later than the point at which
 * the current mode last counted; the first point of each later run is not examined (so ties
 * between values seen once keep the smallest). Booleans: true unless false is strictly more
 * frequent.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { ResultRow, Scalar } from '../value.js';
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';

export class ModeReducer implements Reducer {
  readonly name = 'mode';
  readonly outputType: FieldType;
  private readonly pts: Collected;

  /** `clock`: which series points come from, so ties follow 1.x's merge order (merge-order.ts). */
  /** `descending`: ORDER BY time DESC feeds 1.x's unstable sort newest first, which moves ties. */
  constructor(
    inputType: FieldType,
    clock?: PartialClock,
    private readonly descending = false,
  ) {
    this.outputType = inputType;
    this.pts = new Collected(clock);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  /** The mode when no tie needs Go's sort order (Collected.uniqueMode); null: ties. */
  #unique: number | null | undefined;

  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.pts.length > 1 && this.outputType !== FieldType.Boolean && this.#uniqueMode() === undefined) await this.pts.prepareSortedByValue(this.descending, pause);
  }

  #uniqueMode(): number | undefined {
    if (this.#unique === undefined) this.#unique = this.pts.uniqueMode() ?? null;
    return this.#unique ?? undefined;
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
    const unique = this.#uniqueMode();
    if (unique !== undefined) return [{ value: unique }];
    const idx = pts.goSortedByValue(this.descending);
    const i0 = idx[0] as number;
    let mostFreq = 0;
    let currFreq = 0;
    let currMode: Scalar = pts.value(i0);
    let mostMode: Scalar = currMode;
    let mostAt = i0;
    let currAt = i0;
    for (const i of idx) {
      const x = pts.value(i);
      if (x !== currMode) {
        currFreq = 1;
        currMode = x;
        currAt = i;
        continue;
      }
      currFreq++;
      if (mostFreq > currFreq || (mostFreq === currFreq && pts.compareTime(currAt, mostAt) > 0)) continue;
      mostFreq = currFreq;
      mostMode = x;
      mostAt = i;
    }
    return [{ value: mostMode }];
  }
}
