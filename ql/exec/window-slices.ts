/**
 * A GROUP BY time range cut into slices of whole windows, in read order (oldest first, or
 * newest first under ORDER BY time DESC). An aggregate of one-row-per-window reducers answers
 * the same rows for a slice as the whole range answers for the windows inside it: windows are
 * aligned to the epoch, not to the range, and the range's own edges (the first and last
 * window, maybe cut by the WHERE) stay where they were. subquery-slices.ts runs an inner
 * series slice by slice so that an outer raw SELECT merging every series by time holds one
 * slice of each instead of every series whole.
 *
 * Bounds are made as they are read (a range of a million windows is not cut up front); with a
 * time zone, windows are not all `interval` long, so each cut is snapped to a window start.
 */
import { window as windowOf, type WindowSpec } from './window.js';

export interface Slice {
  /** Inclusive bounds, inside the range. */
  readonly min: bigint;
  readonly max: bigint;
}

export class WindowSlices {
  private readonly made: Slice[] = [];
  private done = false;

  /** `windows`: whole windows per slice (at least 1). */
  constructor(
    private readonly spec: WindowSpec,
    private readonly min: bigint,
    private readonly max: bigint,
    private readonly ascending: boolean,
    private readonly windows: number,
  ) {
    if (min > max) this.done = true;
  }

  /** The i-th slice in read order; undefined past the last. */
  at(i: number): Slice | undefined {
    while (this.made.length <= i && !this.done) this.cut();
    return this.made[i];
  }

  /**
   * The index of the first slice to read for a reader starting at `t` (its lower bound when
   * ascending, its upper bound when descending): the slice holding `t`, 0 before the range,
   * the slice count past it.
   */
  indexOf(t: bigint): number {
    if (this.ascending ? t <= this.min : t >= this.max) return 0;
    for (let i = 0; ; i++) {
      const s = this.at(i);
      if (!s || (this.ascending ? t <= s.max : t >= s.min)) return i;
    }
  }

  private cut(): void {
    const last = this.made[this.made.length - 1];
    const span = this.spec.interval * BigInt(this.windows);
    if (this.ascending) {
      const lo = last ? last.max + 1n : this.min;
      let next = windowOf(lo + span, this.spec).start;
      // A zone's long day can hold lo + span too: the slice then ends with lo's own window.
      if (next <= lo) next = windowOf(lo, this.spec).end;
      const hi = next - 1n < this.max ? next - 1n : this.max;
      this.made.push({ min: lo, max: hi });
      if (hi >= this.max) this.done = true;
    } else {
      const hi = last ? last.min - 1n : this.max;
      const start = windowOf(hi - span + this.spec.interval, this.spec).start;
      const lo = start > this.min ? start : this.min;
      this.made.push({ min: lo, max: hi });
      if (lo <= this.min) this.done = true;
    }
  }
}

/** How many windows [min, max] touches (about, under a time zone). */
export function windowCount(spec: WindowSpec, min: bigint, max: bigint): number {
  if (min > max) return 0;
  return Number((windowOf(max, spec).start - windowOf(min, spec).start) / spec.interval) + 1;
}
