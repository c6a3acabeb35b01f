/**
 * Function kernels of the query executor (InfluxDB 1.x semantics). The planner composes them:
 *
 *   windows   window.ts     GROUP BY time(interval[, offset]) [TZ()] windows, batch runs, enumeration
 *   reducers  reducers/     aggregates and selectors fed with typed column slices (+ batch stats)
 *   transforms transform.ts derivative, difference, moving_average, cumulative_sum, elapsed
 *   fill      fill.ts       fill(null|none|N|previous|linear) replaying the 1.x fill iterator
 *   math      math.ts       row-wise math functions
 *   values    value.ts      Scalar, Go int64/uint64 arithmetic, casts
 *
 * Notes for the planner, observed on influxd 1.6.7 (see oracle.test.ts for a minimal planner
 * that reproduces 270 recorded 1.6.7 answers with these kernels):
 *  - With GROUP BY time every single-row function (selectors included) is labelled with the
 *    window start; top/bottom/sample keep their points' times and are not filled; distinct is
 *    labelled with the window start. Without GROUP BY time a lone selector keeps the point's
 *    time, everything else gets the WHERE lower bound (0 when unbounded).
 *  - integral is a stream over the whole series (IntegralReducer), never filled.
 *  - WindowedAggregator + windowRows implement the grouping and labelling above.
 *  - When the first window's reducer returns no row (percentile index out of range), 1.x
 *    sees an exhausted iterator: no series at all (in 1.6 the whole statement when it is the
 *    first series); later such windows are simply absent (filled if fill applies).
 *  - count (and count(distinct)) turn fill(null) into fill(0): pass `call: 'count'` to fillSeries.
 *  - derivative's unit defaults to the GROUP BY interval (`derivativeUnit`).
 *  - Transforms over aggregates skip null (empty-window) values; the inner aggregate's lower
 *    bound moves back by `lookbackIntervals` GROUP BY intervals (1, cumulative_sum 0).
 */
export * from './errors.js';
export * from './value.js';
export * from './window.js';
export { checkTimeZone, zoneOffsetNs, zoneOffsetSec } from './zone.js';
export * from './reducers/index.js';
export { IntegralReducer } from './reducers/integral.js';
export * from './transform.js';
export * from './fill.js';
export * from './math.js';
export * from './grouping.js';
