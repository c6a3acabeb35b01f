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
  /** The replay's answer, made ahead of result() with pauses. */
  #prepared: { readonly value: Scalar } | undefined;

  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.pts.length <= 1 || this.outputType === FieldType.Boolean) return;
    await this.pts.prepareSortedNumbers(pause);
    if (this.#uniqueMode() !== undefined) return;
    await this.pts.prepareSortedByValue(this.descending, pause);
    const replay = new ModeReplay(this.pts, this.pts.goSortedByValue(this.descending));
    while (!replay.step(REPLAY_STEP)) {
      const wait = pause();
      if (wait) await wait;
    }
    this.#prepared = { value: replay.mode };
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
    if (this.#prepared) return [{ value: this.#prepared.value }];
    const replay = new ModeReplay(pts, pts.goSortedByValue(this.descending));
    replay.step(Infinity);
    return [{ value: replay.mode }];
  }
}

/** Points replayed between pauses (~5 ms). */
const REPLAY_STEP = 1 << 16;

/** 1.x's ModeReduceSlice over the points in sorted order, resumable in steps. */
class ModeReplay {
  #k = 0;
  #mostFreq = 0;
  #currFreq = 0;
  #currMode: Scalar;
  #mostMode: Scalar;
  #mostAt: number;
  #currAt: number;

  constructor(
    private readonly pts: Collected,
    private readonly idx: Int32Array,
  ) {
    const i0 = idx[0]!;
    this.#currMode = this.#mostMode = pts.value(i0);
    this.#mostAt = this.#currAt = i0;
  }

  get mode(): Scalar {
    return this.#mostMode;
  }

  /** Replays up to `budget` points; true when all are done. */
  step(budget: number): boolean {
    const { pts, idx } = this;
    const end = Math.min(idx.length, this.#k + budget);
    for (let k = this.#k; k < end; k++) {
      const i = idx[k]!;
      const x = pts.value(i);
      if (x !== this.#currMode) {
        this.#currFreq = 1;
        this.#currMode = x;
        this.#currAt = i;
        continue;
      }
      this.#currFreq++;
      if (this.#mostFreq > this.#currFreq || (this.#mostFreq === this.#currFreq && pts.compareTime(this.#currAt, this.#mostAt) > 0)) continue;
      this.#mostFreq = this.#currFreq;
      this.#mostMode = x;
      this.#mostAt = i;
    }
    this.#k = end;
    return end === idx.length;
  }
}
