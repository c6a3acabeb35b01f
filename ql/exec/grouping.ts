/**
 * GROUP BY time aggregation of one series (or one merged group of series): splits batches into
 * window runs and keeps one reducer per window, in the order windows are first seen (time
 * order for time-ordered input). Batch statistics can be used when a whole block lies in one
 * window.
 */
import type { ValueColumn } from '../../engine/index.js';
import type { BatchStats, Reducer, StatsReducer } from './reducers/index.js';
import type { ResultRow } from './value.js';
import { forEachWindowRun, window } from './window.js';
import type { WindowSpec } from './window.js';

export interface WindowResult {
  /** Window start (the label 1.x prints for aggregates). */
  start: bigint;
  rows: ResultRow[];
}

export class WindowedAggregator {
  private readonly reducers = new Map<bigint, Reducer>();

  constructor(
    private readonly spec: WindowSpec,
    private readonly make: () => Reducer,
  ) {}

  private reducerFor(start: bigint): Reducer {
    let r = this.reducers.get(start);
    if (r === undefined) {
      r = this.make();
      this.reducers.set(start, r);
    }
    return r;
  }

  /** Aggregate points from..to of a time-ordered batch (time = base + offsets[i]). */
  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    forEachWindowRun(base, offsets, from, to, this.spec, (start, _end, f, t) => this.reducerFor(start).add(base, offsets, column, f, t));
  }

  /**
   * Use a block's statistics when the block [firstTime, lastTime] lies in one window and the
   * reducer supports them; returns false (nothing consumed) otherwise, and the caller feeds
   * the decoded values with add().
   */
  addStats(firstTime: bigint, lastTime: bigint, stats: BatchStats): boolean {
    const w = window(firstTime, this.spec);
    if (lastTime >= w.end) return false;
    const existing = this.reducers.get(w.start);
    const r = existing ?? this.make();
    if (!('addStats' in r)) return false;
    if (existing === undefined) this.reducers.set(w.start, r);
    (r as StatsReducer).addStats(stats);
    return true;
  }

  /** Per-window results in window order (windows whose reducer returned nothing included). */
  results(): WindowResult[] {
    const out: WindowResult[] = [];
    for (const [start, r] of this.reducers) out.push({ start, rows: r.result() });
    out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    return out;
  }
}

/**
 * The rows of a GROUP BY time result as 1.x emits them before fill: every row is labelled with
 * its window start, except top/bottom (and sample) rows which keep their points' times. When
 * the first window's reducer returned nothing (percentile out of range) 1.x sees an exhausted
 * iterator and the series is empty; later empty windows are simply absent.
 */
export function windowRows(results: readonly WindowResult[], fn: string): { time: bigint; value: ResultRow['value'] }[] {
  const keepTime = fn === 'top' || fn === 'bottom' || fn === 'sample';
  const out: { time: bigint; value: ResultRow['value'] }[] = [];
  for (const w of results) {
    if (w.rows.length === 0 && out.length === 0) return [];
    for (const r of w.rows) out.push({ time: keepTime && r.time !== undefined ? r.time : w.start, value: r.value });
  }
  return out;
}
