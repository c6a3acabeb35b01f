/**
 * Buffered points for the reducers that need the whole group (median, percentile, mode).
 * Numbers (floats and safe integers) are kept in a growable Float64Array so they can be
 * sorted natively; the first non-number value (string, boolean, integer beyond 2^53) switches
 * the buffer to a generic Scalar array. Times are (batch base, Float64 offset) pairs; a bigint
 * time is only built for the point a reducer returns.
 */
import type { ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { Scalar } from '../value.js';
import { goSort } from '../gosort.js';
import { heapMergeOrder, seriesRuns } from './merge-order.js';
import type { PartialClock } from './partials.js';
import { compareTimes } from './types.js';

function grow(a: Float64Array<ArrayBuffer>, need: number): Float64Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

export class Collected {
  private n = 0;
  private nums: Float64Array<ArrayBuffer> | null = new Float64Array(64);
  private vals: Scalar[] | null = null;
  private offs: Float64Array<ArrayBuffer> = new Float64Array(64);
  private batch: number[] = [];
  private readonly bases: bigint[] = [];
  /** Series of each batch (from the caller's clock), for 1.x's merge order of several series. */
  private readonly batchSeries: number[] = [];

  constructor(private readonly clock?: PartialClock) {}

  get length(): number {
    return this.n;
  }

  /** True while every value is a JS number (float or safe integer). */
  get numeric(): boolean {
    return this.nums !== null;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    const b = this.bases.length;
    this.bases.push(base);
    this.batchSeries.push(this.clock?.series ?? 0);
    const need = this.n + (to - from);
    this.offs = grow(this.offs, need);
    this.offs.set(offsets.subarray(from, to), this.n);
    for (let i = from; i < to; i++) this.batch.push(b);
    if (this.nums !== null && column.values instanceof Float64Array) {
      this.nums = grow(this.nums, need);
      this.nums.set(column.values.subarray(from, to), this.n);
      this.n = need;
      return;
    }
    if (this.nums !== null) {
      this.vals = Array.from(this.nums.subarray(0, this.n));
      this.nums = null;
    }
    const vals = this.vals as Scalar[];
    for (let i = from; i < to; i++) vals.push(cellAt(column, i));
    this.n = need;
  }

  value(i: number): Scalar {
    return this.nums !== null ? (this.nums[i] as number) : ((this.vals as Scalar[])[i] ?? null);
  }

  time(i: number): bigint {
    return (this.bases[this.batch[i] as number] as bigint) + BigInt(this.offs[i] as number);
  }

  compareTime(i: number, j: number): number {
    const bi = this.bases[this.batch[i] as number] as bigint;
    const bj = this.bases[this.batch[j] as number] as bigint;
    return compareTimes(bi, this.offs[i] as number, bj, this.offs[j] as number);
  }

  /**
   * Numeric fast path: the values sorted ascending (a copy). Null when not numeric, and when a
   * value is NaN (a window of one point's stddev() inside a subquery): Go's sort compares NaN
   * as neither less nor greater, which leaves it where the comparisons happen to put it and
   * moves other values around it, so only goSortedByValue() gives 1.x's order then.
   */
  sortedNumbers(): Float64Array | null {
    if (this.nums === null) return null;
    const sorted = this.nums.slice(0, this.n).sort();
    return this.n > 0 && Number.isNaN(sorted[this.n - 1]) ? null : sorted;
  }

  /** Indices of the points holding value v, in time order. */
  indicesOf(v: Scalar): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.n; i++) if (this.value(i) === v) out.push(i);
    return out.sort((a, b) => this.compareTime(a, b));
  }

  /**
   * Indices in the order 1.x's sort.Sort by value leaves them (Go's pdqsort on the points in
   * arrival order, comparing values only): the order equal values end up in is Go's.
   * `newestFirst`: the points arrived in reverse (ORDER BY time DESC in 1.x).
   */
  goSortedByValue(newestFirst = false): number[] {
    const idx = this.arrivalOrder(newestFirst);
    const nums = this.nums;
    if (nums !== null) goSort(idx, (x, y) => (nums[x] as number) < (nums[y] as number));
    else goSort(idx, (x, y) => compareScalar(this.value(x), this.value(y)) < 0);
    return idx;
  }

  /** The values in the order 1.x feeds them to its reducer (see arrivalOrder). */
  valuesInArrivalOrder(newestFirst = false): Scalar[] {
    return this.arrivalOrder(newestFirst).map((i) => this.value(i));
  }

  /**
   * The points in the order 1.x feeds them to its reducer: one series in time order (reversed
   * when `newestFirst`), several merged as 1.x's sorted merge does (merge-order.ts).
   */
  private arrivalOrder(newestFirst: boolean): number[] {
    const seriesOf = this.batch.map((b) => this.batchSeries[b]!);
    const before = newestFirst ? (i: number, j: number) => this.compareTime(i, j) > 0 : (i: number, j: number) => this.compareTime(i, j) < 0;
    return heapMergeOrder(seriesRuns(seriesOf, newestFirst), before, newestFirst);
  }

  /**
   * Indices sorted by value, equal values by time: what 1.x's sort by value gives for
   * time-ordered input (Go's sort is not stable for large groups; time order is the
   * deterministic choice).
   */
  sortedByValue(): number[] {
    const idx = Array.from({ length: this.n }, (_, i) => i);
    idx.sort((a, b) => compareScalar(this.value(a), this.value(b)) || this.compareTime(a, b));
    return idx;
  }
}
