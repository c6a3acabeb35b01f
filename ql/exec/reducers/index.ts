/**
 * Reducer factory: the aggregate and selector functions of InfluxQL by name, with the 1.x
 * type checks (an unsupported field type throws UnsupportedTypeError with the 1.x text).
 *
 * Selectors (keep the selected point's time): first, last, min, max, percentile, top,
 * bottom, sample. Aggregates (time = window start, set by the planner): count, sum, mean,
 * median, mode, spread, stddev, distinct (times of first occurrence are returned; 1.x
 * prints the window start), count(distinct), integral (a stream, see integral.ts).
 */
import { FieldType } from '../../../engine/index.js';
import { QueryError, UnsupportedTypeError } from '../errors.js';
import { CountReducer } from './count.js';
import { CountDistinctReducer, DistinctReducer } from './distinct.js';
import { FirstReducer, LastReducer, type SeriesHeap } from './firstlast.js';
import { IntegralReducer } from './integral.js';
import type { IntegralOptions } from './integral.js';
import { MeanReducer } from './mean.js';
import { MedianReducer } from './median.js';
import { MaxReducer, MinReducer } from './minmax.js';
import { ModeReducer } from './mode.js';
import { PercentileReducer } from './percentile.js';
import { SampleReducer } from './sample.js';
import { SpreadReducer } from './spread.js';
import { StddevReducer } from './stddev.js';
import { SumReducer } from './sum.js';
import { StreamSumReducer, type SubqueryRowOrder } from './stream-sum.js';
import { TopBottomReducer } from './topbottom.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';

export type { BatchStats, Reducer, StatsReducer } from './types.js';
export type { IntegralOptions } from './integral.js';
export type { PartialClock } from './partials.js';
export type { SubqueryRowOrder } from './stream-sum.js';
export type { SeriesHeap } from './firstlast.js';
export { percentileIndex } from './percentile.js';

const F = FieldType.Float;
const I = FieldType.Integer;
const U = FieldType.Unsigned;
const B = FieldType.Boolean;
const S = FieldType.String;
const NUMERIC: readonly FieldType[] = [F, I, U];
const ALL: readonly FieldType[] = [F, I, U, B, S];

/** Input types each function accepts in 1.6 (checked against influxd 1.6.7). */
export const ACCEPTED_TYPES: Readonly<Record<string, readonly FieldType[]>> = {
  count: ALL,
  count_distinct: ALL,
  distinct: ALL,
  first: ALL,
  last: ALL,
  mode: ALL,
  sample: ALL,
  min: [F, I, U, B],
  max: [F, I, U, B],
  sum: NUMERIC,
  mean: NUMERIC,
  median: NUMERIC,
  spread: NUMERIC,
  stddev: NUMERIC,
  percentile: NUMERIC,
  top: NUMERIC,
  bottom: NUMERIC,
  integral: NUMERIC,
};

/** Functions whose result keeps the selected point's time. */
export const SELECTORS: ReadonlySet<string> = new Set(['first', 'last', 'min', 'max', 'percentile', 'top', 'bottom', 'sample']);

export interface ReducerArgs {
  /** percentile's N. */
  percentile?: number;
  /** top/bottom/sample's N. */
  n?: number;
  /** integral's unit, window and bounds. */
  integral?: IntegralOptions;
  /** sample's PRNG seed. */
  seed?: number;
  /**
   * ORDER BY time DESC: 1.x feeds the points newest first, and percentile's choice among equal
   * values depends on that order (Go's sort is not stable).
   */
  descending?: boolean;
  /** Which series and shard the points being added come from: sum()/mean() merge per-series partials (partials.ts), mode()/percentile() replay 1.x's merge order (merge-order.ts). */
  partials?: PartialClock;
  /**
   * The source is a subquery whose rows reach the call in this order: float sum()/mean() add
   * them as one stream in it (stream-sum.ts). Needs `partials` for the series of each point.
   */
  subqueryRows?: SubqueryRowOrder;
  /** No GROUP BY time: first()/last() meet the series' edge points as 1.x's heap does (firstlast.ts SeriesHeap). */
  seriesHeap?: SeriesHeap;
}

/**
 * Create a reducer. `name` is the InfluxQL function name, or `count_distinct` for
 * count(distinct(x)). A bad input type gives the 1.x error naming the Go iterator type.
 */
export function createReducer(name: string, inputType: FieldType, args: ReducerArgs = {}): Reducer {
  const accepted = ACCEPTED_TYPES[name];
  if (accepted === undefined) throw new QueryError(`undefined function ${name}()`);
  if (!accepted.includes(inputType)) throw new UnsupportedTypeError(name === 'count_distinct' ? 'distinct' : name, inputType);
  switch (name) {
    case 'count': return new CountReducer();
    case 'count_distinct': return new CountDistinctReducer(inputType);
    case 'distinct': return new DistinctReducer(inputType, args.descending === true);
    case 'first': return new FirstReducer(inputType, { clock: args.partials, ...(args.seriesHeap && { seriesHeap: args.seriesHeap }) });
    case 'last': return new LastReducer(inputType, { clock: args.partials, ...(args.seriesHeap && { seriesHeap: args.seriesHeap }) });
    case 'mode': return new ModeReducer(inputType, args.partials, args.descending === true);
    case 'sample': return new SampleReducer(inputType, args.n ?? 1, args.seed, args.partials);
    case 'min': return new MinReducer(inputType);
    case 'max': return new MaxReducer(inputType);
    case 'sum':
    case 'mean':
      if (inputType === F && args.subqueryRows && args.partials) return new StreamSumReducer(name, args.subqueryRows, args.descending === true, args.partials);
      return name === 'sum' ? new SumReducer(inputType, args.partials, args.descending === true) : new MeanReducer(inputType, args.partials, args.descending === true);
    case 'median': return new MedianReducer(inputType);
    case 'spread': return new SpreadReducer(inputType);
    case 'stddev': return new StddevReducer(args.partials, args.descending === true);
    case 'percentile': return new PercentileReducer(inputType, args.percentile ?? 50, args.descending === true, args.partials);
    case 'top': return new TopBottomReducer('top', inputType, args.n ?? 1, args.partials);
    case 'bottom': return new TopBottomReducer('bottom', inputType, args.n ?? 1, args.partials);
    default: return new IntegralReducer(inputType, args.integral);
  }
}
