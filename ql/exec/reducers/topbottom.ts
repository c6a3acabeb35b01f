/**
 * top(x, N) / bottom(x, N): the N largest / smallest points, numeric types only. Among equal
 * values the earlier point ranks higher. Output is ordered by time; points sharing a time come
 * best first (1.x's stable reverse time sort of the ranked points). Tag handling (one point
 * per tag value) is the planner's.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import { numAt } from '../value.js';
import type { ResultRow } from '../value.js';
import { compareTimes } from './types.js';
import type { Reducer } from './types.js';
import type { PartialClock } from './partials.js';

interface Cand {
  value: number | bigint;
  base: bigint;
  off: number;
  /** The point's series (the clock's at add()), so its auxiliary fields are its own. */
  series: number | undefined;
}

export class TopBottomReducer implements Reducer {
  readonly outputType: FieldType;
  /** Min-heap on rank: heap[0] is the worst kept point. */
  private readonly heap: Cand[] = [];

  constructor(
    readonly name: 'top' | 'bottom',
    inputType: FieldType,
    private readonly n: number,
    private readonly clock?: PartialClock,
  ) {
    this.outputType = inputType;
  }

  /**
   * > 0 when a ranks better than b. NaN (from a subquery's math) ranks neither better nor worse
   * than anything, as in 1.x's comparison of Go floats: the heap keeps it where it lands.
   */
  private rank(a: Cand, b: Cand): number {
    if (a.value !== b.value) {
      if (a.value !== a.value || b.value !== b.value) return 0;
      return (this.name === 'top' ? a.value > b.value : a.value < b.value) ? 1 : -1;
    }
    return -compareTimes(a.base, a.off, b.base, b.off);
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.rank(h[l] as Cand, h[m] as Cand) < 0) m = l;
      if (r < h.length && this.rank(h[r] as Cand, h[m] as Cand) < 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Cand, h[i] as Cand];
      i = m;
    }
  }

  private push(c: Cand): void {
    const h = this.heap;
    h.push(c);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.rank(h[i] as Cand, h[p] as Cand) >= 0) return;
      [h[i], h[p]] = [h[p] as Cand, h[i] as Cand];
      i = p;
    }
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (this.n <= 0) return;
    const isTop = this.name === 'top';
    for (let i = from; i < to; i++) {
      const v = numAt(column, i);
      const root = this.heap.length < this.n ? undefined : (this.heap[0] as Cand);
      if (root !== undefined && (isTop ? v < root.value : v > root.value)) continue; // cannot enter
      const c: Cand = { value: v, base, off: offsets[i] as number, series: this.clock?.series };
      if (this.heap.length < this.n) this.push(c);
      else if (this.rank(c, this.heap[0] as Cand) > 0) {
        this.heap[0] = c;
        this.siftDown(0);
      }
    }
  }

  result(): ResultRow[] {
    const pts = [...this.heap].sort((a, b) => compareTimes(a.base, a.off, b.base, b.off) || this.rank(b, a));
    return pts.map((c) => ({ time: c.base + BigInt(c.off), value: c.value, ...(c.series !== undefined && { series: c.series }) }));
  }
}
