/**
 * SELECT: resolve sources (measurements, regexes, subqueries), compile, select and group
 * series per source, run each group raw or aggregated, order series by measurement then tag
 * set, and apply SLIMIT/SOFFSET over whole series.
 */
import type { SelectStatement, Source } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { QueryError } from '../errors.js';
import type { Cell, ResultSeries } from '../result.js';
import type { TimeSplit } from '../plan/time-range.js';
import type { QueryContext, SeriesSink } from './context.js';
import { EngineSource } from './engine-source.js';
import { measurementNames, measurementTarget } from './measurement-target.js';
import { runAggregateGroup } from './select-agg.js';
import { tagSetEdgePoints } from './tag-set-edge-heap.js';
import { compiledSelect, type CompiledSelect } from './plan-memo.js';
import type { ShardQuestion } from './shape-plan-memo.js';
import { aggregatesOf, conditionOf } from './plan-derived.js';
import { extendedRangeWraps } from './extra-intervals.js';
import { rawLayout, runRawGroup } from './select-raw.js';
import { cellFiller } from './fill-cells.js';
import { cellFills } from './call-fill.js';
import { checkSourceCallTypes } from './source-call-types.js';
import { runTransformsApart, transformsApart } from './raw-transforms-apart.js';
import type { MeasurementSource } from './source.js';
import { SubquerySource, type SubqueryReading } from './subquery-source.js';
import { HeldRows } from './subquery-rows.js';
import { mergesSeriesByTime, readsSeriesInTurn, streamedSources, streamsInner } from './subquery-stream.js';
import { groupsOf, resultSeries, seriesShape } from './select-groups.js';
import { leadPercentileMissing, mayLeadPercentile } from './percentile-lead.js';
import { aggregates, innerStatement, keepsInnerNullRows, rowsInSeriesOrder, seriesWindows, statementTime, subqueryRange, tiesInSeriesOrder } from './subquery-statement.js';
import { interleavedFill, refillInterleaved } from './subquery-interleaved-fill.js';
import { runStreamShape } from './run-stream-windows.js';
import { joinCallRanges, splitByCallRange, type PartResult } from './per-call-ranges.js';
import { missingRow } from './call-fill.js';
import { parseDimensions } from './select-plan.js';
import { printedWindowTimes, window as windowOf, type WindowSpec } from './window.js';
import { cutInterleaved, interleavedLimitGroups } from './subquery-interleaved-limit.js';
import { mergeSameName } from './union-source.js';
import { unifyFieldTypes } from './typed-source.js';
import { calledNames } from './group-tag-calls.js';
import { integralSeriesPieces, isIntegralStream, type IntegralGroupRows } from './integral-series-order.js';
import { integralCursorPieces, needsIntegralCursor, type CursorGroup, type SymbolStreams } from './integral-cursor.js';

/** The statement's sources; each question about the time range's shards is added to `asked` (the shape memo's check). */
async function resolveSources(stmt: SelectStatement, ctx: QueryContext, asked: ShardQuestion[], made: SubquerySource[]): Promise<MeasurementSource[]> {
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
      const innerCtx: QueryContext = ctx.outermostRange ? ctx : { ...ctx, outermostRange: subqueryRange(stmt, ctx) };
      const run = innerStatement(stmt, inner, innerCtx);
      const reading: SubqueryReading = {
        keepsNullRows: keepsInnerNullRows(inner),
        outer,
        rowsInSeriesOrder: rowsInSeriesOrder(run, ctx),
        tiesInSeriesOrder: tiesInSeriesOrder(run, ctx),
        seriesWindows: seriesWindows(run, ctx),
        groupBy: parseDimensions(inner.dimensions, ctx.nowNs, inner.location).dims,
        calledNames: calledNames(stmt),
      };
      const cutGroups = interleavedLimitGroups(stmt, run, aggregates(run), ctx);
      // An inner LIMIT cut across interleaved series needs every series' rows at once: held whole.
      const refill = cutGroups ? undefined : interleavedFill(stmt, run, innerCtx);
      if (cutGroups) {
        const result = cutInterleaved(await executeSelect({ ...run, limit: 0, offset: 0 }, innerCtx, undefined, true), cutGroups, run.limit, run.offset, !run.sortFields.some((f) => !f.ascending));
        out.push(...heldSources(result, reading, made));
      } else {
        // The windows that hold points come from the same statement without fill.
        const result = refill && refillInterleaved(await executeSelect(run, innerCtx, undefined, true), await executeSelect({ ...run, fill: { mode: 'none' } }, innerCtx, undefined, true), refill, !run.sortFields.some((f) => !f.ascending));
        if (result) out.push(...heldSources(result, { ...reading, rowsInSeriesOrder: true, runStream: stmt.dimensions.some((d) => d.kind === 'Call') }, made, true));
        else out.push(...(await subquerySources(run, innerCtx, reading, made, readsStretches(stmt, ctx))));
      }
      continue;
    }
    const { db: dbName, rp: rpName } = measurementTarget(src, ctx);
    const index = ctx.engine.openedDatabase(dbName)?.index;
    if (!index || !rangeHasShards(dbName, rpName)) continue;
    for (const n of measurementNames(src, dbName, ctx)) {
      const m = index.measurement(n);
      if (!m) continue;
      // 1.x maps the shards of a whole query once, by the outermost statement's range: an inner
      // statement's `*` lists the fields of those shards.
      const fieldRange = ctx.outermostRange ?? range ?? undefined;
      out.push(new EngineSource(ctx.engine, dbName, rpName, m, fieldRange));
      if (fieldRange && !ctx.engine.fieldsUniform(dbName, rpName, n)) {
        const fields = ctx.engine.fieldsInRange(dbName, rpName, n, fieldRange.min, fieldRange.max);
        asked.push({ db: dbName, rp: rpName, answer: true, measurement: n, fields: fields && new Set(fields) });
      }
    }
  }
  return mergeSameName(unifyFieldTypes(out, stmt));
}

/** A whole inner result as sources, one per measurement name (`inOrder`, `runsOf`: see HeldRows). */
function heldSources(result: readonly ResultSeries[], reading: SubqueryReading, made: SubquerySource[], inOrder = false, runsOf?: 'ascending' | 'descending'): SubquerySource[] {
  const byName = new Map<string, ResultSeries[]>();
  for (const s of result) byName.set(s.name ?? '', [...(byName.get(s.name ?? '') ?? []), s]);
  const out = [...byName].map(([name, series]) => new SubquerySource(name, new HeldRows(series, inOrder, runsOf), reading));
  made.push(...out);
  return out;
}

/**
 * A result series whose times move back against the read direction somewhere. `windows`: an
 * inner multi-row selector's windows, whose rows go oldest first inside a window also under
 * ORDER BY time DESC (subquery-statement.ts seriesWindows): only its windows count.
 */
function goesBack(s: ResultSeries, ascending: boolean, windows?: WindowSpec): boolean {
  const at = (t: bigint): bigint => (windows ? windowOf(t, windows).start : t);
  for (let i = 1; i < s.values.length; i++) {
    const a = s.values[i - 1]![0];
    const b = s.values[i]![0];
    if (typeof a === 'bigint' && typeof b === 'bigint' && (ascending ? at(b) < at(a) : at(b) > at(a))) return true;
  }
  return false;
}

/** The statement reduces the stretches of a stream of rows out of time order (run-stream-windows.ts), in the shapes measured. */
function readsStretches(stmt: SelectStatement, ctx: QueryContext): boolean {
  const { window } = parseDimensions(stmt.dimensions, ctx.nowNs, stmt.location);
  return window !== undefined && runStreamShape(stmt, ctx);
}

/**
 * A subquery's inner statement as sources: streamed (its series computed one at a time as the
 * outer statement reads them) where subquery-stream.ts allows it, else its whole result.
 */
async function subquerySources(run: SelectStatement, ctx: QueryContext, reading: SubqueryReading, made: SubquerySource[], readsStretches: boolean): Promise<SubquerySource[]> {
  const innerMade: SubquerySource[] = [];
  let streamed = false;
  try {
    const prepared = await prepareSelect(run, ctx, true, innerMade);
    if (!prepared) return [];
    // A run stream below (run-stream-windows.ts) answers rows that go back in time: held, below.
    if (!ctx.holdSubqueries && streamsInner(run, prepared.plan) && !prepared.sources.some((s) => s.runStream)) {
      streamed = true;
      // Their rows are read while the outer statement runs: released with the outer's sources.
      for (const s of innerMade) s.readByStreamed = true;
      made.push(...innerMade);
      const out = await streamedSources(run, prepared, ctx, reading);
      made.push(...out);
      return out;
    }
    const result = await runSelect(run, prepared, ctx, undefined, true);
    const direction = run.sortFields.some((f) => !f.ascending) ? 'descending' : 'ascending';
    // A raw statement passing on rows in series order: each series is read run by run, as given.
    if (reading.rowsInSeriesOrder && !aggregates(run)) return heldSources(result, reading, made, false, direction);
    // Rows that go back in time (an aggregate over a run stream): 1.x reads them as they come, so
    // an outer GROUP BY time reduces their stretches as it does the runs themselves. Read as runs
    // only where that order is the emitted one: one inner series, or the stretches of a stream
    // (several series emitted window by window, as an inner top() per window under ORDER BY time
    // DESC, would be read series after series).
    if ((readsStretches || result.length === 1) && result.some((r) => goesBack(r, direction === 'ascending', reading.seriesWindows))) {
      return heldSources(result, { ...reading, rowsInSeriesOrder: true, runStream: readsStretches }, made, false, direction);
    }
    return heldSources(result, reading, made);
  } finally {
    if (!streamed) for (const s of innerMade) s.release();
  }
}

/**
 * The statement compiled, with its sources; null when it answers nothing without reading. The
 * subquery sources made on the way are added to `made` (released when the statement is done).
 */
async function prepareSelect(stmt: SelectStatement, ctx: QueryContext, nested: boolean, made: SubquerySource[]): Promise<CompiledSelect | null> {
  const own: SubquerySource[] = [];
  try {
    let compiled = compiledSelect(stmt, ctx, nested, (asked) => resolveSources(stmt, ctx, asked, own));
    if (compiled instanceof Promise) compiled = await compiled;
    const { sources, plan } = compiled;
    // Only the statement's own subqueries: one a streamed subquery reads (kept in `own` to be
    // released with it) is read in turn by that one, and may already have dropped its first series.
    const direct = own.filter((s) => !s.readByStreamed);
    if (direct.some((s) => s.streamed) && !readsSeriesInTurn(stmt, plan, sources.length)) {
      // A raw SELECT merges the series by time: each is cut into slices of windows where every
      // streamed source allows it (subquery-slices.ts), else every inner result is held.
      const slices = mergesSeriesByTime(stmt, plan) && direct.every((s) => !s.streamed || s.sliceable);
      for (const s of direct) if (!(slices && s.slice())) await s.holdAll();
    }
    const typesOf = (field: string) => sources.map((s) => s.fieldTypes().get(field));
    if (mayLeadPercentile(stmt, (name) => plan.schema.fields.has(name)) && (await leadPercentileMissing(stmt, typesOf, (probe) => executeSelect(probe, ctx, undefined, nested)))) return null;
    if (plan.time.empty) return null;
    if (!nested && extendedRangeWraps(plan)) return null;
    return compiled;
  } finally {
    made.push(...own);
  }
}

/**
 * Run a SELECT. With a `sink` (chunked responses), series are streamed to it and
 * the returned list is empty; otherwise the whole result is returned.
 */
export async function executeSelect(stmt: SelectStatement, ctx: QueryContext, sink?: SeriesSink, nested = false): Promise<ResultSeries[]> {
  const split = splitByCallRange(stmt);
  if (split) {
    const [early, other] = split.parts;
    const joined = joinCallRanges(stmt, split, [await runPart(early, ctx, nested), await runPart(other, ctx, nested)]);
    return sink ? sendSeries(joined, sink) : joined;
  }
  return withPrepared(stmt, ctx, nested, [], (compiled) => runSelect(stmt, compiled, ctx, sink, nested));
}

/** One part of a statement split by call range (per-call-ranges.ts): its rows, and its cells in a row only the other part has. */
function runPart(part: SelectStatement, ctx: QueryContext, nested: boolean): Promise<PartResult> {
  return withPrepared<PartResult>(part, ctx, nested, { series: [] }, async (compiled) => ({
    series: await runSelect(part, compiled, ctx, undefined, nested),
    missing: missingRow(compiled.plan),
    plan: compiled.plan,
  }));
}

/** `run` over the prepared statement (`none` when it answers nothing), its subquery sources released after. */
async function withPrepared<T>(stmt: SelectStatement, ctx: QueryContext, nested: boolean, none: T, run: (compiled: CompiledSelect) => Promise<T>): Promise<T> {
  const made: SubquerySource[] = [];
  try {
    const compiled = await prepareSelect(stmt, ctx, nested, made);
    return compiled ? await run(compiled) : none;
  } finally {
    for (const s of made) s.release();
  }
}

/** Whole series to a chunked response, chunk_size rows at a time (nothing is left to return). */
async function sendSeries(series: readonly ResultSeries[], sink: SeriesSink): Promise<ResultSeries[]> {
  for (const s of series) {
    for (let i = 0; i === 0 || i < s.values.length; i += sink.chunkSize) {
      const more = i + sink.chunkSize < s.values.length;
      await sink.push({ ...s, values: s.values.slice(i, i + sink.chunkSize) }, more);
    }
  }
  return [];
}

/**
 * The statement compiled as executeSelect compiles it, without running it (EXPLAIN): its
 * errors are the statement's; null when it answers nothing without reading.
 */
export async function compileSelectOnly(stmt: SelectStatement, ctx: QueryContext): Promise<CompiledSelect | null> {
  const made: SubquerySource[] = [];
  try {
    return await prepareSelect(stmt, ctx, false, made);
  } finally {
    for (const s of made) s.release();
  }
}

async function runSelect(stmt: SelectStatement, compiled: CompiledSelect, ctx: QueryContext, sink: SeriesSink | undefined, nested: boolean): Promise<ResultSeries[]> {
  const { sources, plan } = compiled;
  if (plan.projection.shape === 'aggregate' && sources.length > 1) {
    const { calls, transforms } = aggregatesOf(plan);
    checkSourceCallTypes(calls, transforms, sources);
  }
  const out: ResultSeries[] = [];
  const shape = seriesShape(stmt, plan, nested);
  const { columns, timeColumn } = shape;
  // One integral() stream over several groups: 1.x sends each group's last window after every
  // group's other rows (integral-series-order.ts), so the groups run unpaged and are ordered after.
  const integralGroups: IntegralGroupRows[] | undefined = isIntegralStream(plan) && (plan.dims.all || plan.dims.names.length > 0 || plan.dims.regexes.length > 0 || sources.length > 1) ? [] : undefined;
  // integral() beside other calls: each symbol's rows of every group, joined after (integral-cursor.ts).
  const cursorGroups: CursorGroup[] | undefined = !integralGroups && needsIntegralCursor(plan, sources.some((s) => s.fromSubquery === true)) ? [] : undefined;
  const groupPlan = integralGroups || cursorGroups ? { ...plan, stmt: { ...plan.stmt, limit: 0, offset: 0 } } : plan;
  // The clamped first window prints as 0 (window.ts windowTime); a subquery's rows keep its key,
  // and integral()'s rows their window's start (1.x has no interval iterator after it).
  const clamps = plan.window !== undefined && !nested && plan.projection.shape === 'aggregate' && !aggregatesOf(plan).calls.every((c) => c.reducer === 'integral');
  const printed = (rows: Cell[][]): Cell[][] => (clamps ? printedWindowTimes(rows) : rows);
  // DESC reverses the measurements too (each one's groups: groupsOf).
  for (const source of plan.ascending ? sources : [...sources].reverse()) {
    const split = conditionOf(plan);
    const groups = await groupsOf(stmt, plan, source, ctx);
    const layout = plan.projection.shape === 'raw' && groups.length > 0 ? rawLayout(plan, source, split.rows) : undefined;
    // Several raw transforms: each its own iterator, joined by time (raw-transforms-apart.ts).
    const apart = transformsApart(plan);
    const edges = await tagSetEdgePoints(stmt, plan, source, groups, split.rows, ctx);
    for (const [gi, group] of groups.entries()) {
      const { tags } = group;
      if (integralGroups) {
        const integralEnd = { endsWithClose: false };
        const values = printed(await runAggregateGroup({ plan: groupPlan, source, series: group.series, rowFilter: split.rows, ctx, integralEnd }));
        integralGroups.push({ name: source.name, tags, values, endsWithClose: integralEnd.endsWithClose });
        continue;
      }
      if (cursorGroups) {
        const symbolStreams: SymbolStreams = {};
        await runAggregateGroup({ plan: groupPlan, source, series: group.series, rowFilter: split.rows, ctx, symbolStreams });
        cursorGroups.push({ name: source.name, tags, ...symbolStreams });
        continue;
      }
      const run = { plan, source, series: group.series, rowFilter: split.rows, ctx, ...(edges && { edgePoints: edges[gi]! }) };
      // 1.x fills the null cells of raw rows too (`SELECT * FROM m fill(0)`, also inside a
      // subquery); aggregates fill their own cells (select-agg.ts)
      const cells = plan.projection.shape === 'raw' ? cellFills(plan) : undefined;
      const fillRaw = cells ? cellFiller(stmt.fill, cells.skip, cells.numbers) : undefined;
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
        rest = printed(rest);
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
      values = printed(values);
      fillRaw?.(values);
      if (values.length === 0) continue;
      out.push(resultSeries(source.name, tags, shape, values));
    }
  }
  const pieces = integralGroups ? integralSeriesPieces(integralGroups, stmt.offset, stmt.limit) : cursorGroups ? integralCursorPieces(cursorGroups, plan) : [];
  for (const { name, tags, values } of pieces) {
    if (!sink) {
      out.push(resultSeries(name, tags, shape, values));
      continue;
    }
    for (let i = 0; i < values.length; i += sink.chunkSize) {
      const pushed = sink.push({ name, tags, columns, timeColumn, values: values.slice(i, i + sink.chunkSize) }, i + sink.chunkSize < values.length);
      if (pushed) await pushed;
    }
  }
  return out;
}
