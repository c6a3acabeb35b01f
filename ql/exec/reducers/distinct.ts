/**
 * distinct(): each distinct value once, with the time of the first point 1.x meets holding it
 * (the earliest; under ORDER BY time DESC, which feeds points newest first, the latest), in
 * the order of those times (then value for equal times); the planner replaces the times with
 * the window start as 1.x does. count(distinct(x)): the number of distinct values (integer).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { compareTimes } from './types.js';
import type { Reducer } from './types.js';

interface Seen {
  value: Scalar;
  base: bigint;
  off: number;
}

/**
 * Map key that keeps 1 (integer) and 1 (float) apart only by type of the group (one type).
 * NaN (stddev() of one point inside a subquery) gets a key of its own each time: 1.x keys a Go
 * map by the float, and NaN never equals a key, so every NaN is a distinct value there.
 */
function keyOf(v: Scalar): unknown {
  if (typeof v === 'bigint') return `n${v}`;
  return typeof v === 'number' && Number.isNaN(v) ? Symbol('NaN') : v;
}

export class DistinctReducer implements Reducer {
  readonly name: string = 'distinct';
  readonly outputType: FieldType;
  protected readonly seen = new Map<unknown, Seen>();

  constructor(
    inputType: FieldType,
    /** ORDER BY time DESC: keep each value's latest point. */
    private readonly latest = false,
  ) {
    this.outputType = inputType;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const v = cellAt(column, i);
      const k = keyOf(v);
      const off = offsets[i] as number;
      const s = this.seen.get(k);
      if (s === undefined) this.seen.set(k, { value: v, base, off });
      else if (this.latest ? compareTimes(base, off, s.base, s.off) > 0 : compareTimes(base, off, s.base, s.off) < 0) {
        s.base = base;
        s.off = off;
      }
    }
  }

  result(): ResultRow[] {
    const all = [...this.seen.values()];
    all.sort((a, b) => compareTimes(a.base, a.off, b.base, b.off) || compareScalar(a.value, b.value));
    return all.map((s) => ({ time: s.base + BigInt(s.off), value: s.value }));
  }
}

export class CountDistinctReducer extends DistinctReducer {
  override readonly name = 'count';
  override readonly outputType = FieldType.Integer;

  override result(): ResultRow[] {
    return this.seen.size === 0 ? [] : [{ value: this.seen.size }];
  }
}
