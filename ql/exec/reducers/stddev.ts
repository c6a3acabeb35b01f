/**
 * stddev(): sample standard deviation (divides by n - 1), always a float. 1.x computes the
 * mean incrementally (mean += (x - mean) / count), then sums squared deviations; fewer than
 * two points give NaN, which 1.x prints as null: the row is returned with a null value.
 *
 * Order matters for the last bits of a float result: 1.x cannot push stddev down per series,
 * so it reduces the window's points as its merge iterator yields them, in time order across
 * the series, with equal times in series order. Series arrive here one after another (in
 * series order), so their points are put back into time order with a stable sort.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { intToFloat, numAt } from '../value.js';
import type { ResultRow } from '../value.js';
import type { Reducer } from './types.js';

export class StddevReducer implements Reducer {
  readonly name = 'stddev';
  readonly outputType = FieldType.Float;
  private readonly xs: number[] = [];
  /** Times relative to the first batch's base (ns; exact order within 2^53 ns ≈ 104 days). */
  private readonly ts: number[] = [];
  private base: bigint | undefined;
  private inTimeOrder = true;

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.base ??= base;
    const shift = base === this.base ? 0 : Number(base - this.base);
    const ts = this.ts;
    let last = ts.length === 0 ? -Infinity : ts[ts.length - 1]!;
    for (let i = from; i < to; i++) {
      const t = shift + offsets[i]!;
      if (t < last) this.inTimeOrder = false;
      ts.push((last = t));
      this.xs.push(column.values instanceof Float64Array ? column.values[i]! : intToFloat(numAt(column, i)));
    }
  }

  result(): ResultRow[] {
    const xs = this.inTimeOrder ? this.xs : timeOrdered(this.xs, this.ts);
    if (xs.length === 0) return [];
    // NaN, not a missing value: fill() keeps the row and transforms carry NaN on (1.x).
    if (xs.length < 2) return [{ value: NaN }];
    // NaN values (stddev() of one point in a subquery's window) are skipped, as 1.x does,
    // after the two-point test above counted them.
    let mean = 0;
    let count = 0;
    for (const x of xs) {
      if (Number.isNaN(x)) continue;
      count++;
      mean += (x - mean) / count;
    }
    let variance = 0;
    for (const x of xs) {
      if (Number.isNaN(x)) continue;
      const d = x - mean;
      variance += d * d;
    }
    return [{ value: Math.sqrt(variance / (count - 1)) }];
  }
}

/** `xs` reordered by `ts`, equal times keeping their arrival (series) order: sort is stable. */
function timeOrdered(xs: readonly number[], ts: readonly number[]): number[] {
  const order = Array.from(xs.keys()).sort((a, b) => ts[a]! - ts[b]!);
  return order.map((i) => xs[i]!);
}
