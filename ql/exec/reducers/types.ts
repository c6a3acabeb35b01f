/**
 * The reducer contract: a reducer aggregates the points of one group (one window of one series
 * set) fed as typed column slices, and produces its 1.x result rows.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import type { ResultRow, Scalar } from '../value.js';

/**
 * Statistics of one batch the engine can give without decoding values. `count` is always
 * set; the others when known (`min`/`max` with the time of their earliest occurrence).
 */
export interface BatchStats {
  count: number;
  sum?: number | bigint;
  min?: Scalar;
  minTime?: bigint;
  max?: Scalar;
  maxTime?: bigint;
}

export interface Reducer {
  /** The 1.x function name. */
  readonly name: string;
  /** Field type of the values `result()` returns. */
  readonly outputType: FieldType;
  /** Aggregate points `from..to` (exclusive) of a batch: time = base + offsets[i]. */
  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void;
  /**
   * Result rows. Aggregates return one row without `time` (the planner labels it with the
   * window start); selectors return the selected point's time; multi-row functions (top,
   * bottom, distinct, sample) return their rows in 1.x output order. An empty group gives [].
   */
  result(): ResultRow[];
  /**
   * Work result() would do on a complete group that can take seconds (ordering millions of
   * points), done ahead with `pause` between steps so the event loop keeps turning; result()
   * then uses it. Called once, after the last add(), by reducers of large groups' owners.
   */
  prepare?(pause: () => Promise<void> | undefined): Promise<void>;
}

/** Reducers that can consume batch statistics instead of values (count, sum, min, max). */
export interface StatsReducer extends Reducer {
  addStats(stats: BatchStats): void;
}

/** Reference to one point: its batch base and offset; the bigint time is built lazily. */
export class PointRef {
  constructor(
    public base: bigint,
    public off: number,
  ) {}
  time(): bigint {
    return this.base + BigInt(this.off);
  }
}

/** Compare the times (base1 + off1) and (base2 + off2) without allocating when bases match. */
export function compareTimes(base1: bigint, off1: number, base2: bigint, off2: number): number {
  if (base1 === base2) return off1 - off2;
  const a = base1 + BigInt(off1);
  const b = base2 + BigInt(off2);
  return a < b ? -1 : a > b ? 1 : 0;
}
