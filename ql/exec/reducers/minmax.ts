/**
 * min() / max(): selectors over float, integer, unsigned and boolean values (false < true).
 * Among equal values the earliest point wins (1.x MinReduce / MaxReduce); the result keeps
 * the selected point's time.
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import { cellAt } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { compareTimes } from './types.js';
import type { BatchStats, StatsReducer } from './types.js';

type Ordered = number | bigint | boolean;

class Extreme implements StatsReducer {
  readonly outputType: FieldType;
  private has = false;
  private best: Ordered = 0;
  private bestBase = 0n;
  private bestOff = 0;

  constructor(
    readonly name: 'min' | 'max',
    inputType: FieldType,
  ) {
    this.outputType = inputType;
  }

  private offer(v: Ordered, base: bigint, off: number): void {
    if (this.has) {
      const b = this.best;
      const better = this.name === 'min' ? v < b : v > b;
      if (!better && (v !== b || compareTimes(base, off, this.bestBase, this.bestOff) >= 0)) return;
    }
    this.has = true;
    this.best = v;
    this.bestBase = base;
    this.bestOff = off;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    if (column.values instanceof Float64Array) {
      const vals = column.values;
      const isMin = this.name === 'min';
      // Fast scan for the batch's extreme (first occurrence), then one offer.
      let bi = from;
      let bv = vals[from] as number;
      for (let i = from + 1; i < to; i++) {
        const v = vals[i] as number;
        if (isMin ? v < bv : v > bv) {
          bv = v;
          bi = i;
        } else if (v === bv && (offsets[i] as number) < (offsets[bi] as number)) bi = i;
      }
      this.offer(bv, base, offsets[bi] as number);
      return;
    }
    for (let i = from; i < to; i++) this.offer(cellAt(column, i) as Ordered, base, offsets[i] as number);
  }

  addStats(stats: BatchStats): void {
    if (stats.count === 0) return;
    const v = this.name === 'min' ? stats.min : stats.max;
    const t = (this.name === 'min' ? stats.minTime : stats.maxTime) ?? 0n;
    if (v === undefined || v === null || typeof v === 'string') return;
    this.offer(v, t, 0);
  }

  result(): ResultRow[] {
    if (!this.has) return [];
    return [{ time: this.bestBase + BigInt(this.bestOff), value: this.best as Scalar }];
  }
}

export class MinReducer extends Extreme {
  constructor(inputType: FieldType) {
    super('min', inputType);
  }
}

export class MaxReducer extends Extreme {
  constructor(inputType: FieldType) {
    super('max', inputType);
  }
}

/** Types min/max accept in 1.x (strings are rejected). */
export const EXTREME_TYPES: readonly FieldType[] = [FieldType.Float, FieldType.Integer, FieldType.Unsigned, FieldType.Boolean];
