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
import { goSort, goSortPausing } from '../gosort.js';
import { heapMergeOrder, heapMergeOrderPausing, type SeriesRun } from './merge-order.js';
import { nthSmallestSteps } from './nth-smallest.js';
import { runSteps, runStepsPausing, type Steps } from '../steps.js';
import { sortNumbersPausing } from './sort-numbers-pausing.js';
import { GrowingArray } from './growing-array.js';
import type { PartialClock } from './partials.js';


const TWO_32 = 2 ** 32;
/** Values a scan reads between steps, less one (a mask: every 2^20). */
const SCAN_STEP = (1 << 20) - 1;

export class Collected {
  private n = 0;
  // The columns grow with their copies made ahead (growing-array.ts); the fields below are
  // their current buffers, for reads.
  #numsG: GrowingArray<Float64Array<ArrayBuffer>> | null = new GrowingArray((n) => new Float64Array(n));
  readonly #offsG = new GrowingArray((n) => new Float64Array(n));
  readonly #batchG = new GrowingArray((n) => new Int32Array(n));
  private nums: Float64Array<ArrayBuffer> | null = this.#numsG!.cur;
  private vals: Scalar[] | null = null;
  private offs: Float64Array<ArrayBuffer> = this.#offsG.cur;
  /** Batch of each point. */
  private batch: Int32Array<ArrayBuffer> = this.#batchG.cur;
  private readonly bases: bigint[] = [];
  /**
   * Each batch's base as its high and low 32 bits (floor(base / 2^32), base mod 2^32): times of
   * points in different batches are compared with float arithmetic, exact for any int64,
   * instead of a bigint per comparison (a group of 10M points from 100 series made ~10^8 of them).
   */
  private readonly baseHi: number[] = [];
  private readonly baseLo: number[] = [];
  /** Series of each batch (from the caller's clock), for 1.x's merge order of several series. */
  private readonly batchSeries: number[] = [];
  /** Index of each batch's first point. */
  private readonly batchStart: number[] = [];

  /** The arrival order computed ahead of result() (prepareArrival). */
  #arrival: { readonly newestFirst: boolean; readonly order: Int32Array } | undefined;
  /** goSortedByValue computed ahead of result() (prepareSortedByValue). */
  #byValue: { readonly newestFirst: boolean; readonly idx: Int32Array } | undefined;
  /** sortedNumbers computed ahead of result() (prepareSortedNumbers); null: not numeric or NaN. */
  #sortedNums: Float64Array<ArrayBuffer> | null | undefined;

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
    this.#arrival = undefined;
    this.#byValue = undefined;
    this.#sortedNums = undefined;
    const b = this.bases.length;
    this.bases.push(base);
    this.baseHi.push(Number(base >> 32n));
    this.baseLo.push(Number(BigInt.asUintN(32, base)));
    this.batchSeries.push(this.clock?.series ?? 0);
    this.batchStart.push(this.n);
    const added = to - from;
    const need = this.n + added;
    this.offs = this.#offsG.reserve(this.n, need);
    this.offs.set(offsets.subarray(from, to), this.n);
    this.batch = this.#batchG.reserve(this.n, need);
    this.batch.fill(b, this.n, need);
    this.#offsG.ahead(need, added);
    this.#batchG.ahead(need, added);
    if (this.nums !== null && column.values instanceof Float64Array) {
      this.nums = this.#numsG!.reserve(this.n, need);
      this.nums.set(column.values.subarray(from, to), this.n);
      this.#numsG!.ahead(need, added);
      this.n = need;
      return;
    }
    if (this.nums !== null) {
      this.vals = Array.from(this.nums.subarray(0, this.n));
      this.nums = null;
      this.#numsG = null;
    }
    const vals = this.vals as Scalar[];
    for (let i = from; i < to; i++) vals.push(cellAt(column, i));
    this.n = need;
  }

  value(i: number): Scalar {
    return this.nums !== null ? (this.nums[i] as number) : ((this.vals as Scalar[])[i] ?? null);
  }

  time(i: number): bigint {
    return (this.bases[this.batch[i]!] as bigint) + BigInt(this.offs[i] as number);
  }

  /** Sign of time(i) - time(j). */
  compareTime(i: number, j: number): number {
    const bi = this.batch[i]!;
    const bj = this.batch[j]!;
    const oi = this.offs[i]!;
    const oj = this.offs[j]!;
    if (bi === bj) return oi - oj;
    // base + off split at bit 32; offsets are integers below 2^53, so every step is exact.
    const hiI = Math.floor(oi / TWO_32);
    const hiJ = Math.floor(oj / TWO_32);
    const loI = this.baseLo[bi]! + (oi - hiI * TWO_32);
    const loJ = this.baseLo[bj]! + (oj - hiJ * TWO_32);
    const carryI = loI >= TWO_32 ? 1 : 0;
    const carryJ = loJ >= TWO_32 ? 1 : 0;
    const d = this.baseHi[bi]! + hiI + carryI - (this.baseHi[bj]! + hiJ + carryJ);
    return d !== 0 ? d : loI - carryI * TWO_32 - (loJ - carryJ * TWO_32);
  }

  /**
   * Numeric fast path: the values sorted ascending (a copy). Null when not numeric, and when a
   * value is NaN (a window of one point's stddev() inside a subquery): Go's sort compares NaN
   * as neither less nor greater, which leaves it where the comparisons happen to put it and
   * moves other values around it, so only goSortedByValue() gives 1.x's order then.
   */
  sortedNumbers(): Float64Array | null {
    if (this.#sortedNums !== undefined) return this.#sortedNums;
    if (this.nums === null) return null;
    return this.#withoutNaN(this.nums.slice(0, this.n).sort());
  }

  /** sortedNumbers of a complete group, made ahead of result() with pauses (sort-numbers-pausing.ts). */
  async prepareSortedNumbers(pause: () => Promise<void> | undefined): Promise<void> {
    if (this.#sortedNums !== undefined) return;
    this.#sortedNums = this.nums === null ? null : this.#withoutNaN(await sortNumbersPausing(this.nums.slice(0, this.n), pause));
  }

  #withoutNaN(sorted: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> | null {
    return this.n > 0 && Number.isNaN(sorted[this.n - 1]) ? null : sorted;
  }

  /** A copy of the values when all are numbers and none is NaN (for a selection); null otherwise. */
  numbersCopy(): Float64Array | null {
    if (this.nums === null) return null;
    const values = this.nums.slice(0, this.n);
    for (let i = 0; i < values.length; i++) if (Number.isNaN(values[i])) return null;
    return values;
  }

  /**
   * The point holding the `rank`-th smallest value (0-based) when no other point holds that
   * value: then no sort order decides which point it is, and a selection finds it in linear
   * time. Undefined when the value is shared, a value is not a number, or any is NaN (where
   * only Go's sort says what happens: goSortedByValue).
   */
  uniqueRankIndex(rank: number): number | undefined {
    return runSteps(this.#uniqueRankSteps(rank));
  }

  /** uniqueRankIndex of a complete group, in steps with `pause` between them (a 10M-point group's scans and selection take ~0.4 s). */
  prepareUniqueRankIndex(rank: number, pause: () => Promise<void> | undefined): Promise<number | undefined> {
    return runStepsPausing(this.#uniqueRankSteps(rank), pause);
  }

  *#uniqueRankSteps(rank: number): Steps<number | undefined> {
    if (rank < 0 || rank >= this.n || this.nums === null) return undefined;
    const values = this.nums.subarray(0, this.n);
    for (let i = 0; i < values.length; i++) {
      if (Number.isNaN(values[i])) return undefined;
      if ((i & SCAN_STEP) === SCAN_STEP) yield;
    }
    const v = yield* nthSmallestSteps(values.slice(), rank);
    let at = -1;
    for (let i = 0; i < values.length; i++) {
      if ((i & SCAN_STEP) === SCAN_STEP) yield;
      if (values[i] !== v) continue;
      if (at >= 0) return undefined;
      at = i;
    }
    return at;
  }

  /**
   * mode() when the most frequent value is the only one that frequent (or every value occurs
   * once: then 1.x's replay keeps the smallest): no tie for Go's sort order to break. Undefined
   * otherwise, for values that are not all numbers, or with NaN.
   */
  uniqueMode(): number | undefined {
    const sorted = this.sortedNumbers();
    if (sorted === null || sorted.length === 0) return undefined;
    let best = sorted[0]!;
    let bestCount = 0;
    let tied = false;
    for (let i = 0; i < sorted.length; ) {
      let j = i + 1;
      while (j < sorted.length && sorted[j] === sorted[i]) j++;
      const count = j - i;
      if (count > bestCount) [best, bestCount, tied] = [sorted[i]!, count, false];
      else if (count === bestCount) tied = true;
      i = j;
    }
    if (bestCount === 1) return sorted[0];
    // -0 and 0 are one value to the replay, which returns whichever point it stopped at.
    return tied || best === 0 ? undefined : best;
  }

  /**
   * Indices in the order 1.x's sort.Sort by value leaves them (Go's pdqsort on the points in
   * arrival order, comparing values only): the order equal values end up in is Go's.
   * `newestFirst`: the points arrived in reverse (ORDER BY time DESC in 1.x).
   */
  goSortedByValue(newestFirst = false): Int32Array {
    if (this.#byValue?.newestFirst === newestFirst) return this.#byValue.idx;
    const idx = this.arrivalOrder(newestFirst).slice();
    goSort(idx, this.#lessByValue());
    return idx;
  }

  /** goSortedByValue of a complete group, made ahead of result() with pauses (prepareArrival). */
  async prepareSortedByValue(newestFirst: boolean, pause: () => Promise<void> | undefined): Promise<void> {
    if (this.#byValue?.newestFirst === newestFirst) return;
    await this.prepareArrival(newestFirst, pause);
    const idx = this.arrivalOrder(newestFirst).slice();
    await goSortPausing(idx, this.#lessByValue(), pause);
    this.#byValue = { newestFirst, idx };
  }

  #lessByValue(): (x: number, y: number) => boolean {
    const nums = this.nums;
    if (nums !== null) return (x, y) => nums[x]! < nums[y]!;
    return (x, y) => compareScalar(this.value(x), this.value(y)) < 0;
  }

  /**
   * The points in the order 1.x feeds them to its reducer: one series in time order (reversed
   * when `newestFirst`), several merged as 1.x's sorted merge does (merge-order.ts).
   */
  arrivalOrder(newestFirst: boolean): Int32Array {
    if (this.#arrival?.newestFirst === newestFirst) return this.#arrival.order;
    return heapMergeOrder(this.seriesRuns(), this.#before(newestFirst), newestFirst);
  }

  /**
   * The arrival order of a group already complete, made ahead of result() with pauses: merging
   * millions of points from many series takes seconds, which must not hold the event loop.
   */
  async prepareArrival(newestFirst: boolean, pause: () => Promise<void> | undefined): Promise<void> {
    if (this.#arrival?.newestFirst === newestFirst) return;
    const order = await heapMergeOrderPausing(this.seriesRuns(), this.#before(newestFirst), newestFirst, newestFirst, pause);
    this.#arrival = { newestFirst, order };
  }

  /**
   * arrivalOrder with points sharing a time taken first from series `seriesBefore` puts
   * first (by the series the caller's clock gave them); other ties keep the heap's order.
   */
  arrivalOrderTied(newestFirst: boolean, seriesBefore: (a: number, b: number) => boolean): Int32Array {
    const before = this.#before(newestFirst);
    const seriesOf = (i: number): number => this.batchSeries[this.batch[i]!]!;
    return heapMergeOrder(this.seriesRuns(), (i, j) => before(i, j) || (this.compareTime(i, j) === 0 && seriesBefore(seriesOf(i), seriesOf(j))), newestFirst);
  }

  #before(newestFirst: boolean): (i: number, j: number) => boolean {
    return newestFirst ? (i, j) => this.compareTime(i, j) > 0 : (i, j) => this.compareTime(i, j) < 0;
  }

  /** The points fed series after series: [start, end) of each run of one series, in feeding order. */
  private seriesRuns(): SeriesRun[] {
    const runs: SeriesRun[] = [];
    const batches = this.bases.length;
    for (let b = 0, start = 0; b < batches; b++) {
      if (b + 1 < batches && this.batchSeries[b + 1] === this.batchSeries[b]) continue;
      const end = b + 1 < batches ? this.batchStart[b + 1]! : this.n;
      runs.push({ start, end });
      start = end;
    }
    return runs;
  }

  /** Indices in time order (newest first when not `ascending`), points sharing a time in the order they came. */
  timeOrderAsGiven(ascending: boolean): Int32Array {
    const d = ascending ? 1 : -1;
    const idx = Array.from({ length: this.n }, (_, i) => i);
    idx.sort((i, j) => d * this.compareTime(i, j) || i - j);
    return Int32Array.from(idx);
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
