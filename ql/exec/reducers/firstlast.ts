/**
 * first() / last(): selectors over every type. first keeps the earliest point, last the latest;
 * on equal times 1.x keeps the larger value, except booleans where first prefers false and
 * last prefers true.
 *
 * Without GROUP BY time and over several series, 1.6.7 does not compare every series' edge
 * point: their points go through a Go heap ordered by time (earliest first for first(), latest
 * first for last()), over the series in key order (reverse key order for last()), and the
 * answer is the better of the first two the heap gives (observed on 1.6.7 with 2-7 series, tied
 * and untied times: fixtures/queries/46-first-last-series-ties, 49-first-last-aux-ties). With
 * tags beside the selector (`SELECT last(v), host`) the heap orders equal times by those tags'
 * values (by tag name; descending for last()), and the answer's tags are its series' (960
 * random sets of 2-6 series, one or two tags beside, unique or shared values: case s-k602).
 * With GROUP BY time every series counts.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import { cellAt, compareScalar } from '../value.js';
import type { ResultRow, Scalar } from '../value.js';
import { compareTimes } from './types.js';
import { GoHeap } from '../go-heap.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';

/** The selected point so far (of one series, or of the whole group). */
class Pick {
  has = false;
  val: Scalar = null;
  base = 0n;
  off = 0;

  constructor(private readonly wantEarlier: boolean) {}

  /** Whether the point is taken. */
  offer(v: Scalar, base: bigint, off: number): boolean {
    if (this.has) {
      const c = compareTimes(base, off, this.base, this.off);
      if (c === 0) {
        if (typeof v === 'boolean') {
          if (!(this.wantEarlier ? !v && this.val === true : v && this.val === false)) return false;
        } else if (compareScalar(v, this.val) <= 0) return false;
      } else if (this.wantEarlier ? c > 0 : c < 0) return false;
    }
    this.has = true;
    this.val = v;
    this.base = base;
    this.off = off;
    return true;
  }
}

/** No GROUP BY time: the series' edge points meet through 1.x's heap (see above). */
export interface SeriesHeap {
  /** A series' values of the tags beside the call, by tag name, joined by NUL: the heap's order at equal times. */
  readonly tagsBeside?: (series: number) => string;
}

export interface EdgeOptions {
  /** Which series the points being added come from. */
  readonly clock?: PartialClock;
  readonly seriesHeap?: SeriesHeap;
}

class Edge implements Reducer {
  readonly outputType: FieldType;
  private readonly pick: Pick;
  /** Per series (seriesHeap): its own edge point. */
  private readonly perSeries: Map<number, Pick> | undefined;

  constructor(
    readonly name: 'first' | 'last',
    inputType: FieldType,
    private readonly opts: EdgeOptions = {},
  ) {
    this.outputType = inputType;
    this.pick = new Pick(name === 'first');
    this.perSeries = opts.seriesHeap && opts.clock ? new Map() : undefined;
  }

  private offer(v: Scalar, base: bigint, off: number): void {
    const per = this.perSeries;
    if (!per) {
      this.pick.offer(v, base, off);
      return;
    }
    const key = this.opts.clock!.series;
    let p = per.get(key);
    if (!p) per.set(key, (p = new Pick(this.name === 'first')));
    p.offer(v, base, off);
  }

  /** The series' edge points through 1.x's heap: the better of the first two popped, and its series. */
  private fromHeap(per: Map<number, Pick>): { pick: Pick; series: number | undefined } {
    const earliest = this.name === 'first';
    const tagsOf = this.opts.seriesHeap?.tagsBeside;
    // last() meets the series newest first, in reverse key order (as 1.x reverses them for a descending read).
    const items = [...per.entries()].sort((a, b) => (earliest ? a[0] - b[0] : b[0] - a[0])).map(([series, pick]) => ({ series, pick, tags: tagsOf?.(series) ?? '' }));
    const heap = new GoHeap(items, (x, y) => {
      const c = compareTimes(x.pick.base, x.pick.off, y.pick.base, y.pick.off);
      if (c === 0 && x.tags !== y.tags) return earliest ? x.tags < y.tags : x.tags > y.tags;
      return earliest ? c < 0 : c > 0;
    });
    const out = new Pick(earliest);
    let series: number | undefined;
    for (let k = 0; k < 2; k++) {
      const p = heap.pop();
      if (p?.pick.has && out.offer(p.pick.val, p.pick.base, p.pick.off)) series = p.series;
    }
    return { pick: out, series };
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
    const per = this.perSeries;
    if (per && per.size > 1) {
      const { pick, series } = this.fromHeap(per);
      return pick.has ? [{ time: pick.base + BigInt(pick.off), value: pick.val, ...(series !== undefined && { series }) }] : [];
    }
    const p = per && per.size === 1 ? [...per.values()][0]! : this.pick;
    return p.has ? [{ time: p.base + BigInt(p.off), value: p.val }] : [];
  }
}

export class FirstReducer extends Edge {
  constructor(inputType: FieldType, opts?: EdgeOptions) {
    super('first', inputType, opts);
  }
}

export class LastReducer extends Edge {
  constructor(inputType: FieldType, opts?: EdgeOptions) {
    super('last', inputType, opts);
  }
}
