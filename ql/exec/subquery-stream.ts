/**
 * A subquery whose inner statement runs one group at a time, as the outer statement reads it,
 * instead of materialising the whole inner result first (issue #5: memory bounded by the result
 * produced, not by the data). 1.x streams the inner iterators into the outer ones; here an inner
 * group (one inner series) is run when the outer statement first opens a cursor on it and
 * dropped when it opens one on another series, so at most one inner series is held.
 *
 * Taken only where the answer is the held path's (subquery-rows.ts HeldRows), byte for byte:
 * - the inner statement aggregates with one row per window and series (ONE_ROW reducers and
 *   ROW_TRANSFORMS), so no inner series needs lanes (rows sharing a time), and every column's
 *   type is declared (the outer statement compiles against the types before most series ran:
 *   the first non-empty series is run up front, which decides the types as it does when held);
 * - the outer statement reads the series one after the other (readsSeriesInTurn): one source,
 *   an aggregate of the same kinds, nothing that looks a series up again (auxiliary fields),
 *   no SLIMIT/SOFFSET (which counts series, and a streamed series may turn out empty: the outer
 *   statement then reads nothing from it, which answers as its absence does).
 * An outer raw SELECT (and a raw transform: derivative(m), ...) merges every series of an
 * output group by time, so it reads them all at once: each series is then computed in slices
 * of windows (subquery-slices.ts) where the inner statement allows it (slicesInner: GROUP BY
 * time over a bounded range, fill(none|null), or fill(<value>) of reducers answering any
 * point without a WHERE on fields, no transform, no inner LIMIT/OFFSET, storage below),
 * SLIMIT/SOFFSET aside (they count series that may turn out empty).
 * Kept held, with the reason: an inner LIMIT/OFFSET cut across interleaved series (every
 * series at once: subquery-interleaved-limit.ts); an outer raw SELECT over an inner statement
 * that cannot be sliced (fill(previous|linear) and transforms carry a window's neighbours,
 * fill(<value>) fills a slice only when the call has rows elsewhere, which points tell only for
 * some reducers and without a WHERE on fields, an inner LIMIT counts from the series' start, a
 * subquery below would run whole per slice); top()/bottom()/
 * sample()/distinct()/integral() or aux fields (series counted or read again); inner raw rows
 * or multi-row reducers (lanes). An outer ORDER BY time DESC streams: the outer aggregate
 * still reads each series whole, and slices are cut newest first.
 */
import type { SelectStatement } from '../ast/nodes.js';
import { InvariantError } from '../errors.js';
import type { FieldType } from '../../engine/index.js';
import { hasRawRef } from '../plan/projection.js';
import type { ResultSeries } from '../result.js';
import type { QueryContext } from './context.js';
import type { CompiledSelect } from './plan-memo.js';
import { aggregatesOf, conditionOf, planWithin } from './plan-derived.js';
import { runAggregateGroup } from './select-agg.js';
import { tagSetEdgePoints } from './tag-set-edge-heap.js';
import { groupsOf, resultSeries, seriesShape } from './select-groups.js';
import type { SelectPlan } from './select-plan.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { callsWithPoints, SlicedRows, type SliceLayout } from './subquery-slices.js';
import { MAX_NS } from '../plan/time-range.js';
import { holdSubqueryRows, releaseSubqueryRows } from './subquery-rows-held.js';
import { addTypes, HeldRows, seriesKeyOf, storedOf, strictlyMonotonic, type InnerRows, type Stored } from './subquery-rows.js';
import { SubquerySource, type SubqueryReading } from './subquery-source.js';

/** Reducers whose answer is one row per window and series. */
const ONE_ROW: ReadonlySet<string> = new Set(['count', 'count_distinct', 'sum', 'mean', 'median', 'mode', 'spread', 'stddev', 'min', 'max', 'first', 'last', 'percentile']);
/** Transforms of an aggregate with at most one row per window. */
const ROW_TRANSFORMS: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'moving_average', 'cumulative_sum', 'elapsed']);

function oneRowPerWindow(plan: SelectPlan): boolean {
  if (plan.projection.shape !== 'aggregate') return false;
  const { calls, transforms } = aggregatesOf(plan);
  return calls.length > 0 && calls.every((c) => ONE_ROW.has(c.reducer) && c.tagArgs.length === 0) && transforms.every((t) => ROW_TRANSFORMS.has(t.name));
}

/** The inner statement can be run group by group (see the header). */
export function streamsInner(stmt: SelectStatement, plan: SelectPlan): boolean {
  return oneRowPerWindow(plan) && (seriesShape(stmt, plan, true).columnTypes ?? []).every((t, i) => i === 0 || t !== undefined);
}

/**
 * Each inner series can be computed in slices of windows (subquery-slices.ts): one row per
 * window from that window's points alone, over a bounded range, read from storage (a
 * subquery source below would recompute its series for every slice).
 */
function slicesInner(stmt: SelectStatement, plan: SelectPlan, sources: readonly MeasurementSource[]): boolean {
  const fill = stmt.fill.mode;
  const { calls, transforms } = aggregatesOf(plan);
  // fill(<value>) fills a slice's empty windows where the series has points elsewhere
  // (callsWithPoints), which tells a call's rows only where every point makes one.
  const fills = fill === 'number' && conditionOf(plan).rows === null && calls.every((c) => FILLED_FROM_POINTS.has(c.reducer));
  return (
    plan.window !== undefined &&
    plan.time.hasMin &&
    plan.time.max < MAX_NS &&
    transforms.length === 0 &&
    stmt.limit === 0 &&
    stmt.offset === 0 &&
    (fill === 'none' || fill === 'null' || fills) &&
    sources.every((s) => !s.fromSubquery)
  );
}

/** Reducers that answer a row for every window holding a point (the others are kept held, not argued for). */
const FILLED_FROM_POINTS: ReadonlySet<string> = new Set(['count', 'count_distinct', 'sum', 'mean', 'median', 'mode', 'spread', 'min', 'max', 'first', 'last']);

/** The outer statement merges its sources' series by time (a raw SELECT), paging no tag sets (see subquery-slices.ts). */
export function mergesSeriesByTime(stmt: SelectStatement, plan: SelectPlan): boolean {
  return plan.projection.shape === 'raw' && stmt.slimit === 0 && stmt.soffset === 0;
}

/** The outer statement reads its one source's series one after the other, each once (see the header). */
export function readsSeriesInTurn(stmt: SelectStatement, plan: SelectPlan, sourceCount: number): boolean {
  return sourceCount === 1 && stmt.slimit === 0 && stmt.soffset === 0 && oneRowPerWindow(plan) && !plan.projection.columns.some((c) => hasRawRef(c.expr));
}

interface InnerGroup {
  readonly ref: SeriesRef;
  /** The group's answer (no rows: it answers nothing, and a held result leaves it out). */
  readonly run: () => Promise<ResultSeries>;
  /** Its answer over part of the range (whole windows: subquery-slices.ts). */
  readonly runIn: (min: bigint, max: bigint) => Promise<ResultSeries>;
}

/** The inner statement's sources, one per measurement with any rows. */
export async function streamedSources(stmt: SelectStatement, { plan, sources }: CompiledSelect, ctx: QueryContext, reading: SubqueryReading): Promise<SubquerySource[]> {
  const shape = seriesShape(stmt, plan, true);
  const rowFilter = conditionOf(plan).rows;
  const byName = new Map<string, InnerGroup[]>();
  for (const source of plan.ascending ? sources : [...sources].reverse()) {
    const groups = byName.get(source.name) ?? [];
    byName.set(source.name, groups);
    const all = await groupsOf(stmt, plan, source, ctx);
    const edges = await tagSetEdgePoints(stmt, plan, source, all, rowFilter, ctx);
    for (const [gi, { tags, series }] of all.entries()) {
      const edgePoints = edges?.[gi];
      const own = tags ?? {};
      let seen: Promise<readonly boolean[]> | undefined;
      const runIn = async (min: bigint, max: bigint): Promise<ResultSeries> => {
        const whole = min === plan.time.min && max === plan.time.max;
        const part = whole ? plan : planWithin(plan, min, max);
        // A slice fills the windows of a call the group has points for elsewhere, as the whole range does.
        const fillsUnseen = whole || stmt.fill.mode !== 'number' ? undefined : await (seen ??= callsWithPoints(source, series, aggregatesOf(plan).calls, plan.time.min, plan.time.max));
        return resultSeries(source.name, tags, shape, await runAggregateGroup({ plan: part, source, series, rowFilter, ctx, ...(fillsUnseen && { fillsUnseen }), ...(edgePoints && { edgePoints }) }));
      };
      groups.push({ ref: { key: seriesKeyOf(own), tags: own }, run: () => runIn(plan.time.min, plan.time.max), runIn });
    }
  }
  const slicing = slicesInner(stmt, plan, sources) ? { spec: plan.window!, min: plan.time.min, max: plan.time.max, ascending: plan.ascending, ctx } : undefined;
  const out: SubquerySource[] = [];
  for (const [name, groups] of byName) {
    const rows = await StreamedRows.open(groups, slicing);
    if (rows) out.push(new SubquerySource(name, rows, reading));
  }
  return out;
}

type Slicing = Omit<SliceLayout, 'runIn'>;

interface Slot {
  readonly ref: SeriesRef;
  readonly rows: Promise<readonly Stored[]>;
  held: number;
}

/** An inner result read one series at a time: the series last asked for is the one held. */
class StreamedRows implements InnerRows {
  readonly streamed = true;
  readonly refs: readonly SeriesRef[];
  readonly types = new Map<string, FieldType>();
  readonly tagKeys: ReadonlySet<string>;
  readonly fromTags: ReadonlySet<string>;
  readonly unlisted: ReadonlySet<string>;
  readonly untyped = new Set<string>();
  private readonly byRef: ReadonlyMap<SeriesRef, InnerGroup>;
  /** Defined only where the inner statement can be cut (slicesInner). */
  readonly sliced: (() => InnerRows) | undefined;
  private slot: Slot | undefined;
  /** The first series with rows, kept as answered until another is read (holdAll reuses it). */
  private first: { readonly index: number; readonly series: ResultSeries } | undefined;

  /**
   * The groups (in the inner statement's order) read until the first with rows, which gives
   * the fields' types as it does when held; undefined when no group has any.
   */
  static async open(groups: readonly InnerGroup[], slicing: Slicing | undefined): Promise<StreamedRows | undefined> {
    for (let i = 0; i < groups.length; i++) {
      const series = await groups[i]!.run();
      if (series.values.length > 0) return new StreamedRows(groups, i, series, slicing);
    }
    return undefined;
  }

  private constructor(
    private readonly groups: readonly InnerGroup[],
    index: number,
    series: ResultSeries,
    slicing: Slicing | undefined,
  ) {
    this.byRef = new Map(groups.map((g) => [g.ref, g]));
    this.sliced = slicing ? () => this.slicedRows(slicing) : undefined;
    this.refs = groups.map((g) => g.ref).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.tagKeys = new Set(Object.keys(series.tags ?? {}));
    // Every inner series has the statement's columns: the first one tells which hold tags.
    this.fromTags = new Set(series.tagColumns);
    this.unlisted = new Set(series.unlistedColumns);
    const ref = groups[index]!.ref;
    const { stored, types } = storedOf(series);
    addTypes(this.types, types, this.untyped);
    this.first = { index, series };
    this.slot = { ref, rows: Promise.resolve([{ ...stored, ref }]), held: series.values.length };
    holdSubqueryRows(series.values.length);
  }

  rowsOf(ref: SeriesRef): Promise<readonly Stored[]> {
    if (this.slot?.ref === ref) return this.slot.rows;
    const group = this.byRef.get(ref);
    if (!group) throw new InvariantError(`subquery series ${ref.key} read from another source`);
    this.drop();
    const rows = group.run().then((series): readonly Stored[] => {
      if (series.values.length === 0) return [];
      const { stored } = storedOf(series);
      if (!strictlyMonotonic(stored.times)) throw new InvariantError(`streamed subquery series ${ref.key} has rows sharing a time`);
      if (this.slot === slot) {
        slot.held = series.values.length;
        holdSubqueryRows(slot.held);
      }
      return [{ ...stored, ref }];
    });
    const slot: Slot = { ref, rows, held: 0 };
    this.slot = slot;
    return rows;
  }

  async holdAll(): Promise<InnerRows> {
    const first = this.first;
    if (!first) throw new InvariantError('streamed subquery held after it was read');
    this.drop();
    const results: ResultSeries[] = [first.series];
    // The groups before the first one with rows answered nothing.
    for (let i = first.index + 1; i < this.groups.length; i++) {
      const series = await this.groups[i]!.run();
      if (series.values.length > 0) results.push(series);
    }
    return new HeldRows(results);
  }

  private slicedRows(slicing: Slicing): InnerRows {
    if (!this.first) throw new InvariantError('streamed subquery sliced after it was read');
    this.drop();
    const runIn = (ref: SeriesRef, min: bigint, max: bigint) => this.byRef.get(ref)!.runIn(min, max);
    return new SlicedRows(this.refs, this.types, this.tagKeys, { ...slicing, runIn });
  }

  release(): void {
    this.drop();
  }

  private drop(): void {
    this.first = undefined;
    if (!this.slot) return;
    releaseSubqueryRows(this.slot.held);
    this.slot.held = 0;
    this.slot = undefined;
  }
}
