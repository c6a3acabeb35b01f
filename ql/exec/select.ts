/**
 * SELECT: resolve sources (measurements, regexes, subqueries), compile, select and group
 * series per source, run each group raw or aggregated, order series by measurement then tag
 * set, and apply SLIMIT/SOFFSET over whole series.
 */
import { DatabaseNotFoundError, RetentionPolicyNotFoundError } from '../../engine/index.js';
import type { SelectStatement, Source } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { QueryError } from '../errors.js';
import type { Cell, ResultSeries } from '../result.js';
import { columnType } from '../plan/column-types.js';
import { isTag } from '../plan/projection.js';
import type { TimeSplit } from '../plan/time-range.js';
import type { QueryContext, SeriesSink } from './context.js';
import { EngineSource } from './engine-source.js';
import { runAggregateGroup } from './select-agg.js';
import { dimensionTags, type SelectPlan } from './select-plan.js';
import { compiledSelect } from './plan-memo.js';
import type { ShardQuestion } from './shape-plan-memo.js';
import { conditionOf } from './plan-derived.js';
import { rawLayout, runRawGroup } from './select-raw.js';
import { cellFiller } from './fill-cells.js';
import { nullByDuration } from './duration-constant.js';
import { runTransformsApart, transformsApart } from './raw-transforms-apart.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { SubquerySource } from './subquery-source.js';
import { leadPercentileMissing, mayLeadPercentile } from './percentile-lead.js';
import { aggregates, innerStatement, keepsInnerNullRows, rowsInSeriesOrder, statementTime, tiesInSeriesOrder } from './subquery-statement.js';
import { cutInterleaved, interleavedLimitGroups } from './subquery-interleaved-limit.js';
import { mergeSameName } from './union-source.js';
import { unifyFieldTypes } from './typed-source.js';
import { pageTagSets } from './tag-set-page.js';
import { seriesInRangeShards } from './shard-tag-sets.js';
import { integralSeriesPieces, isIntegralStream, type IntegralGroupRows } from './integral-series-order.js';

function resolveDb(name: string, ctx: QueryContext): string {
  const db = name || ctx.database;
  if (!db) throw new QueryError('database name required');
  if (!ctx.engine.catalog.database(db)) throw new DatabaseNotFoundError(db);
  return db;
}

/** The statement's sources; each question about the time range's shards is added to `asked` (the shape memo's check). */
async function resolveSources(stmt: SelectStatement, ctx: QueryContext, asked: ShardQuestion[]): Promise<MeasurementSource[]> {
  const out: MeasurementSource[] = [];
  // False when the time range maps to no shard of db.rp: 1.x then knows none of the fields (they
  // come from the shards), so the statement answers nothing instead of, say, a type error. A
  // condition that cannot be split is left for compileSelect to report.
  let range: TimeSplit | null | undefined;
  const rangeHasShards = (db: string, rp: string): boolean => {
    if (range === undefined) {
      try {
        range = statementTime(stmt, ctx);
      } catch {
        range = null;
      }
    }
    if (range === null) return true;
    const answer = ctx.engine.hasShardOverlapping(db, rp, range.min, range.max);
    asked.push({ db, rp, answer });
    return answer;
  };
  for (const src of stmt.sources as readonly Source[]) {
    if (src.kind === 'SubQuery') {
      const inner = src.statement;
      const outer = statementTime(stmt, ctx);
      const innerCtx: QueryContext = ctx.outermostRange ? ctx : { ...ctx, outermostRange: outer };
      const run = innerStatement(stmt, inner, innerCtx);
      const cutGroups = interleavedLimitGroups(stmt, run, aggregates(run), ctx);
      const result = cutGroups
        ? cutInterleaved(await executeSelect({ ...run, limit: 0, offset: 0 }, innerCtx, undefined, true), cutGroups, run.limit, run.offset, !run.sortFields.some((f) => !f.ascending))
        : await executeSelect(run, innerCtx, undefined, true);
      const bySeries = rowsInSeriesOrder(run, ctx);
      const byName = new Map<string, ResultSeries[]>();
      for (const s of result) byName.set(s.name ?? '', [...(byName.get(s.name ?? '') ?? []), s]);
      const ties = tiesInSeriesOrder(run, ctx);
      for (const [name, series] of byName) out.push(new SubquerySource(name, series, keepsInnerNullRows(inner), outer, bySeries, ties));
      continue;
    }
    if (!src.regex && src.name === '') throw new QueryError('invalid measurement');
    const dbName = resolveDb(src.database, ctx);
    const info = ctx.engine.catalog.database(dbName)!;
    // 1.x's normalizeMeasurement: the request's `rp` applies to every source naming no policy, in any database
    const rpName = src.retentionPolicy || ctx.retentionPolicy || info.defaultRp || '';
    if (!info.rps.some((r) => r.name === rpName)) throw new RetentionPolicyNotFoundError(rpName);
    const index = ctx.engine.openedDatabase(dbName)?.index;
    if (!index || !rangeHasShards(dbName, rpName)) continue;
    const names = src.regex ? index.measurementNames().filter((n) => compileRegex(src.regex!.source).test(n)) : [src.name];
    for (const n of names) {
      const m = index.measurement(n);
      if (m) out.push(new EngineSource(ctx.engine, dbName, rpName, m));
    }
  }
  return mergeSameName(unifyFieldTypes(out, stmt));
}

interface Group {
  readonly key: string[];
  readonly series: SeriesRef[];
}

function groupSeries(series: readonly SeriesRef[], dims: readonly string[]): Group[] {
  const groups = new Map<string, Group>();
  for (const s of series) {
    const key = dims.map((d) => s.tags[d] ?? '');
    const k = key.join('\u0000');
    let g = groups.get(k);
    if (!g) {
      g = { key, series: [] };
      groups.set(k, g);
    }
    g.series.push(s);
  }
  return [...groups.values()].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      if (a.key[i]! < b.key[i]!) return -1;
      if (a.key[i]! > b.key[i]!) return 1;
    }
    return 0;
  });
}

function tagColumnsOf(plan: SelectPlan): string[] | undefined {
  const out = plan.projection.columns.filter((c) => c.expr.kind === 'VarRef' && isTag(c.expr.name, c.expr.type, plan.schema)).map((c) => c.name);
  return out.length > 0 ? out : undefined;
}

/**
 * Run a SELECT. With a `sink` (chunked responses), series are streamed to it and
 * the returned list is empty; otherwise the whole result is returned.
 */
export async function executeSelect(stmt: SelectStatement, ctx: QueryContext, sink?: SeriesSink, nested = false): Promise<ResultSeries[]> {
  let compiled = compiledSelect(stmt, ctx, nested, (asked) => resolveSources(stmt, ctx, asked));
  if (compiled instanceof Promise) compiled = await compiled;
  const { sources, plan } = compiled;
  const typesOf = (field: string) => sources.map((s) => s.fieldTypes().get(field));
  if (mayLeadPercentile(stmt) && (await leadPercentileMissing(stmt, typesOf, (probe) => executeSelect(probe, ctx, undefined, nested)))) return [];
  if (plan.time.empty) return [];
  const out: ResultSeries[] = [];
  const columns = [plan.projection.timeName, ...plan.projection.columns.map((c) => c.name)];
  const timeColumn = plan.projection.timeName !== 'time' || undefined;
  const tagColumns = plan.projection.shape === 'raw' ? tagColumnsOf(plan) : undefined;
  // Writes (INTO) and outer queries (a subquery's columns) need the types cells cannot show.
  const columnTypes = stmt.target || nested ? [undefined, ...plan.projection.columns.map((c) => columnType(c.expr, plan.schema))] : undefined;
  const fieldNames = nested ? [plan.projection.timeName, ...plan.projection.columns.map((c) => c.fieldName)] : undefined;
  // One integral() stream over several groups: 1.x sends each group's last window after every
  // group's other rows (integral-series-order.ts), so the groups run unpaged and are ordered after.
  const integralGroups: IntegralGroupRows[] | undefined = isIntegralStream(plan) && (plan.dims.all || plan.dims.names.length > 0 || plan.dims.regexes.length > 0 || sources.length > 1) ? [] : undefined;
  const groupPlan = integralGroups ? { ...plan, stmt: { ...plan.stmt, limit: 0, offset: 0 } } : plan;
  // 1.x pages the tag sets of each measurement (tag-set-page.ts), also under ORDER BY time DESC
  // in ascending order, counting tag sets without a point in the range (they answer nothing).
  // DESC then reverses the measurements too.
  for (const source of plan.ascending ? sources : [...sources].reverse()) {
    const split = conditionOf(plan);
    const dims = dimensionTags(plan.dims, plan.schema.tags);
    let tagSets = groupSeries(source.series(split.tags), dims);
    if ((stmt.slimit > 0 || stmt.soffset > 0) && source instanceof EngineSource) {
      const present = await seriesInRangeShards(ctx, source, tagSets.flatMap((g) => g.series), plan.time.min, plan.time.max);
      tagSets = tagSets.filter((g) => g.series.some((s) => present.has(s.key)));
    }
    const groups = pageTagSets(tagSets, dims, stmt.slimit, stmt.soffset);
    if (!plan.ascending) groups.reverse();
    const layout = plan.projection.shape === 'raw' && groups.length > 0 ? rawLayout(plan, source, split.rows) : undefined;
    // Several raw transforms: each its own iterator, joined by time (raw-transforms-apart.ts).
    const apart = transformsApart(plan);
    for (const group of groups) {
      const tags = dims.length ? Object.fromEntries(dims.map((d, i) => [d, group.key[i]!])) : undefined;
      if (integralGroups) {
        const integralEnd = { endsWithClose: false };
        const values = await runAggregateGroup({ plan: groupPlan, source, series: group.series, rowFilter: split.rows, ctx, integralEnd });
        integralGroups.push({ name: source.name, tags, values, endsWithClose: integralEnd.endsWithClose });
        continue;
      }
      const run = { plan, source, series: group.series, rowFilter: split.rows, ctx };
      // 1.x fills the null cells of raw rows too (`SELECT * FROM m fill(0)`, also inside a
      // subquery); aggregates fill their own cells (select-agg.ts)
      const fillRaw = plan.projection.shape === 'raw' ? cellFiller(stmt.fill, plan.projection.columns.map((c) => nullByDuration(c.expr))) : undefined;
      if (sink) {
        let any = false;
        const emit = async (values: Cell[][]) => {
          any = true;
          fillRaw?.(values);
          await sink.push({ name: source.name, tags, columns, timeColumn, values }, true);
        };
        let rest = apart ? runTransformsApart(run) : plan.projection.shape === 'raw' ? runRawGroup(run, emit, sink.chunkSize, layout) : runAggregateGroup(run);
        // Awaited only when pending: an await of a value is a turn of the microtask queue too.
        if (rest instanceof Promise) rest = await rest;
        fillRaw?.(rest);
        for (let i = 0; i < rest.length; i += sink.chunkSize) {
          const more = i + sink.chunkSize < rest.length;
          any = true;
          // A group that fits one piece is handed over as it is (no copy of its rows).
          const pushed = sink.push({ name: source.name, tags, columns, timeColumn, values: i === 0 && !more ? rest : rest.slice(i, i + sink.chunkSize) }, more);
          if (pushed) await pushed;
        }
        if (any && rest.length === 0) await sink.push({ name: source.name, tags, columns, timeColumn, values: [] }, false);
        continue;
      }
      let values = apart ? runTransformsApart(run) : plan.projection.shape === 'raw' ? runRawGroup(run, undefined, undefined, layout) : runAggregateGroup(run);
      if (values instanceof Promise) values = await values;
      fillRaw?.(values);
      if (values.length === 0) continue;
      out.push({ name: source.name, tags, columns, timeColumn, tagColumns, values, ...(columnTypes && { columnTypes }), ...(fieldNames && { fieldNames }) });
    }
  }
  for (const { name, tags, values } of integralGroups ? integralSeriesPieces(integralGroups, stmt.offset, stmt.limit) : []) {
    if (!sink) {
      out.push({ name, tags, columns, timeColumn, tagColumns, values, ...(columnTypes && { columnTypes }), ...(fieldNames && { fieldNames }) });
      continue;
    }
    for (let i = 0; i < values.length; i += sink.chunkSize) {
      const pushed = sink.push({ name, tags, columns, timeColumn, values: values.slice(i, i + sink.chunkSize) }, i + sink.chunkSize < values.length);
      if (pushed) await pushed;
    }
  }
  return out;
}
