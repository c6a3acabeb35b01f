/**
 * sum() and mean() of float values over a subquery. For a measurement 1.x merges per-series,
 * per-shard partial sums (partials.ts); over a subquery it reduces the inner rows as one stream
 * (its callIterator wraps the subquery's var-ref iterator in a single call iterator), so the
 * float additions follow the order the outer statement receives the inner rows in:
 * - an inner aggregate without GROUP BY time: series after series;
 * - an inner aggregate with GROUP BY time: by time, rows sharing a time in series key order
 *   (also under ORDER BY time DESC, newest first);
 * - a raw inner statement: 1.x's sorted merge, a Go heap over the series by time
 *   (merge-order.ts).
 * Probed against 1.6.7 with values whose sum tells those orders apart (±1e17 beside 2.5).
 * mean() is that sum over the count: 1.x's second, merging mean layer (mean·n / n) gives the
 * same float. Integer input sums exactly (wrapping int64), so its order never shows.
 *
 * Memory: the order is followed for up to HELD_POINTS inner rows per call and window (~20 bytes
 * each). Past that the points held are added up as they came (series after series) and the
 * rest is added as it arrives: a statement's memory must not grow with the rows it scans, and
 * only the last bits of the float can differ from 1.x there.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { ResultRow } from '../value.js';
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';

/** The order a subquery's rows reach an outer aggregate in (see the file comment). */
export interface SubqueryRowOrder {
  readonly order: 'series' | 'time-then-series' | 'heap';
  /**
   * For 'heap': series (by the clock's index) whose rows sharing a time come in a fixed order,
   * the earlier first: lanes of one inner series keep the inner order (subquery-rows.ts).
   */
  readonly tieBefore?: (a: number, b: number) => boolean;
}

/** Inner rows whose arrival order a sum follows (about 20 MiB); more are added as they come. */
export const HELD_POINTS = 1 << 20;

export class StreamSumReducer implements Reducer {
  readonly outputType = FieldType.Float;
  /** The points, kept to be ordered at the end; null in series order (the order they are added in) or past HELD_POINTS. */
  private pts: Collected | null;
  private running = 0;
  private n = 0;
  /** The arrival order computed ahead of result() (prepare). */
  #order: ArrayLike<number> | undefined;

  /**
   * `clock`: the series the points being added come from (the caller feeds series after
   * series, in key order); `newestFirst`: ORDER BY time DESC.
   */
  constructor(
    readonly name: 'sum' | 'mean',
    private readonly rows: SubqueryRowOrder,
    private readonly newestFirst: boolean,
    clock: PartialClock,
    /** HELD_POINTS; smaller in tests. */
    private readonly heldPoints = HELD_POINTS,
  ) {
    this.pts = rows.order === 'series' ? null : new Collected(clock);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    this.#order = undefined;
    this.n += to - from;
    const pts = this.pts;
    if (pts) {
      if (pts.length + (to - from) <= this.heldPoints) {
        pts.add(base, offsets, column, from, to);
        return;
      }
      let s = this.running;
      for (let i = 0; i < pts.length; i++) s += pts.value(i) as number;
      this.running = s;
      this.pts = null;
    }
    const v = column.values;
    let s = this.running;
    for (let i = from; i < to; i++) s += v[i] as number;
    this.running = s;
  }

  /** Ordering millions of points from many series takes seconds: done ahead, with pauses (Reducer.prepare). */
  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    const { order, tieBefore } = this.rows;
    if (!this.pts || order !== 'heap' || tieBefore) return;
    await this.pts.prepareArrival(this.newestFirst, pause);
  }

  result(): ResultRow[] {
    const n = this.n;
    if (n === 0) return [];
    let sum = this.running;
    const pts = this.pts;
    if (pts) {
      const order = (this.#order ??= this.arrived(pts));
      sum = 0;
      for (let k = 0; k < n; k++) sum += pts.value(order[k]!) as number;
    }
    return [{ value: this.name === 'sum' ? sum : sum / n }];
  }

  private arrived(pts: Collected): ArrayLike<number> {
    const { order, tieBefore } = this.rows;
    if (order === 'time-then-series') return pts.timeOrderAsGiven(!this.newestFirst);
    return tieBefore ? pts.arrivalOrderTied(this.newestFirst, tieBefore) : pts.arrivalOrder(this.newestFirst);
  }
}
