/**
 * Transforms over an aggregate that gives several rows per window (`derivative(distinct(x))`,
 * `cumulative_sum(sample(x, 3))`), as influxd 1.6.7 answers them:
 * - every emitted point is fed to the transform in output order, same-time points included
 *   (derivative and difference keep the first point of a time, the others use them all:
 *   transform.ts); under ORDER BY time DESC the windows come newest first but each window keeps
 *   its own order;
 * - OFFSET and LIMIT cut each transform's output on its own, before the join;
 * - the columns are joined by time: where columns hold several values at one time, the k-th row
 *   takes the k-th value of each column, null where a column has fewer;
 * - fill(N) and fill(previous) then fill those null cells (previous: the column's last value).
 * holt_winters() is given its points in output order too (select-agg.ts `forecast`), and keeps
 * each window's first (holt-winters.ts), as 1.6.7's reducer does.
 * The extra window read before the range for derivative & co is not cut away: a second point in
 * it gives a row there, which 1.6.7 shows. Each transform gets its own inner points (1.6.7 runs
 * one inner iterator per transform; cumulative_sum's has no extra window).
 */
import { FieldType } from '../../engine/index.js';
import type { AggTransform } from './agg-calls.js';
import { createTransform, runTransform, type TransformArgs, type TransformName } from './transform.js';
import type { Scalar, TimedValue } from './value.js';
import type { FillOption } from '../ast/nodes.js';
import { callFillValue } from './call-fill.js';

export interface JoinedRow {
  readonly time: bigint;
  /** Transform key -> its value in this row. */
  readonly values: ReadonlyMap<string, Scalar>;
}

export interface MultiRowOptions {
  /** The output of a transform computed apart (holt_winters(), asynchronous), by its key. */
  readonly forecasts?: ReadonlyMap<string, readonly TimedValue[]>;
  /** The inner call's points of a transform, in output order. */
  readonly pointsOf: (t: AggTransform) => readonly TimedValue[];
  readonly innerType: FieldType;
  readonly argsOf: (t: AggTransform) => TransformArgs;
  readonly offset: number;
  readonly limit: number;
  readonly fill: FillOption;
  /** Whether 1.x types the transform (call-fill.ts): one it types Unknown is never filled. */
  readonly typed: (t: AggTransform) => boolean;
}

/** Run each transform over its points and join their outputs into rows in output order. */
export function transformMultiRows(transforms: readonly AggTransform[], o: MultiRowOptions): JoinedRow[] {
  const perTime = new Map<bigint, Map<string, Scalar[]>>();
  const order: bigint[] = [];
  const fillValues = new Map<string, Scalar>();
  for (const t of transforms) {
    const given = o.forecasts?.get(t.key);
    const tr = given ? undefined : createTransform(t.name as TransformName, o.innerType, o.argsOf(t));
    if (o.fill.mode === 'number') fillValues.set(t.key, callFillValue(o.fill, o.typed(t) ? (tr?.outputType ?? FieldType.Float) : undefined));
    let out = (given ?? runTransform(tr!, o.pointsOf(t))).slice(o.offset);
    if (o.limit > 0) out = out.slice(0, o.limit);
    for (const x of out) {
      let cols = perTime.get(x.time);
      if (!cols) {
        cols = new Map();
        perTime.set(x.time, cols);
        order.push(x.time);
      }
      const list = cols.get(t.key) ?? [];
      list.push(x.value);
      cols.set(t.key, list);
    }
  }
  // Times first seen in a later transform's output still take their place in output order.
  const descending = o.argsOf(transforms[0]!).descending === true;
  order.sort((a, b) => (a === b ? 0 : (a < b) !== descending ? -1 : 1));
  const previous = new Map<string, Scalar>();
  const rows: JoinedRow[] = [];
  for (const time of order) {
    const cols = perTime.get(time)!;
    const n = Math.max(...[...cols.values()].map((l) => l.length));
    for (let k = 0; k < n; k++) {
      const values = new Map<string, Scalar>();
      for (const t of transforms) {
        let v = cols.get(t.key)?.[k] ?? null;
        if (v === null) v = o.fill.mode === 'previous' ? (previous.get(t.key) ?? null) : (fillValues.get(t.key) ?? null);
        else previous.set(t.key, v);
        values.set(t.key, v);
      }
      rows.push({ time, values });
    }
  }
  return rows;
}

/** ORDER BY time DESC order of a multi-row aggregate's points: windows newest first, each window in its own order. */
export function windowsNewestFirst(points: readonly TimedValue[], windowOf: (time: bigint) => bigint): TimedValue[] {
  const groups: TimedValue[][] = [];
  let current: bigint | undefined;
  for (const p of points) {
    const w = windowOf(p.time);
    if (groups.length === 0 || w !== current) groups.push([]);
    current = w;
    groups[groups.length - 1]!.push(p);
  }
  return groups.reverse().flat();
}
