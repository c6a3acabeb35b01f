/**
 * DELETE, DROP SERIES and DROP MEASUREMENT as engine tombstones (engine.delete).
 *
 * - WHERE: tag comparisons → TagExpr, AND-combined time comparisons → [minNs, maxNs]
 *   (tag-cond.ts); time under OR or `time != x` is refused rather than widened; a field key in
 *   WHERE is 1.x's `fields not supported in WHERE clause during deletion` when a series would be
 *   deleted under it, else a no-op; DROP SERIES rejects time (`DROP SERIES doesn't support
 *   time in WHERE clause`).
 * - FROM: names and regexes → the matching measurements; none matching is a no-op; no FROM
 *   means every measurement.
 * - As in 1.x a series left without data disappears from the index: DELETE without a time
 *   condition drops the matching series outright; with one, the matching series that have no
 *   data left in any policy are dropped afterwards.
 */
import { DatabaseNotFoundError, MAX_TIME_NS, MIN_TIME_NS, selectSeries, TRUE_EXPR } from '../../../engine/index.js';
import type { MeasurementIndex, SeriesIndex, TagExpr } from '../../../engine/index.js';
import type { Expr, Source } from '../../ast/nodes.js';
import { walkExpr } from '../../ast/walk.js';
import type { DeleteStatement, DropMeasurementStatement, DropSeriesStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { requireDatabase, selectMeasurements, seriesIndex } from './common.js';
import { seriesWithData } from './data-probe.js';
import { MetaError } from './errors.js';
import { fieldOnlyKeys, mentionsTime, namedKeys, tagCondition, toTagExpr, type TranslateOptions } from './tag-cond.js';

const FIELDS_IN_WHERE = 'fields not supported in WHERE clause during deletion';
/** Series per exact-match tombstone when dropping series left without data. */
const DROP_CHUNK = 256;

interface Target {
  readonly db: string;
  readonly index: SeriesIndex;
  /** null: every measurement. */
  readonly measurements: MeasurementIndex[] | null;
}

/** The database and measurements a delete acts on; undefined when there is nothing to delete. */
function target(ctx: QueryContext, sources: readonly Source[]): Target | undefined {
  const db = ctx.database;
  if (!db) throw new DatabaseNotFoundError('');
  requireDatabase(ctx, db);
  const index = seriesIndex(ctx, db);
  if (!index) return undefined;
  if (sources.length === 0) return { db, index, measurements: null };
  const measurements = selectMeasurements(index, sources);
  return measurements.length === 0 ? undefined : { db, index, measurements };
}

function measurementsOf(t: Target): MeasurementIndex[] {
  return t.measurements ?? t.index.measurementNames().map((n) => t.index.measurement(n)).filter((m) => m !== undefined);
}

/**
 * How deletes translate WHERE: time exactly. An ordering comparison on a tag stays an error
 * (1.6.7 compares the values as strings there; the tag index here has no such operator).
 */
const DELETE_OPTIONS: TranslateOptions = { exactTime: true };

const ORDERING = new Set(['<', '<=', '>', '>=']);

/** Keys compared with an ordering operator (`v > 1`): 1.x's index filters data on those. */
function orderedKeys(cond: Expr): Set<string> {
  const keys = new Set<string>();
  walkExpr(cond, (n) => {
    if (n.kind === 'Binary' && ORDERING.has(n.op)) {
      for (const side of [n.lhs, n.rhs]) if (side.kind === 'VarRef' && side.type !== 'tag' && side.name.toLowerCase() !== 'time') keys.add(side.name);
    }
    return true;
  });
  return keys;
}

/**
 * A condition naming a field key, or ordering a key that is not a tag: 1.x's index leaves that
 * comparison as a filter on the series the tag comparisons select, and refuses the delete only
 * when some series is left with such a filter (`fields not supported in WHERE clause during
 * deletion`). Otherwise nothing matches and the statement does nothing. Answers true when the
 * condition has such a comparison for a target measurement (and nothing is to be deleted).
 */
function refuseFieldFilters(t: Target, cond: Expr | null, nowNs: bigint): boolean {
  if (!cond) return false;
  const named = namedKeys(cond);
  const ordered = orderedKeys(cond);
  let filtered = false;
  for (const m of measurementsOf(t)) {
    const fields = fieldOnlyKeys(m);
    if (![...named].some((k) => fields.has(k)) && ![...ordered].some((k) => !m.tags.has(k))) continue;
    filtered = true;
    const { expr } = tagCondition(cond, nowNs, { ...DELETE_OPTIONS, fieldsMatchAll: fields, orderingOnNonTagMatchesAll: m.tags });
    if (expr.op !== 'false' && selectSeries(m, expr).length > 0) throw new MetaError(FIELDS_IN_WHERE, 'fields_in_delete');
  }
  return filtered;
}

const names = (t: Target): string[] | null => (t.measurements ? t.measurements.map((m) => m.name) : null);

export async function dropMeasurement(stmt: DropMeasurementStatement, ctx: QueryContext): Promise<StatementOutput> {
  const t = target(ctx, [{ kind: 'Measurement', database: '', retentionPolicy: '', name: stmt.name, regex: null }]);
  if (!t) return EMPTY_OUTPUT;
  await ctx.engine.delete({ db: t.db, measurements: names(t), expr: TRUE_EXPR, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
  return EMPTY_OUTPUT;
}

export async function dropSeries(stmt: DropSeriesStatement, ctx: QueryContext): Promise<StatementOutput> {
  if (stmt.condition && mentionsTime(stmt.condition)) throw new MetaError("DROP SERIES doesn't support time in WHERE clause", 'time_not_supported');
  const t = target(ctx, stmt.sources);
  if (!t) return EMPTY_OUTPUT;
  if (refuseFieldFilters(t, stmt.condition, ctx.nowNs)) return EMPTY_OUTPUT;
  const expr = stmt.condition ? toTagExpr(stmt.condition, DELETE_OPTIONS) : TRUE_EXPR;
  await ctx.engine.delete({ db: t.db, measurements: names(t), expr, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
  return EMPTY_OUTPUT;
}

/** A TagExpr matching exactly the given series of `m` (every tag key of m pinned, '' = absent). */
function exactSeries(index: SeriesIndex, m: MeasurementIndex, ids: readonly number[]): TagExpr {
  const keys = [...m.tags.keys()];
  const one = (id: number): TagExpr => {
    const tags = index.seriesById(id)?.tags ?? [];
    let e: TagExpr = TRUE_EXPR;
    for (const key of keys) {
      const eq: TagExpr = { op: 'eq', key, value: tags.find((t) => t.key === key)?.value ?? '' };
      e = e.op === 'true' ? eq : { op: 'and', left: e, right: eq };
    }
    return e;
  };
  const balanced = (lo: number, hi: number): TagExpr =>
    hi - lo === 1 ? one(ids[lo]!) : { op: 'or', left: balanced(lo, (lo + hi) >> 1), right: balanced((lo + hi) >> 1, hi) };
  return balanced(0, ids.length);
}

/** Forget the series matching `expr` (in `measurements`, null = all) that have no data left in any policy. */
export async function dropSeriesWithoutData(ctx: QueryContext, db: string, measurements: MeasurementIndex[] | null, expr: TagExpr): Promise<void> {
  const index = seriesIndex(ctx, db);
  if (!index) return;
  await dropEmptied(ctx, { db, index, measurements }, expr);
}

async function dropEmptied(ctx: QueryContext, t: Target, expr: TagExpr): Promise<void> {
  for (const m of measurementsOf(t)) {
    const ids = selectSeries(m, expr);
    if (ids.length === 0) continue;
    const alive = new Set(await seriesWithData(ctx, t.db, m, ids, MIN_TIME_NS, MAX_TIME_NS));
    const empty = ids.filter((id) => !alive.has(id));
    for (let i = 0; i < empty.length; i += DROP_CHUNK) {
      const chunk = empty.slice(i, i + DROP_CHUNK);
      await ctx.engine.delete({ db: t.db, measurements: [m.name], expr: exactSeries(t.index, m, chunk), minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
    }
  }
}

export async function deleteData(stmt: DeleteStatement, ctx: QueryContext): Promise<StatementOutput> {
  const t = target(ctx, stmt.sources);
  if (!t) return EMPTY_OUTPUT;
  if (refuseFieldFilters(t, stmt.condition, ctx.nowNs)) return EMPTY_OUTPUT;
  const cond = tagCondition(stmt.condition, ctx.nowNs, DELETE_OPTIONS);
  if (cond.empty || cond.expr.op === 'false') return EMPTY_OUTPUT;
  const measurements = names(t);
  if (!cond.timed) {
    await ctx.engine.delete({ db: t.db, measurements, expr: cond.expr, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
    return EMPTY_OUTPUT;
  }
  await ctx.engine.delete({ db: t.db, measurements, expr: cond.expr, minNs: cond.minNs, maxNs: cond.maxNs, dropSeries: false });
  await dropEmptied(ctx, t, cond.expr);
  return EMPTY_OUTPUT;
}
