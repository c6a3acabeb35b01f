/**
 * sample(x, N): reservoir sampling of N points, every type, output ordered by time. 1.x seeds
 * its generator with the clock; Strata uses a fixed seed so results are reproducible (any N
 * points are a valid answer; a group with at most N points returns all of them).
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { compareTimes } from './types.js';
import type { Reducer } from './types.js';
import { mulberry32 } from '../../../engine/index.js';
import type { PartialClock } from './partials.js';

interface Kept {
  value: Scalar;
  base: bigint;
  off: number;
  /** The point's series (the clock's at add()), so its auxiliary fields are its own. */
  series: number | undefined;
}

export class SampleReducer implements Reducer {
  readonly name = 'sample';
  readonly outputType: FieldType;
  private readonly kept: Kept[] = [];
  private count = 0;
  private readonly rnd: () => number;

  constructor(
    inputType: FieldType,
    private readonly n: number,
    seed = 0x5eed,
    private readonly clock?: PartialClock,
  ) {
    this.outputType = inputType;
    this.rnd = mulberry32(seed);
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      this.count++;
      const p: Kept = { value: cellAt(column, i), base, off: offsets[i] as number, series: this.clock?.series };
      if (this.kept.length < this.n) {
        this.kept.push(p);
        continue;
      }
      const r = Math.floor(this.rnd() * this.count);
      if (r < this.n) this.kept[r] = p;
    }
  }

  result(): ResultRow[] {
    // 1.x sorts the reservoir by time, then value (points of several series sharing a time).
    const pts = [...this.kept].sort((a, b) => compareTimes(a.base, a.off, b.base, b.off) || compareScalar(a.value, b.value));
    return pts.map((k) => ({ time: k.base + BigInt(k.off), value: k.value, ...(k.series !== undefined && { series: k.series }) }));
  }
}
