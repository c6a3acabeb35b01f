/**
 * integral(x[, unit]): area under the series by the trapezoid rule, in value x unit (default
 * 1s), always a float. Like 1.x it is a *stream* over the whole series, not a per-window
 * reducer: feed every point of the series in time order; with GROUP BY time, the segment that
 * crosses a window end is split at the end by linear interpolation and each window's sum is
 * emitted with the window start as its time. 1.x quirks reproduced on purpose:
 *  - the segment after a crossing is attributed to the window of the point that ends it, even
 *    when empty windows lie between (and empty windows give no row, fill does not apply);
 *  - integer/unsigned input: after a crossing, the next trapezoid uses the interpolated value
 *    and the *previous point's original* value (the Go IntegerIntegralReducer does this);
 *  - without GROUP BY time, float input is labelled time 0 and integer input the query's
 *    lower bound (0 when unbounded); under ORDER BY time DESC the points are integrated
 *    newest first, giving the negated area, and integer input is labelled one ns past the
 *    upper bound (a point exactly at the lower bound then gives a second row, 0);
 *  - under ORDER BY time DESC with GROUP BY time the windows are labelled by their end;
 *  - a window whose only point lies exactly at its start emits nothing;
 *  - points sharing a time: the later one replaces the earlier.
 */
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat, numAt } from '../value.js';
import type { ResultRow } from '../value.js';
import { MIN_TIME, window } from '../window.js';
import type { WindowSpec } from '../window.js';
import type { Reducer } from './types.js';

export interface IntegralOptions {
  /** Unit in ns (default 1s). */
  unitNs?: bigint;
  /** GROUP BY time window, if any. */
  window?: WindowSpec | undefined;
  /** Query lower bound (1.x StartTime), for the label of integer input without GROUP BY time. */
  startNs?: bigint | undefined;
  /** ORDER BY time DESC: points arrive in descending time. */
  descending?: boolean;
  /**
   * Query upper bound (1.x EndTime). Without GROUP BY time under ORDER BY time DESC, 1.x
   * integrates newest first (a negative area) and labels integer input one ns past it.
   */
  endNs?: bigint | undefined;
  /**
   * The group has several series, fed one after the other: 1.x integrates their time-merged
   * stream as one series, so points are buffered and merged before integrating, in the order
   * of 1.x's merge heap (points sharing a time come in Go heap order, go-heap.ts).
   */
  merged?: boolean;
  /** Which series the points being added come from (for the merge order). */
  clock?: PartialClock;
  /**
   * A subquery's rows: 1.x reads them as one stream in the inner statement's order, so points
   * sharing a time keep the order they come in (the last one counts), not a merge heap's.
   */
  tiesAsGiven?: boolean;
}

function linear(wt: bigint, pt: bigint, nt: bigint, pv: number, nv: number): number {
  const m = (nv - pv) / Number(nt - pt);
  const x = Number(wt - pt);
  return m * x + pv;
}

export class IntegralReducer implements Reducer {
  readonly name = 'integral';
  readonly outputType = FieldType.Float;
  private readonly unit: number;
  private readonly isFloat: boolean;
  private readonly asc: boolean;
  private has = false;
  private prevT = 0n;
  private prevV = 0;
  private ws = 0n;
  private we = 0n;
  private sum = 0;
  private readonly rows: ResultRow[] = [];
  /** Points of a merged or newest-first stream, kept as typed columns (no bigint per point) until result(). */
  private readonly buffered: Collected | undefined;
  private done: ResultRow[] | undefined;
  /**
   * The last row came from 1.x's Close (the window open when the stream ended), not from a
   * window crossing: 1.x emits those rows of every series only after the whole input.
   */
  endsWithClose = false;

  constructor(
    inputType: FieldType,
    private readonly opts: IntegralOptions = {},
  ) {
    this.unit = Number(opts.unitNs ?? 1_000_000_000n);
    this.isFloat = inputType === FieldType.Float;
    this.asc = !opts.descending;
    // Under ORDER BY time DESC with GROUP BY time the stream runs newest first: the points
    // (added oldest first, series by series) are buffered and merged backwards.
    if (opts.merged || (opts.window !== undefined && !this.asc)) this.buffered = new Collected(opts.clock);
  }

  private setWindow(t: bigint): void {
    const spec = this.opts.window;
    if (spec === undefined) {
      if (!this.isFloat) {
        const s = this.opts.startNs ?? MIN_TIME;
        this.ws = !this.asc && this.opts.endNs !== undefined ? this.opts.endNs + 1n : s === MIN_TIME ? 0n : s;
        // 1.x's integer reducer keeps the whole range as its window: newest first, a point
        // exactly at the lower bound closes it and opens it again (a second row, 0).
        if (!this.asc) this.we = s;
      }
      return;
    }
    const w = window(t, spec);
    if (this.asc) [this.ws, this.we] = [w.start, w.end];
    else [this.ws, this.we] = [w.end, w.start];
  }

  /** Feed one point (times must be monotonic in the stream's direction). */
  point(t: bigint, v: number): void {
    if (!this.has) {
      this.has = true;
      this.prevT = t;
      this.prevV = v;
      this.setWindow(t);
      if (!this.isFloat && this.ws === MIN_TIME) this.ws = 0n;
      return;
    }
    if (t === this.prevT) {
      this.prevV = v;
      return;
    }
    let left = this.prevV; // value paired with prevV-side of the next trapezoid
    let cur = v;
    if ((this.opts.window !== undefined || (!this.isFloat && !this.asc)) && (this.asc ? t >= this.we : t <= this.we)) {
      if (this.prevT !== this.we) {
        const val = linear(this.we, this.prevT, t, this.prevV, v);
        this.sum += 0.5 * (val + this.prevV) * (Number(this.we - this.prevT) / this.unit);
        if (this.isFloat) left = val;
        else cur = val; // Go integer reducer: interpolated value replaces the current one
        this.prevT = this.we;
        if (this.isFloat) this.prevV = val;
      }
      this.rows.push({ time: this.ws, value: this.sum });
      this.setWindow(t);
      this.sum = 0;
    }
    this.sum += 0.5 * (cur + left) * (Number(t - this.prevT) / this.unit);
    this.prevT = t;
    this.prevV = v;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (this.buffered) return this.buffered.add(base, offsets, column, from, to);
    for (let i = from; i < to; i++) {
      const v = column.values instanceof Float64Array ? (column.values[i] as number) : intToFloat(numAt(column, i));
      this.point(base + BigInt(offsets[i] as number), v);
    }
  }

  /** The merge order of several series' buffered points, made ahead by prepare(). */
  private merged: Int32Array | undefined;
  /** How many of the merged points were integrated (by prepare(), in steps). */
  private replayed = 0;

  /**
   * Merging and integrating millions of buffered points takes seconds: done ahead, in steps
   * (Reducer.prepare), so that result() has nothing left but the open window.
   */
  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    const b = this.buffered;
    if (!b || this.done) return;
    if (!this.merged) {
      if (!this.opts.tiesAsGiven) await b.prepareArrival(!this.asc, pause);
      this.merged = this.#order(b);
    }
    while (!this.#replay(b, this.merged, REPLAY_STEP)) {
      const wait = pause();
      if (wait) await wait;
    }
  }

  /** The stream order of the buffered points: 1.x's merge heap, or a subquery's rows as they came. */
  #order(b: Collected): Int32Array {
    return this.opts.tiesAsGiven ? b.timeOrderAsGiven(this.asc) : b.arrivalOrder(!this.asc);
  }

  /** Integrates up to `budget` more merged points; true when all are done. */
  #replay(b: Collected, merged: Int32Array, budget: number): boolean {
    const end = Math.min(merged.length, this.replayed + budget);
    for (let k = this.replayed; k < end; k++) {
      const i = merged[k]!;
      this.point(b.time(i), intToFloat(b.value(i) as number | bigint));
    }
    this.replayed = end;
    return end === merged.length;
  }

  /** Rows plus the open window (1.x Close), after the last point; later calls repeat them. */
  result(): ResultRow[] {
    if (this.done) return this.done;
    const b = this.buffered;
    if (b && !this.merged) this.merged = this.#order(b);
    if (b) this.#replay(b, this.merged!, Infinity);
    const out = [...this.rows];
    this.endsWithClose = this.has && this.prevT !== this.ws;
    if (this.endsWithClose) out.push({ time: this.ws, value: this.sum });
    this.done = out;
    return out;
  }
}

/** Buffered points integrated between pauses (~10 ms). */
const REPLAY_STEP = 1 << 15;
