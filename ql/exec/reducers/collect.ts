/**
 * Buffered points for the reducers that need the whole group (median, percentile, mode,
 * stddev, distinct): values in canonical Scalar form plus a lazily built bigint time.
 */
import type { ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { Scalar } from '../value.js';
import { compareTimes } from './types.js';

export class Collected {
  readonly values: Scalar[] = [];
  private readonly offs: number[] = [];
  private readonly batch: number[] = [];
  private readonly bases: bigint[] = [];

  get length(): number {
    return this.values.length;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    const b = this.bases.length;
    this.bases.push(base);
    for (let i = from; i < to; i++) {
      this.values.push(cellAt(column, i));
      this.offs.push(offsets[i] as number);
      this.batch.push(b);
    }
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
   * Indices sorted by value, equal values by time: what 1.x's sort by value gives for
   * time-ordered input (Go's sort is not stable for large groups; time order is the
   * deterministic choice).
   */
  sortedByValue(): number[] {
    const idx = Array.from(this.values.keys());
    const v = this.values;
    idx.sort((a, b) => compareScalar(v[a] as Scalar, v[b] as Scalar) || this.compareTime(a, b));
    return idx;
  }
}
