/**
 * stddev(): sample standard deviation (divides by n - 1), always a float. 1.x computes the
 * mean incrementally (mean += (x - mean) / count), then sums squared deviations; fewer than
 * two points give NaN, which 1.x prints as null: the row is returned with a null value.
 *
 * Order matters for the last bits of a float result: 1.x cannot push stddev down per series,
 * so it reduces the window's points as its merge iterator yields them, in time order across
 * the series, points sharing a time in Go's heap order (merge-order.ts; with large integers
 * the last bits show).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat } from '../value.js';
import type { ResultRow } from '../value.js';
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';
import { runSteps, runStepsPausing, type Steps } from '../steps.js';

/** Points summed between steps, less one (a mask: every 2^20). */
const SUM_STEP = (1 << 20) - 1;

export class StddevReducer implements Reducer {
  readonly name = 'stddev';
  readonly outputType = FieldType.Float;
  private readonly pts: Collected;

  /**
   * `clock`: which series the points come from, for 1.x's merge order of several series;
   * `newestFirst`: ORDER BY time DESC (1.x feeds the points newest first).
   */
  constructor(
    private readonly clock?: PartialClock,
    private readonly newestFirst = false,
  ) {
    this.pts = new Collected(clock);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  /** The deviation computed ahead of result() (prepare). */
  #prepared: number | undefined;

  /** Ordering and summing 10M points takes seconds: done ahead, in steps (Reducer.prepare). */
  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.pts.length < 2) return;
    if (this.clock) await this.pts.prepareArrival(this.newestFirst, pause);
    this.#prepared = await runStepsPausing(this.#deviationSteps(), pause);
  }

  /** The points in 1.x's arrival order; without a clock (no series known), in time order. */
  private arrived(): ArrayLike<number> {
    const pts = this.pts;
    if (this.clock) return pts.arrivalOrder(this.newestFirst);
    return Array.from({ length: pts.length }, (_, i) => i).sort((i, j) => pts.compareTime(i, j));
  }

  result(): ResultRow[] {
    const n = this.pts.length;
    if (n === 0) return [];
    // NaN, not a missing value: fill() keeps the row and transforms carry NaN on (1.x).
    if (n < 2) return [{ value: NaN }];
    return [{ value: this.#prepared ?? runSteps(this.#deviationSteps()) }];
  }

  *#deviationSteps(): Steps<number> {
    const pts = this.pts;
    const order = this.arrived();
    return yield* deviationSteps(pts.length, (k) => valueAt(pts, order[k]!));
  }
}

/** A collected point as stddev() reads it: an integer through float64, as 1.x casts it. */
export function valueAt(pts: Collected, i: number): number {
  const v = pts.value(i);
  return typeof v === 'bigint' ? intToFloat(v) : (v as number);
}

/**
 * 1.x's sample deviation of the `n` values `x(0)`..`x(n - 1)` in the order given (at least two):
 * the mean incrementally, then the squared deviations summed.
 */
export function* deviationSteps(n: number, x: (k: number) => number): Steps<number> {
  // NaN values (stddev() of one point in a subquery's window) are skipped, as 1.x does,
  // after the two-point test in result() counted them.
  let mean = 0;
  let count = 0;
  for (let k = 0; k < n; k++) {
    if ((k & SUM_STEP) === SUM_STEP) yield;
    const v = x(k);
    if (Number.isNaN(v)) continue;
    count++;
    mean += (v - mean) / count;
  }
  let variance = 0;
  for (let k = 0; k < n; k++) {
    if ((k & SUM_STEP) === SUM_STEP) yield;
    const v = x(k);
    if (Number.isNaN(v)) continue;
    const d = v - mean;
    variance += d * d;
  }
  return Math.sqrt(variance / (count - 1));
}
