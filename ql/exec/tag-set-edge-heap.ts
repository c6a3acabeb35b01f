/**
 * first()/last() without GROUP BY time in an inner statement that groups by tags its outer
 * statement does not: which point each inner group answers, as 1.x picks it.
 *
 * 1.x's engine answers such a call by reading the field itself (tsm1 CreateIterator: LIMIT 1,
 * oldest first for first(), newest first for last()), grouped into tag sets by the iterator
 * options' Dimensions. A subquery's inner statement gets the OUTER statement's Dimensions
 * (newIteratorOptionsSubstatement) while its own GROUP BY tags only go into GroupBy, so one tag
 * set holds the series of several inner groups. When the two differ (createVarRefIterator):
 * - every series is cut by the engine's limit iterator, which lets LIMIT + 1 points through
 *   (it counts after the check): each series gives its two edge points;
 * - the series (in key order, reversed for last()) are merged by Go's heap ordered by time
 *   only, a popped series pushing its next point back;
 * - query.LimitIterator then keeps the first point of every run of consecutive points of one
 *   inner group (it restarts when the GroupBy tags change);
 * - the query's reducer takes, per inner group, the best of the points kept (the earliest for
 *   first(), the latest for last(); on equal times the larger value).
 * So an inner group whose edge points tie in time answers the one the heap gave first, not the
 * larger (seed 2502 `n0227`: `spread(sel)` over `last(usage_system) AS sel ... GROUP BY region`
 * reads server01's 11.04 for us-east where the statement alone answers server02's 13).
 * Where the Dimensions and GroupBy agree, reducers/firstlast.ts's per-group heap applies. An
 * outer GROUP BY * or regex is expanded over the inner statement's own GROUP BY tags first
 * (subquery-statement.ts outerTagSet): `*` always agrees, a regex matching none of them leaves
 * one tag set; an inner GROUP BY * or regex is its expansion over the measurement's tag keys.
 */
import type { Expr, SelectStatement, VarRef } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import type { QueryContext } from './context.js';
import { forEachPassingRow } from './passing-rows.js';
import type { GroupRun } from './select-raw.js';
import { hasRawRef, isTag } from '../plan/projection.js';
import { aggregatesOf } from './plan-derived.js';
import { dimensionTags, type SelectPlan } from './select-plan.js';
import type { SelectGroup } from './select-groups.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { GoHeap } from './go-heap.js';
import { mergeSpans, type TimeSpan } from './shard-spans.js';
import { cellAt, type Scalar } from './value.js';

export interface EdgePoint {
  readonly time: bigint;
  readonly value: Scalar;
  /** The series holding it (the tags beside the call are its). */
  readonly ref?: SeriesRef;
}

/** The call whose points the tag sets decide, and the tag sets' keys, when the statement is of that kind. */
function edgeCall(stmt: SelectStatement, plan: SelectPlan, source: MeasurementSource): { field: string; first: boolean; tagSetKeys: readonly string[]; tagsBeside: readonly string[] } | undefined {
  const tagSet = stmt.tagSetDims;
  if (!tagSet || plan.window || source.fromSubquery) return undefined;
  const { calls, transforms } = aggregatesOf(plan);
  const call = calls[0];
  if (calls.length !== 1 || transforms.length > 0 || !call || call.tagArgs.length > 0) return undefined;
  if (call.reducer !== 'first' && call.reducer !== 'last') return undefined;
  const tag = (r: VarRef): boolean => isTag(r.name, r.type, plan.schema);
  if (plan.projection.columns.some((c) => hasRawRef(c.expr, (r) => !tag(r)))) return undefined;
  const beside = new Set<string>();
  for (const c of plan.projection.columns) {
    hasRawRef(c.expr, (r) => {
      beside.add(r.name);
      return false;
    });
  }
  // The inner statement's GROUP BY tags (its own, and the outer names pushed down); an outer
  // wildcard or regex left by subquery-statement.ts stands for those it matches.
  const own = dimensionTags(plan.dims, plan.schema.tags);
  const matchers = tagSet.regexes.map(compileRegex);
  const tagSetKeys = [...new Set([...tagSet.names, ...own.filter((k) => tagSet.all || matchers.some((m) => m.test(k)))])];
  // 1.x compares the counts of Dimensions and GroupBy (the inner's tags and the outer's).
  const groupBy = new Set([...own, ...tagSetKeys]);
  if (groupBy.size === tagSetKeys.length) return undefined;
  return { field: call.field, first: call.reducer === 'first', tagSetKeys, tagsBeside: [...beside].sort() };
}

/** One series in a tag set's heap: its edge points, the next one at `at`, its inner group and its values of the tags beside the call. */
interface SeriesEdge {
  readonly group: number;
  readonly ref: SeriesRef;
  readonly tags: string;
  readonly points: EdgePoint[];
  at: number;
}

/**
 * Up to two points of `ref` from its edge inward (the engine's limit iterator lets LIMIT + 1
 * through), of those a WHERE on fields keeps (1.x filters inside the series iterator, before the limit).
 */
async function edgePoints(run: GroupRun, ref: SeriesRef, field: string, first: boolean, span: TimeSpan): Promise<EdgePoint[]> {
  const { source } = run;
  const out: EdgePoint[] = [];
  if (run.rowFilter) {
    await forEachPassingRow(run, ref, [field], span.min, span.max, (time, valueOf) => {
      const value = valueOf(field);
      if (value === null) return;
      if (!first && out.length === 2) out.shift();
      out.push({ time, value });
      return !(first && out.length === 2);
    });
    return first ? out : out.reverse();
  }
  const cursor = source.cursor(ref, field, span.min, span.max, first);
  try {
    for (let b = await cursor.next(); b && out.length < 2; b = await cursor.next()) {
      for (let i = 0; i < b.offsets.length && out.length < 2; i++) out.push({ time: b.base + BigInt(b.offsets[i]!), value: cellAt(b.column, i) });
    }
  } finally {
    cursor.close();
  }
  return out;
}

/**
 * Per group (by index in `groups`), the points 1.x's reducer meets for it; undefined when the
 * statement is not of this kind (its groups then run on their own).
 */
export async function tagSetEdgePoints(
  stmt: SelectStatement,
  plan: SelectPlan,
  source: MeasurementSource,
  groups: readonly SelectGroup[],
  rowFilter: Expr | null,
  ctx: QueryContext,
): Promise<EdgePoint[][] | undefined> {
  const call = edgeCall(stmt, plan, source);
  if (!call) return undefined;
  const tagSets = new Map<string, { ref: SeriesRef; group: number }[]>();
  groups.forEach((g, group) => {
    for (const ref of g.series) {
      const k = call.tagSetKeys.map((d) => ref.tags[d] ?? '').join('\u0000');
      const list = tagSets.get(k) ?? [];
      list.push({ ref, group });
      tagSets.set(k, list);
    }
  });
  // 1.x sorts each tag set's series by key, and reverses them for a newest-first read.
  for (const members of tagSets.values()) {
    members.sort((a, b) => (a.ref.key < b.ref.key ? -1 : a.ref.key > b.ref.key ? 1 : 0));
    if (!call.first) members.reverse();
  }
  const picked: EdgePoint[][] = groups.map(() => []);
  // The heap orders by time, in the read direction: oldest first for first(), newest for
  // last(); beside tags, equal times by their values in that direction too (as
  // reducers/firstlast.ts finds for the statement alone).
  const ahead = (x: SeriesEdge, y: SeriesEdge): boolean => {
    const a = x.points[x.at]!.time;
    const b = y.points[y.at]!.time;
    if (a === b && x.tags !== y.tags) return call.first ? x.tags < y.tags : x.tags > y.tags;
    return call.first ? a < b : a > b;
  };
  // Each shard runs its own heaps; the reducer then meets every shard's points.
  const spans = mergeSpans({ plan, source, series: groups.flatMap((g) => g.series), ctx });
  for (const span of spans) {
    for (const members of tagSets.values()) {
      const items: SeriesEdge[] = [];
      for (const m of members) {
        const points = await edgePoints({ plan, source, series: [m.ref], rowFilter, ctx }, m.ref, call.field, call.first, span ?? plan.time);
        const tags = call.tagsBeside.map((n) => m.ref.tags[n] ?? '').join('\u0000');
        if (points.length > 0) items.push({ group: m.group, ref: m.ref, tags, points, at: 0 });
      }
      const heap = new GoHeap(items, ahead);
      let runGroup = -1;
      for (let item = heap.pop(); item; item = heap.pop()) {
        // query.LimitIterator (LIMIT 1): the first point of each run of one group.
        if (item.group !== runGroup) picked[item.group]!.push({ ...item.points[item.at]!, ref: item.ref });
        runGroup = item.group;
        if (++item.at < item.points.length) heap.push(item);
      }
    }
  }
  return picked;
}
