/**
 * top(x, N) / bottom(x, N) under LIMIT or OFFSET read only the head of their input (1.6.7):
 * with LIMIT L and OFFSET O, each output series' selector sees just the first L+O+1 points of
 * its merged stream (the newest ones under ORDER BY time DESC), across all windows. So
 * `SELECT bottom(v, 1) FROM m LIMIT 1` is the smaller of the first two points, not the series
 * minimum. The tag-argument form (`top(x, host, N)`) reads everything. Recorded from 1.6.7 in
 * fixtures/queries/47-top-bottom-limit-input.
 *
 * The head is expressed as read bounds per stored series, so the aggregate path reads it like
 * any time range: points before the cut time in full, and at the cut time only the series whose
 * point there the merge took.
 *
 * 1.x cuts each shard's stream on its own (the limit goes down to every shard's iterator), so
 * over several shard groups the selector sees each group's head: `top(v, 2) ... LIMIT 2` over a
 * month of weekly groups picks among the first three points of every week, not of the month.
 */
import type { Cursor } from '../../engine/index.js';
import type { Expr } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import { isTag } from '../plan/projection.js';
import { GoHeap } from './go-heap.js';
import { forEachPassingRow } from './passing-rows.js';
import type { GroupRun } from './select-raw.js';

export interface ReadBounds {
  readonly min: bigint;
  readonly max: bigint;
}

/** Whether `top`/`bottom` of this shape reads only the head of its input. */
export function readsInputHead(reducer: string, tagArgs: number, limit: number, offset: number): boolean {
  return (reducer === 'top' || reducer === 'bottom') && tagArgs === 0 && (limit > 0 || offset > 0);
}

/** Times of `field`'s first `k` points of one series in the query's direction. */
async function headTimes(g: GroupRun, seriesIndex: number, field: string, k: number, min: bigint, max: bigint): Promise<bigint[]> {
  const ref = g.series[seriesIndex]!;
  const ascending = g.plan.ascending;
  if (g.rowFilter) {
    // Rows pass the WHERE in ascending order only: an ascending read stops at `k`.
    const all: bigint[] = [];
    await forEachPassingRow(g, ref, [field], min, max, (time, valueOf) => {
      if (valueOf(field) !== null) all.push(time);
      return !ascending || all.length < k;
    });
    return ascending ? all : all.slice(-k).reverse();
  }
  const out: bigint[] = [];
  const cursor: Cursor = g.source.cursor(ref, field, min, max, ascending);
  try {
    while (out.length < k) {
      const b = await cursor.next();
      if (!b) break;
      for (let i = 0; i < b.offsets.length && out.length < k; i++) out.push(b.base + BigInt(b.offsets[i]!));
    }
  } finally {
    cursor.close();
  }
  return out;
}

/**
 * Per series of the group, the ranges to read: in each storage shard [min, max] meets (one range
 * for a source without shards), the bounds of inputHeadBounds, or the whole shard where the
 * group holds fewer than `k` points there.
 */
export async function inputHeadReads(g: GroupRun, field: string, k: number, min: bigint, max: bigint, tieLess?: (i: number, j: number) => boolean): Promise<ReadBounds[][]> {
  const ranges = g.source.shardRanges?.(min, max) ?? [{ min, max }];
  const reads: ReadBounds[][] = g.series.map(() => []);
  for (const range of ranges) {
    const head = await inputHeadBounds(g, field, k, range.min, range.max, tieLess);
    for (let i = 0; i < reads.length; i++) {
      const b = head?.[i] ?? range;
      if (b.min <= b.max) reads[i]!.push(b);
    }
  }
  return reads;
}

/**
 * Per series of the group, the bounds that admit exactly the first `k` points of the merged
 * stream; undefined when the group has fewer than `k` points (nothing to cut). The merge is
 * 1.x's: a Go heap over the series in key order (reversed under DESC), points sharing a time
 * popped in the heap's order.
 */
async function inputHeadBounds(
  g: GroupRun,
  field: string,
  k: number,
  min: bigint,
  max: bigint,
  /** Series i's point goes before series j's at the same time (auxTagTieLess); else heap order. */
  tieLess?: (i: number, j: number) => boolean,
): Promise<ReadBounds[] | undefined> {
  const ascending = g.plan.ascending;
  const lanes: Lane[] = [];
  for (let i = 0; i < g.series.length; i++) {
    const times = await headTimes(g, i, field, k, min, max);
    if (times.length > 0) lanes.push({ series: i, times, at: 0 });
  }
  const heap = new GoHeap(ascending ? lanes : lanes.reverse(), (a, b) => {
    const ta = a.times[a.at]!;
    const tb = b.times[b.at]!;
    if (ta !== tb) return ascending ? ta < tb : ta > tb;
    return tieLess !== undefined && tieLess(a.series, b.series);
  });
  // The series whose point at the cut time was taken last, and the cut time.
  const taken = new Set<number>();
  let cut: bigint | undefined;
  for (let n = 0; n < k; n++) {
    const lane = heap.pop();
    if (!lane) return undefined;
    const t = lane.times[lane.at]!;
    if (t !== cut) taken.clear();
    cut = t;
    taken.add(lane.series);
    if (++lane.at < lane.times.length) heap.push(lane);
  }
  const edge = ascending ? cut! - 1n : cut! + 1n;
  return g.series.map((_, i) => {
    const last = taken.has(i) ? cut! : edge;
    return ascending ? { min, max: last } : { min: last, max };
  });
}

interface Lane {
  readonly series: number;
  readonly times: readonly bigint[];
  at: number;
}

/**
 * The order 1.x's merge gives points of several series sharing a time when the selector has
 * auxiliary references (`top(x, 1), region`): by those references sorted by name, compared as
 * strings while both sides are strings (raw-merge-order.ts). Tags are known per series; a field
 * ends the comparison here (its value is not read for the head), as does a missing tag.
 */
export function auxTagTieLess(g: GroupRun, columns: readonly Expr[]): ((i: number, j: number) => boolean) | undefined {
  const refs = new Map<string, string | null>();
  for (const c of columns) {
    walkExpr(c, (e) => {
      if (e.kind === 'Call') return false;
      if (e.kind === 'VarRef' && !(e.name.toLowerCase() === 'time' && e.type === null)) refs.set(e.name, e.type);
      return true;
    });
  }
  const aux = [...refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, hint]) => ({ name, tag: isTag(name, hint, g.plan.schema) }));
  if (!aux.some((a) => a.tag)) return undefined;
  const ascending = g.plan.ascending;
  return (i, j) => {
    for (const a of aux) {
      if (!a.tag) return false;
      const x = g.series[i]!.tags[a.name];
      const y = g.series[j]!.tags[a.name];
      if (x === undefined || y === undefined) return false;
      if (x !== y) return ascending ? x < y : x > y;
    }
    return false;
  };
}
