/**
 * Go's sort.Sort as built into influxd 1.6.7 (Go 1.19: pattern-defeating quicksort), on an
 * array with a `less` function. 1.x sorts points by value only (`floatPointsByValue`), and
 * sort.Sort is not stable for more than 12 elements, so which of several equal values ends up
 * where (the point percentile() returns, mode()'s tie-breaking) depends on this exact sequence
 * of comparisons and swaps. This implements the same algorithm step for step (insertion sort
 * up to 12 elements, ninther/median-of-three pivots with sortedness hints, partial insertion
 * sort, equal-partitioning, pattern breaking with xorshift seeded by the length, heapsort
 * fallback), so equal elements land where Go puts them.
 */
import { runSteps, runStepsPausing, type Steps } from './steps.js';

type Less<T> = (x: T, y: T) => boolean;

/** What the sort reads and swaps: an array, or a typed array of point indices (no copy into a JS array). */
export interface SortData<T> {
  [i: number]: T;
  readonly length: number;
}

/** A range still to sort, with the state Go's loop carries into it. */
interface Frame {
  readonly a: number;
  readonly b: number;
  readonly limit: number;
  readonly wasBalanced: boolean;
  readonly wasPartitioned: boolean;
}

const INCREASING = 1;
const DECREASING = 2;
const UNKNOWN = 0;

function bitsLen(n: number): number {
  return n <= 0 ? 0 : 32 - Math.clz32(n);
}

class Sorter<T> {
  constructor(
    private readonly d: SortData<T>,
    private readonly lt: Less<T>,
  ) {}

  less(i: number, j: number): boolean {
    return this.lt(this.d[i] as T, this.d[j] as T);
  }

  swap(i: number, j: number): void {
    const d = this.d;
    const t = d[i] as T;
    d[i] = d[j] as T;
    d[j] = t;
  }

  insertionSort(a: number, b: number): void {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && this.less(j, j - 1); j--) this.swap(j, j - 1);
  }

  siftDown(lo: number, hi: number, first: number): void {
    let root = lo;
    for (;;) {
      let child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && this.less(first + child, first + child + 1)) child++;
      if (!this.less(first + root, first + child)) return;
      this.swap(first + root, first + child);
      root = child;
    }
  }

  heapSort(a: number, b: number): void {
    const hi = b - a;
    for (let i = Math.floor((hi - 1) / 2); i >= 0; i--) this.siftDown(i, hi, a);
    for (let i = hi - 1; i >= 0; i--) {
      this.swap(a, a + i);
      this.siftDown(0, i, a);
    }
  }

  /**
   * One pass of pdqsort's loop over frame `f`: where Go recurses into the smaller side and loops
   * on the larger, both sides are pushed as frames (the larger one carrying the loop's state).
   * The ranges of frames are disjoint and each step reads outside its range only the element
   * before it (an earlier pivot, never moved again), so any order of frames sorts exactly as
   * Go's recursion does; a caller may stop between frames.
   */
  step(f: Frame, stack: Frame[]): void {
    let { a, limit } = f;
    const { b, wasBalanced, wasPartitioned } = f;
    const length = b - a;
    if (length <= 12) return this.insertionSort(a, b);
    if (limit === 0) return this.heapSort(a, b);
    if (!wasBalanced) {
      this.breakPatterns(a, b);
      limit--;
    }
    let [pivot, hint] = this.choosePivot(a, b);
    if (hint === DECREASING) {
      this.reverseRange(a, b);
      pivot = b - 1 - (pivot - a);
      hint = INCREASING;
    }
    if (wasBalanced && wasPartitioned && hint === INCREASING && this.partialInsertionSort(a, b)) return;
    if (a > 0 && !this.less(a - 1, pivot)) {
      a = this.partitionEqual(a, b, pivot);
      stack.push({ a, b, limit, wasBalanced, wasPartitioned });
      return;
    }
    const [mid, already] = this.partition(a, b, pivot);
    const threshold = Math.floor(length / 8);
    if (mid - a < b - mid) {
      stack.push({ a, b: mid, limit, wasBalanced: true, wasPartitioned: true });
      stack.push({ a: mid + 1, b, limit, wasBalanced: mid - a >= threshold, wasPartitioned: already });
    } else {
      stack.push({ a: mid + 1, b, limit, wasBalanced: true, wasPartitioned: true });
      stack.push({ a, b: mid, limit, wasBalanced: b - mid >= threshold, wasPartitioned: already });
    }
  }

  partition(a: number, b: number, pivot: number): [number, boolean] {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    while (i <= j && this.less(i, a)) i++;
    while (i <= j && !this.less(j, a)) j--;
    if (i > j) {
      this.swap(j, a);
      return [j, true];
    }
    this.swap(i, j);
    i++;
    j--;
    for (;;) {
      while (i <= j && this.less(i, a)) i++;
      while (i <= j && !this.less(j, a)) j--;
      if (i > j) break;
      this.swap(i, j);
      i++;
      j--;
    }
    this.swap(j, a);
    return [j, false];
  }

  partitionEqual(a: number, b: number, pivot: number): number {
    this.swap(a, pivot);
    let i = a + 1;
    let j = b - 1;
    for (;;) {
      while (i <= j && !this.less(a, i)) i++;
      while (i <= j && this.less(a, j)) j--;
      if (i > j) break;
      this.swap(i, j);
      i++;
      j--;
    }
    return i;
  }

  partialInsertionSort(a: number, b: number): boolean {
    let i = a + 1;
    for (let step = 0; step < 5; step++) {
      while (i < b && !this.less(i, i - 1)) i++;
      if (i === b) return true;
      if (b - a < 50) return false;
      this.swap(i, i - 1);
      if (i - a >= 2) {
        for (let j = i - 1; j >= 1; j--) {
          if (!this.less(j, j - 1)) break;
          this.swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (let j = i + 1; j < b; j++) {
          if (!this.less(j, j - 1)) break;
          this.swap(j, j - 1);
        }
      }
    }
    return false;
  }

  breakPatterns(a: number, b: number): void {
    const length = b - a;
    if (length < 8) return;
    let r = BigInt(length);
    const mask = BigInt((2 ** bitsLen(length)) - 1);
    const M = (1n << 64n) - 1n;
    const start = a + Math.floor(length / 4) * 2 - 1;
    for (let idx = start; idx <= start + 2; idx++) {
      r ^= (r << 13n) & M;
      r ^= r >> 17n;
      r ^= (r << 5n) & M;
      let other = Number(r & mask);
      if (other >= length) other -= length;
      this.swap(idx, a + other);
    }
  }

  choosePivot(a: number, b: number): [number, number] {
    const l = b - a;
    const sw = { n: 0 };
    let i = a + Math.floor(l / 4);
    let j = a + Math.floor(l / 4) * 2;
    let k = a + Math.floor(l / 4) * 3;
    if (l >= 8) {
      if (l >= 50) {
        i = this.median(i - 1, i, i + 1, sw);
        j = this.median(j - 1, j, j + 1, sw);
        k = this.median(k - 1, k, k + 1, sw);
      }
      j = this.median(i, j, k, sw);
    }
    return [j, sw.n === 0 ? INCREASING : sw.n === 12 ? DECREASING : UNKNOWN];
  }

  median(a: number, b: number, c: number, sw: { n: number }): number {
    if (this.less(b, a)) {
      [a, b] = [b, a];
      sw.n++;
    }
    if (this.less(c, b)) {
      [b, c] = [c, b];
      sw.n++;
    }
    if (this.less(b, a)) {
      [a, b] = [b, a];
      sw.n++;
    }
    return b;
  }

  reverseRange(a: number, b: number): void {
    for (let i = a, j = b - 1; i < j; i++, j--) this.swap(i, j);
  }
}

/** Sort `data` in place exactly as Go 1.19's sort.Sort would with this `less`. */
export function goSort<T>(data: SortData<T>, less: Less<T>): void {
  runSteps(sortSteps(data, less));
}

/**
 * goSort of millions of elements (seconds of comparisons): `pause` runs between steps (a query
 * checkpoint lets the event loop turn, a timeout or KILL QUERY stop the sort).
 */
export function goSortPausing<T>(data: SortData<T>, less: Less<T>, pause: () => Promise<void> | undefined): Promise<void> {
  return runStepsPausing(sortSteps(data, less), pause);
}

/** Runs the sort frame by frame, yielding after each. */
function* sortSteps<T>(data: SortData<T>, less: Less<T>): Steps<void> {
  if (data.length <= 1) return;
  const sorter = new Sorter(data, less);
  const stack = [firstFrame(data.length)];
  for (let f = stack.pop(); f; f = stack.pop()) {
    sorter.step(f, stack);
    yield;
  }
}

function firstFrame(n: number): Frame {
  return { a: 0, b: n, limit: bitsLen(n), wasBalanced: true, wasPartitioned: true };
}
