/**
 * first() / last(): selectors over every type. first keeps the earliest point, last the latest;
 * on equal times 1.x keeps the larger value, except booleans where first prefers false and
 * last prefers true.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { compareTimes } from './types.js';
import type { Reducer } from './types.js';

class Edge implements Reducer {
  readonly outputType: FieldType;
  private has = false;
  private val: Scalar = null;
  private base = 0n;
  private off = 0;

  constructor(
    readonly name: 'first' | 'last',
    inputType: FieldType,
  ) {
    this.outputType = inputType;
  }

  private offer(v: Scalar, base: bigint, off: number): void {
    if (this.has) {
      const c = compareTimes(base, off, this.base, this.off);
      const wantEarlier = this.name === 'first';
      if (c === 0) {
        if (typeof v === 'boolean') {
          if (!(wantEarlier ? !v && this.val === true : v && this.val === false)) return;
        } else if (compareScalar(v, this.val) <= 0) return;
      } else if (wantEarlier ? c > 0 : c < 0) return;
    }
    this.has = true;
    this.val = v;
    this.base = base;
    this.off = off;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    // Offsets ascend within a batch: only the points sharing the edge time can be selected.
    if (this.name === 'first') {
      const t0 = offsets[from] as number;
      for (let i = from; i < to && (offsets[i] as number) === t0; i++) this.offer(cellAt(column, i), base, t0);
    } else {
      const t1 = offsets[to - 1] as number;
      for (let i = to - 1; i >= from && (offsets[i] as number) === t1; i--) this.offer(cellAt(column, i), base, t1);
    }
  }

  result(): ResultRow[] {
    return this.has ? [{ time: this.base + BigInt(this.off), value: this.val }] : [];
  }
}

export class FirstReducer extends Edge {
  constructor(inputType: FieldType) {
    super('first', inputType);
  }
}

export class LastReducer extends Edge {
  constructor(inputType: FieldType) {
    super('last', inputType);
  }
}
