/**
 * stddev() with GROUP BY time over several stored series. 1.x cannot push stddev down per
 * series: each shard merges the group's series into one time-ordered stream through Go's heap
 * (one sorted merge per shard, over the whole query range), and the windows are cut from that
 * stream. Which series' point comes first at a shared timestamp therefore depends on the state
 * the heap was left in by the earlier windows, not on the window alone, and with large values
 * the order shows in the last bits (seed 2802 `i0077`: 1.6.7 takes `host=b` before `host=a`
 * at 00:00:50 after merging from 00:00:00; a heap started at the window's own 00:00:30 takes
 * `a` first). The stream keeps the group's points per shard, merges each shard once, and
 * answers every window from its slice of that order.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import type { ResultRow } from '../value.js';
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import { deviationSteps, valueAt } from './stddev.js';
import { runSteps } from '../steps.js';
import type { Reducer } from './types.js';

export class StddevStream {
  /** Points by shard (the clock's shard base), each shard in the order its batches came. */
  readonly #shards = new Map<bigint, Collected>();
  /** Each shard's arrival order (oldest shard first; newest first under DESC), made once. */
  #merged: { pts: Collected; order: Int32Array }[] | undefined;

  constructor(
    private readonly clock: PartialClock,
    private readonly newestFirst: boolean,
  ) {}

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    let pts = this.#shards.get(this.clock.shard);
    if (!pts) this.#shards.set(this.clock.shard, (pts = new Collected(this.clock)));
    pts.add(base, offsets, column, from, to);
    this.#merged = undefined;
  }

  /** Merging millions of points takes seconds: done ahead, in steps (Reducer.prepare). */
  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.#merged) return;
    for (const pts of this.#shards.values()) await pts.prepareArrival(this.newestFirst, pause);
    this.#merge();
  }

  #merge(): { pts: Collected; order: Int32Array }[] {
    const shards = [...this.#shards.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (this.newestFirst) shards.reverse();
    return (this.#merged ??= shards.map(([, pts]) => ({ pts, order: pts.arrivalOrder(this.newestFirst) })));
  }

  /** The window [start, end)'s deviation: its points in the order 1.x's merge gave them. */
  result(start: bigint, end: bigint): ResultRow[] {
    const slices: { pts: Collected; order: Int32Array; from: number; to: number }[] = [];
    let n = 0;
    for (const { pts, order } of this.#merge()) {
      // The order is by time (newest first under DESC): the window is one slice of it.
      const from = this.#firstAt(pts, order, this.newestFirst ? end - 1n : start);
      const to = this.#firstAt(pts, order, this.newestFirst ? start - 1n : end);
      if (to > from) slices.push({ pts, order, from, to });
      n += to - from;
    }
    if (n === 0) return [];
    // NaN, not a missing value: fill() keeps the row and transforms carry NaN on (1.x).
    if (n < 2) return [{ value: NaN }];
    const xs = new Float64Array(n);
    let k = 0;
    for (const s of slices) for (let i = s.from; i < s.to; i++) xs[k++] = valueAt(s.pts, s.order[i]!);
    return [{ value: runSteps(deviationSteps(n, (j) => xs[j]!)) }];
  }

  /** The first position of `order` past `t` in its direction (at or after; at or before under DESC). */
  #firstAt(pts: Collected, order: Int32Array, t: bigint): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const time = pts.time(order[mid]!);
      const before = this.newestFirst ? time > t : time < t;
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The reducer of the window [start, end): its points go into the stream. */
  windowView(outputType: FieldType, start: bigint, end: bigint): Reducer {
    return {
      name: 'stddev',
      outputType,
      add: (base, offsets, column, from, to) => this.add(base, offsets, column, from, to),
      result: () => this.result(start, end),
      prepare: (pause) => this.prepare(pause),
    };
  }
}
