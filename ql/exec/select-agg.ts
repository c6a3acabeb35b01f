/**
 * Aggregate SELECT for one output series. Values are fed to reducers as typed batch slices
 * (one reducer per aggregate call per GROUP BY time window); with a row filter, rows are
 * joined and filtered first. Then, per aggregate, fill() over the windows, transforms over
 * the aggregate sequence, and finally each column's expression is evaluated per row.
 */
import { FieldType, type Batch } from '../../engine/index.js';
import type { Cell } from '../result.js';
import { FORECASTS, SELECTORS } from '../plan/functions.js';
import { hasRawRef, isTag } from '../plan/projection.js';
import { isIntegerOutput, type AggCall, type AggTransform } from './agg-calls.js';
import { aggregatesOf, denseLayoutOf } from './plan-derived.js';
import { forecast } from './forecast.js';
import { checkpoint } from './context.js';
import { eachBatch } from './each-batch.js';
import { evaluate, type RowScope } from './eval.js';
import { fillSeries, type FillMode } from './fill.js';
import { createReducer, type PartialClock, type Reducer, type ReducerArgs, type SubqueryRowOrder } from './reducers/index.js';
import { IntegralReducer } from './reducers/integral.js';
import { StddevStream } from './reducers/stddev-stream.js';
import { evalTypes, fieldRefs, transformArgs, type GroupRun } from './select-raw.js';
import { createTransform, runTransform, type TransformName } from './transform.js';
import { checkTransformInners } from './transform-inner-type.js';
import type { ResultRow, Scalar, TimedValue } from './value.js';
import { forEachPointWindow, selectorLabel } from './fall-back-windows.js';
import { forEachWindowRun, window as windowOf, type WindowSpec } from './window.js';
import { inRange, readEnd, readStart, windowRange } from './agg-read-range.js';
import { findAux } from './aux.js';
import { pointHolder, seriesHeapOf } from './edge-series.js';
import { INTEGER_TYPES, runTopWithTags } from './select-top.js';
import { aggregateFromStats } from './batch-stats.js';
import { alignedRows, clampedOrder } from './aligned-rows.js';
import { runDenseGroup } from './select-agg-dense.js';
import { transformMultiRows, windowsNewestFirst } from './multi-row-transforms.js';
import { fillNullCells } from './fill-cells.js';
import { callFillType, cellFills, cursorFill, fieldFill, hasFillIterator, missingSymbols, symbolKeys } from './call-fill.js';
import { clippedReducer } from './clipped-reducer.js';
import { forEachPassingRow, singleValueColumn } from './passing-rows.js';
import { auxTagTieLess, inputHeadReads, readsInputHead, type ReadBounds } from './selector-input-cut.js';
import { runStreamRows } from './run-stream-windows.js';
import { finish } from './group-rows-finish.js';
import { seriesInMergeOrder } from './partial-series-order.js';
import { percentileLeadRows } from './percentile-lead-replay.js';
import { integralRows, integralRowsOf } from './integral-rows.js';
import { handOverStreams } from './integral-cursor.js';

type Windows = Map<bigint, Reducer[]>;

const NO_FORECASTS: ReadonlySet<bigint> = new Set();

/**
 * Not an async function: a dense group whose blocks are in memory is answered without a
 * promise (runDenseGroup); everything else goes through the general path's async body.
 */
export function runAggregateGroup(g: GroupRun): Cell[][] | Promise<Cell[][]> {
  const { plan, source, ctx } = g;
  const spec = plan.window;
  const { calls, transforms } = aggregatesOf(plan);
  if (source.runStream && spec) return runStreamRows(g, calls);
  if (calls.length === 1 && calls[0]!.tagArgs.length > 0) return runTopWithTags(g, calls[0]!).then((rows) => filledCells(g, finish(g, rows, true)));
  const types = source.fieldTypes();
  checkTransformInners(transforms, types);
  const { hasMin } = plan.time;
  // 1.x starts the inner aggregate one interval before the first window so that window has a
  // predecessor (one interval after the last under ORDER BY time DESC, which runs backwards).
  const extend = transforms.some((t) => t.name !== 'cumulative_sum' && !FORECASTS.has(t.name));
  const min = readStart(plan, extend);
  const max = readEnd(plan, extend);
  const windows: Windows = new Map();
  // integral() is one stream across the windows (it interpolates at their edges, 1.x): every
  // window gets a view of the call's single stream, showing the stream's row for that window.
  const streams: Reducer[] = [];
  // sum() and mean() merge per-series, per-shard partials as 1.x does (reducers/partials.ts).
  const clock: PartialClock = { series: 0, shard: 0n };
  // Under ORDER BY time DESC with TZ() a window stretched by a fall-back change splits in two
  // (forEachPointWindow); a block's stats then no longer answer it whole.
  const splitDesc = spec?.tz !== undefined && !plan.ascending;
  // Made once: every window's reducers share them (the clock is read, never replaced).
  const seriesHeap = seriesHeapOf(g);
  const callTypes = calls.map((c) => types.get(c.field));
  // A subquery is one stream to 1.x: mean() of its integers is one wrapping int64 sum / count,
  // not a merge of per-series means (which differs once the sum overflows).
  const oneStream = (i: number): boolean => {
    const t = callTypes[i];
    return source.fromSubquery === true && calls[i]!.reducer === 'mean' && t !== undefined && (INTEGER_TYPES as ReadonlySet<FieldType>).has(t);
  };
  // A subquery's float sum()/mean() add its rows as one stream, in the order they reach the call.
  const subqueryRows = subqueryRowOrder(g);
  const callArgs = calls.map(
    (c, i): ReducerArgs => ({
      ...c.args,
      ...(oneStream(i) ? {} : { partials: clock }),
      ...(plan.ascending ? {} : { descending: true }),
      ...(seriesHeap && { seriesHeap }),
      ...(subqueryRows ? { subqueryRows } : {}),
    }),
  );
  // stddev() of several stored series: 1.x's merge heap runs through the windows (stddev-stream.ts).
  const deviations: StddevStream[] = [];
  const deviationStream = spec !== undefined && !splitDesc && !source.fromSubquery && g.series.length > 1;
  const makeReducers = (start?: bigint): Reducer[] =>
    calls.map((c, i) => {
      const t = callTypes[i];
      if (t === undefined) return createReducer(c.reducer === 'count_distinct' ? 'count' : c.reducer, FieldType.Float, c.args);
      if (c.reducer === 'stddev' && deviationStream && start !== undefined) {
        return (deviations[i] ??= new StddevStream(clock, !plan.ascending)).windowView(FieldType.Float, start, windowOf(start, spec!).end);
      }
      if (c.reducer !== 'integral') return createReducer(c.reducer, t, callArgs[i]!);
      // ORDER BY time DESC integrates newest first (buffered, then merged descending).
      const newestFirst = plan.ascending ? {} : spec ? { descending: true } : { descending: true, merged: true, endNs: plan.time.max };
      const args = { ...c.args, integral: { ...c.args.integral, window: spec, startNs: hasMin ? min : undefined, merged: g.series.length > 1, clock, tiesAsGiven: source.fromSubquery === true, ...newestFirst } };
      if (!spec || start === undefined) return createReducer(c.reducer, t, args);
      const stream = (streams[i] ??= createReducer(c.reducer, t, args));
      // 1.x reads the extra window of a transform's inner call for that call alone.
      const feed = extend && !c.extended ? clippedReducer(stream, plan.time.min, plan.time.max) : stream;
      return {
        name: stream.name,
        outputType: stream.outputType,
        add: (base, offsets, column, from, to) => feed.add(base, offsets, column, from, to),
        result: () => integralRowsOf(stream.result(), start, spec, plan.ascending),
        ...(stream.prepare ? { prepare: (pause: () => Promise<void> | undefined) => stream.prepare!(pause) } : {}),
      };
    });
  // Validate types before reading anything (1.x reports type errors even on empty data).
  const outputTypes = makeReducers().map((r) => r.outputType);
  const readsHead = calls.length === 1 && readsInputHead(calls[0]!.reducer, calls[0]!.tagArgs.length, plan.stmt.limit, plan.stmt.offset) && !source.fromSubquery;
  const general = async (): Promise<Cell[][]> => {
    const head = readsHead
      ? await inputHeadReads(g, calls[0]!.field, plan.stmt.limit + plan.stmt.offset + 1, min, max, auxTagTieLess(g, plan.projection.columns.map((c) => c.expr)))
      : undefined;
    const whole: readonly ReadBounds[] = min <= max ? [{ min, max }] : [];
    const readsOf = (i: number): readonly ReadBounds[] => head?.[i] ?? whole;
    // The window holding an unaligned edge of the range reads points outside it for a transform's
    // inner call; the query's other calls keep only the range's points (clipped-reducer.ts).
    const edge = !extend || !spec ? undefined : plan.ascending ? plan.time.min : plan.time.max + 1n;
    const clipAt = edge !== undefined && windowOf(edge, spec!).start !== edge ? windowOf(plan.ascending ? edge : edge - 1n, spec!).start : undefined;
    const reducersAt = (start: bigint): Reducer[] => {
      let r = windows.get(start);
      if (!r) {
        r = makeReducers(start);
        if (start === clipAt) r = r.map((x, i) => (calls[i]!.extended ? x : clippedReducer(x, plan.time.min, plan.time.max)));
        windows.set(start, r);
      }
      return r;
    };
    const single = spec ? undefined : 0n;
    if (g.edgePoints) {
      // One pick over the points the tag set's heap left this group (tag-set-edge-heap.ts).
      clock.series = 0;
      const t = callTypes[0];
      for (const p of g.edgePoints) {
        const col = t === undefined ? undefined : singleValueColumn(t, p.value);
        if (col) reducersAt(single!)[0]!.add(p.time, Float64Array.of(0), col, 0, 1);
      }
    } else if (!g.rowFilter) {
      const byField = new Map<string, number[]>();
      calls.forEach((c, i) => {
        if (!types.has(c.field)) return;
        const list = byField.get(c.field) ?? [];
        list.push(i);
        byField.set(c.field, list);
      });
      for (const [seriesIndex, ref] of seriesInMergeOrder(g.series, calls, plan.ascending, source.fromSubquery === true)) {
        clock.series = seriesIndex;
        for (const [field, idx] of byField) {
          // last()/first() alone over a whole range: the newest (oldest) point of each series
          // decides, so one row from a descending (ascending) cursor replaces the full scan.
          const edge = spec ? undefined : edgeOnly(idx.map((i) => calls[i]!.reducer));
          if (edge) {
            const cursor = source.cursor(ref, field, min, max, edge === 'first');
            try {
              const b = await cursor.next();
              if (b && b.offsets.length > 0) {
                const rs = reducersAt(single!);
                // Every point at the edge time: a subquery's series may hold several (ties go to the larger value).
                let n = 1;
                while (n < b.offsets.length && b.offsets[n] === b.offsets[0]) n++;
                for (const i of idx) rs[i]!.add(b.base, b.offsets, b.column, 0, n);
              }
            } finally {
              cursor.close();
            }
            continue;
          }
          const names = idx.map((i) => calls[i]!.reducer);
          const addBatch = (b: Batch): void => {
            clock.shard = b.base;
            if (b.stats && !splitDesc && aggregateFromStats(b, names, spec, single ?? 0n, (start) => idx.map((i) => reducersAt(start)[i]!))) return;
            const { base, offsets, column } = b;
            if (!spec) {
              const rs = reducersAt(single!);
              for (const i of idx) rs[i]!.add(base, offsets, column, 0, offsets.length);
              return;
            }
            forEachWindowRun(base, offsets, 0, offsets.length, spec, (start, end, from, to) => {
              const add = (key: bigint, f: number, t: number): void => {
                const rs = reducersAt(key);
                for (const i of idx) rs[i]!.add(base, offsets, column, f, t);
              };
              if (splitDesc && end - start > spec.interval) forEachPointWindow(base, offsets, from, to, spec, add);
              else add(start, from, to);
            });
          };
          for (const read of readsOf(seriesIndex)) {
            const cursor = source.cursor(ref, field, read.min, read.max, true);
            try {
              await eachBatch(cursor, ctx, addBatch);
            } finally {
              cursor.close();
            }
          }
        }
      }
    } else {
      const fields = calls.map((c) => c.field);
      for (const [seriesIndex, ref] of seriesInMergeOrder(g.series, calls, plan.ascending, source.fromSubquery === true)) {
        // Rows carry no shard: partials are per series here.
        clock.series = seriesIndex;
        clock.shard = 0n;
        // Rows bucketed as forEachWindowRun does: a window from its first row on (so a window
        // a fall-back change stretches stays one), split per row under DESC (forEachPointWindow).
        let bucket: { start: bigint; end: bigint } | undefined;
        for (const read of readsOf(seriesIndex)) {
          await forEachPassingRow(g, ref, fields, read.min, read.max, (time, valueOf) => {
            if (spec && (splitDesc || !bucket || time < bucket.start || time >= bucket.end)) bucket = windowOf(time, spec);
            const rs = reducersAt(bucket ? bucket.start : single!);
            calls.forEach((c, i) => {
              const t = types.get(c.field);
              const col = t === undefined ? undefined : singleValueColumn(t, valueOf(c.field));
              if (col) rs[i]!.add(time, Float64Array.of(0), col, 0, 1);
            });
          });
        }
      }
    }
    const rows = await assembleRows(g, calls, transforms, windows, min, max, outputTypes);
    // Which of the group's rows 1.x sends after every group's other rows (integral-series-order.ts).
    const integrals = spec ? streams : (windows.get(single!) ?? []);
    if (g.integralEnd) g.integralEnd.endsWithClose = integrals.some((s) => s instanceof IntegralReducer && s.endsWithClose);
    if (g.symbolStreams) g.symbolStreams.closing = new Set(calls.filter((c, i) => integrals[i] instanceof IntegralReducer && integrals[i].endsWithClose).map((c) => c.key));
    return rows;
  };
  const layout = g.rowFilter === null && !readsHead && !g.edgePoints ? denseLayoutOf(plan) : undefined;
  if (layout) {
    const rows = runDenseGroup(g, calls, types, layout);
    if (rows instanceof Promise) return rows.then((r) => (r ? finish(g, r) : general()));
    if (rows) return finish(g, rows);
  }
  return general();
}

/** The order a subquery's rows reach an outer aggregate in (reducers/stream-sum.ts); undefined for a measurement. */
function subqueryRowOrder(g: GroupRun): SubqueryRowOrder | undefined {
  const { source, series } = g;
  if (source.fromSubquery !== true) return undefined;
  if (source.rowsInSeriesOrder === true) return { order: 'series' };
  if (source.tiesInSeriesOrder === true) return { order: 'time-then-series' };
  if (!series.some((s) => s.lane)) return { order: 'heap' };
  // Lanes of one inner series meet at a time in lane order, i.e. the inner order (raw-merge-order.ts).
  return {
    order: 'heap',
    tieBefore: (a, b) => {
      const la = series[a]?.lane;
      const lb = series[b]?.lane;
      return la !== undefined && lb !== undefined && la.of === lb.of && la.index < lb.index;
    },
  };
}

function edgeOnly(reducers: readonly string[]): 'first' | 'last' | undefined {
  if (reducers.length > 0 && reducers.every((r) => r === 'last')) return 'last';
  if (reducers.length > 0 && reducers.every((r) => r === 'first')) return 'first';
  return undefined;
}

async function assembleRows(
  g: GroupRun,
  calls: readonly AggCall[],
  transforms: readonly AggTransform[],
  windows: Windows,
  min: bigint,
  max: bigint,
  /** Each call's result type where no window was made (a run filling calls it saw no point for). */
  outputTypes: readonly FieldType[],
): Promise<Cell[][]> {
  const { plan } = g;
  const spec = plan.window;
  const { hasMin } = plan.time;
  // Aggregate-level fill and transforms run in output order (1.x iterates windows backwards
  // under ORDER BY time DESC: fill(previous) takes the later window, cumulative_sum starts
  // from the newest).
  const desc = spec !== undefined && !plan.ascending;
  const starts = ascendingKeys(windows);
  const fill = plan.stmt.fill;
  // A field beside the calls that the row lacks: 1.x's cursor default under fill(N) (call-fill.ts).
  const fillField = fieldFill(plan);
  const filledInput = (name: string, hint: string | null, v: Scalar): Scalar => (v === null && fillField && !isTag(name, hint, plan.schema) ? fillField(name, hint) : v);
  // One multi-row call (also as a transform's inner, read apart: agg-calls.ts `extended`).
  const multiRow = ['top', 'bottom', 'distinct', 'sample'].includes(calls[0]?.reducer ?? '') && calls.every((c) => callKeyOf(c.expr) === callKeyOf(calls[0]!.expr));
  const loneSelector = calls.length === 1 && SELECTORS.has(calls[0]!.reducer);
  const integralOnly = !spec && calls.every((c) => c.reducer === 'integral');
  // One integral() call: its rows are the stream's own (integralRows).
  const oneIntegral = calls.length === 1 && calls[0]!.reducer === 'integral' && transforms.length === 0;
  // Per aggregate: a time-ordered series of (window start or point time, value).
  const perCall: TimedValue[][] = calls.map(() => []);
  const selTimes = new Map<bigint, bigint>();
  const selValues = new Map<bigint, Scalar>();
  // The selected point's series, where the reducer knows it (first()/last() through 1.x's heap).
  const selSeries = new Map<bigint, number>();
  const auxFields = loneSelector ? fieldRefs(plan.projection.columns.map((c) => c.expr), plan).filter((f) => f !== calls[0]!.field) : [];
  const needsAux = loneSelector && plan.projection.columns.some((c) => hasRawRef(c.expr));
  const rowsMulti: { time: bigint; value: Scalar; point?: bigint; series?: number }[][] = calls.map(() => []);
  const pause = () => checkpoint(g.ctx);
  for (const start of starts) for (const r of windows.get(start)!) if (r.prepare) await r.prepare(pause);
  for (let w = 0; w < starts.length; w++) {
    // A million windows' results take seconds: the loop turns between them (context.ts).
    if ((w & 4095) === 4095) await checkpoint(g.ctx);
    const start = starts[w]!;
    const rs = windows.get(start)!;
    rs.forEach((r, i) => {
      const res = r.result();
      if (multiRow) {
        const pointTime = calls[0]!.reducer !== 'distinct';
        for (const x of res) {
          const time = pointTime && x.time !== undefined ? x.time : spec ? start : hasMin ? min : 0n;
          rowsMulti[i]!.push({ time, value: x.value as Scalar, point: x.time, ...(x.series !== undefined && { series: x.series }) });
        }
        return;
      }
      const first = res[0];
      if (!first) return;
      if (oneIntegral || (g.symbolStreams && calls[i]!.reducer === 'integral')) {
        // Labelled by the stream (the window's end under DESC), and a window may hold two rows
        // (given oldest label first, as finish() turns them around under DESC).
        for (const row of spec || plan.ascending ? res : [...res].reverse()) perCall[i]!.push({ time: row.time!, value: row.value as Scalar });
        return;
      }
      const label = selectorLabel(start, first.time, calls[i]!.reducer, spec);
      perCall[i]!.push({ time: label, value: first.value as Scalar });
      // integral() labels its own row without GROUP BY time (1.x: 0 for floats, the lower bound for integers).
      // With GROUP BY time the row is labelled by its window; only aux lookups need the point.
      if ((loneSelector || integralOnly) && first.time !== undefined && (!spec || needsAux)) {
        selTimes.set(label, first.time);
        selValues.set(label, first.value as Scalar);
        if (first.series !== undefined) selSeries.set(label, first.series);
      }
    });
  }
  if (multiRow && transforms.length > 0) {
    const inWindows = (t: bigint) => inRange([[t]], g, min, max, NO_FORECASTS).length > 0;
    // holt_winters() of the points as they come (it keeps a window's first: holt-winters.ts).
    const forecasts = new Map<string, TimedValue[]>();
    for (const t of transforms) if (FORECASTS.has(t.name)) forecasts.set(t.key, await forecast(t, rowsMulti[calls.indexOf(t.inner)]!, g));
    const joined = transformMultiRows(transforms, {
      forecasts,
      // A transform without a look-back (cumulative_sum) gets the query's own windows only.
      pointsOf: (t) => {
        const rows = rowsMulti[calls.indexOf(t.inner)]!.filter((p) => t.inner.extended || inWindows(p.time));
        return desc ? windowsNewestFirst(rows, (x) => (spec ? windowOf(x, spec).start : 0n)) : rows;
      },
      innerType: windows.get(starts[0] ?? 0n)?.[0]?.outputType ?? FieldType.Float,
      argsOf: (t) => transformArgs(t.expr, !desc, spec?.interval),
      offset: plan.stmt.offset,
      limit: plan.stmt.limit,
      fill,
      typed: (t) => callFillType(t.expr, plan.schema) !== undefined,
    });
    const et0 = evalTypes(g.source);
    return joined.map((r): Cell[] => {
      const scope: RowScope = { time: r.time, lookup: () => null, call: (e) => (e.kind === 'Call' ? r.values.get(callKeyOf(e)) : undefined) };
      return [r.time, ...plan.projection.columns.map((c) => evaluate(c.expr, scope, et0))];
    });
  }
  if (multiRow) {
    const et0 = evalTypes(g.source);
    const call = calls[0]!;
    const needs = plan.projection.columns.length > 1;
    const rows: Cell[][] = [];
    for (const x of rowsMulti[0]!) {
      // A point's own series when the reducer knows it (points of several series equal in time and value).
      const own = x.series !== undefined && g.series[x.series] !== undefined ? { ...g, series: [g.series[x.series]!] } : g;
      const aux = needs && x.point !== undefined ? await findAux(own, call.field, x.point, x.value, fieldRefs(plan.projection.columns.map((c) => c.expr), plan)) : undefined;
      const scope: RowScope = {
        time: x.time,
        lookup: (name, hint) => filledInput(name, hint, aux ? aux(name, hint) : null),
        call: (e) => (e === call.expr ? x.value : undefined),
      };
      rows.push([x.time, ...plan.projection.columns.map((c) => evaluate(c.expr, scope, et0))]);
    }
    return filledCells(g, finish(g, rows, call.reducer === 'top' || call.reducer === 'bottom' || call.reducer === 'distinct' || call.reducer === 'sample'));
  }
  // The extra window read for a transform's inner call is not the other calls' to fill from:
  // 1.x fills those over the query's own range, so a point there must not anchor fill(linear).
  const own = windowRange(g);
  const readWider = min !== plan.time.min || max !== plan.time.max;
  // 1.x's cursor gives fill(N) to a call without a point in a row the other calls make, when
  // the call is a symbol 1.x types (call-fill.ts); a transform's inner call is filled by its
  // own fill iterator only, in a series where it has points.
  // Every window is a row when a call 1.x fills through its fill iterator has points in the
  // query's own windows (not the extra one a transform reads); points of a transform or of
  // integral() (no fill iterator) make only their own rows, where the row loop gives the other
  // calls the cursor's default.
  const symbols = symbolKeys(plan.projection.columns);
  const inOwn = (x: TimedValue): boolean => !readWider || own === undefined || (x.time >= own.first && x.time <= own.last);
  const rowsMade = fill.mode === 'number' && calls.some((c, i) => symbols.has(c.key) && hasFillIterator(c.reducer) && perCall[i]!.some(inOwn));
  // A transform's inner call has a fill iterator of its own, which fills only series it saw points in.
  const fillsUnseen = (c: AggCall): boolean => symbols.has(c.key) && callFillType(c.expr, plan.schema) !== undefined;
  const cells = cellFills(plan);
  const filled = perCall.map((series, i) => {
    // integral() rows exist only for windows holding points: 1.x has no fill iterator for it
    // (the cursor's default reaches its other rows: the row loop below, fill-cells.ts).
    if (!spec || calls[i]?.reducer === 'integral') return series;
    const outType = callFillType(calls[i]!.expr, plan.schema) ?? windows.get(starts[0] ?? 0n)?.[i]?.outputType ?? outputTypes[i] ?? FieldType.Float;
    const ownRange = readWider && !calls[i]!.extended && own !== undefined;
    const rows = ownRange ? series.filter((x) => x.time >= own.first && x.time <= own.last) : series;
    return fillSeries(desc ? [...rows].reverse() : rows, {
      mode: fill.mode as FillMode,
      value: fill.mode === 'number' ? fill.value : undefined,
      valueType: outType,
      window: spec,
      startNs: hasMin ? (ownRange ? plan.time.min : min) : undefined,
      endNs: ownRange ? plan.time.max : max,
      descending: desc,
      call: plan.nested ? undefined : calls[i]!.reducer,
      // Rows go straight to OFFSET/LIMIT only in time order without transforms (finish()).
      stopAfter: !desc && transforms.length === 0 && plan.stmt.limit > 0 ? plan.stmt.offset + plan.stmt.limit : undefined,
      fillsUnseen: g.fillsUnseen?.[i] === true || (rowsMade && fillsUnseen(calls[i]!)),
    });
  });
  if (oneIntegral) return finish(g, integralRows(g, calls[0]!, perCall[0]!));
  // Integer by 1.x's type of the call (a field this source lacks: filled as that type); made on first use (aligned rows never need it).
  let integerMemo: Map<string, boolean> | undefined;
  const integerKeysOf = () => (integerMemo ??= new Map(calls.map((c, i) => [c.key, isIntegerOutput(callFillType(c.expr, plan.schema) ?? FieldType.Float) || isIntOut(windows, starts, i)])));
  // Ascending rows, as the joins hand them to finish() (which turns them around under DESC), then the emitter's fill.
  const emitted = (rows: Cell[][], forecasts = NO_FORECASTS): Cell[][] => fillNullCells(finish(g, inRange(rows, g, min, max, forecasts)), fill, cells.skip, cells.numbers);
  // A percentile() whose first windows answer nothing, beside other calls (percentile-lead-replay.ts).
  const mayLead = spec !== undefined && !needsAux && !g.symbolStreams && calls.some((c) => c.reducer === 'percentile');
  const leadRows = (rowsOf: ReadonlyMap<string, readonly TimedValue[]>) => percentileLeadRows(g, calls, windows, starts, rowsOf, integerKeysOf());
  const replayedCalls = mayLead && transforms.length === 0 ? leadRows(new Map(calls.map((c, i) => [c.key, filled[i]!]))) : undefined;
  if (replayedCalls) return emitted(replayedCalls);
  if (spec && transforms.length === 0 && !needsAux && !g.symbolStreams) {
    const columnSeries = plan.projection.columns.map((c) => (c.expr.kind === 'Call' ? calls.findIndex((x) => x.key === callKeyOf(c.expr)) : -1));
    const rows = columnSeries.every((i) => i >= 0) ? alignedRows(filled, columnSeries, clampedOrder(filled, desc)) : undefined;
    if (rows) return finish(g, inRange(rows, g, min, max, NO_FORECASTS));
  }
  // Each call's and transform's rows in output order (joined by time below, or aligned).
  const seriesOf = new Map<string, readonly TimedValue[]>();
  calls.forEach((c, i) => seriesOf.set(c.key, filled[i]!));
  const byKey = new Map<string, Map<bigint, Scalar>>();
  const et = evalTypes(g.source, integerKeysOf());
  const forecastTimes = new Set<bigint>();
  for (const t of transforms) {
    const inner = filled[calls.indexOf(t.inner)]!;
    if (FORECASTS.has(t.name)) {
      const out = await forecast(t, inner, g);
      for (const x of out) forecastTimes.add(x.time);
      byKey.set(t.key, new Map(out.map((x) => [x.time, x.value])));
      continue;
    }
    const innerType = isIntOut(windows, starts, calls.indexOf(t.inner)) ? FieldType.Integer : FieldType.Float;
    const tr = createTransform(t.name as TransformName, innerType, transformArgs(t.expr, !desc, spec?.interval));
    // the transform's own type (difference(sum(i)) is an integer): math over it reads that (eval.ts isIntegerExpr)
    integerKeysOf().set(t.key, isIntegerOutput(tr.outputType));
    seriesOf.set(t.key, runTransform(tr, inner));
  }
  // 1.x cuts OFFSET and LIMIT from each field's own rows (one iterator per field) and then
  // joins the fields by time: a field has no value in a row it did not keep. That shows where
  // the fields' rows are not the same windows: a transform's, integral()'s (never filled), or
  // any call's under fill(none).
  if (g.symbolStreams) return handOverStreams(g, calls, seriesOf, perCall, integerKeysOf());
  const replayed = mayLead && forecastTimes.size === 0 ? leadRows(seriesOf) : undefined;
  if (replayed) return emitted(replayed);
  const ownRows = transforms.length > 0 || (calls.length > 1 && (fill.mode === 'none' || calls.some((c) => c.reducer === 'integral')));
  const perField = spec !== undefined && ownRows && (plan.stmt.limit > 0 || plan.stmt.offset > 0);
  if (spec && !needsAux && !perField && forecastTimes.size === 0) {
    // Every column one aggregate or transform (derivative(mean(v))) whose rows line up: the
    // join by time below gives row k of those series, without its Maps, sort and closures.
    const keys = plan.projection.columns.map((c) => (c.expr.kind === 'Call' ? callKeyOf(c.expr) : ''));
    const used = [...new Set(keys)];
    const series = used.map((k) => seriesOf.get(k));
    const rows = series.every((x) => x !== undefined) ? alignedRows(series, keys.map((k) => used.indexOf(k)), clampedOrder(series, desc)) : undefined;
    if (rows) return emitted(rows, forecastTimes);
  }
  const times = new Set<bigint>();
  for (const [key, series] of seriesOf) {
    const m = new Map<bigint, Scalar>();
    for (const tv of series) m.set(tv.time, tv.value);
    byKey.set(key, m);
  }
  for (const series of filled) for (const tv of series) times.add(tv.time);
  const driving = new Set<bigint>();
  const drive = (e: import('../ast/nodes.js').Expr, into = driving): void => {
    if (e.kind === 'Binary') {
      drive(e.lhs, into);
      drive(e.rhs, into);
    } else if (e.kind === 'Unary') drive(e.expr, into);
    else if (e.kind === 'Call') {
      const m = byKey.get(callKeyOf(e));
      if (m) for (const t of m.keys()) into.add(t);
      else e.args.forEach((a) => drive(a, into));
    }
  };
  for (const c of plan.projection.columns) drive(c.expr);
  const inOrder = (ts: Iterable<bigint>): bigint[] => {
    const out = [...ts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return desc ? out.reverse() : out;
  };
  const kept = !perField
    ? undefined
    : plan.projection.columns.map((c) => {
        const own = new Set<bigint>();
        drive(c.expr, own);
        const ts = inOrder(own).filter((t) => inRange([[t]], g, min, max, forecastTimes).length > 0).slice(plan.stmt.offset);
        return new Set(plan.stmt.limit > 0 ? ts.slice(0, plan.stmt.limit) : ts);
      });
  const ordered = kept ? inOrder(kept.flatMap((k) => [...k])) : inOrder(driving.size > 0 || transforms.length > 0 ? driving : times);
  if (kept) for (let i = ordered.length - 1; i > 0; i--) if (ordered[i] === ordered[i - 1]) ordered.splice(i, 1);
  const rows: Cell[][] = [];
  const missing = missingSymbols(fill, plan.schema);
  for (const t of ordered) {
    const sel = selTimes.get(t);
    const aux = needsAux && sel !== undefined ? await findAux(pointHolder(g, selSeries.get(t), sel, selValues.get(t) ?? null), calls[0]!.field, sel, selValues.get(t) ?? null, auxFields) : undefined;
    const scope: RowScope = {
      time: t,
      lookup: (name, hint) => {
        // The selector's own field beside it (`min(x), *`) is the selected value.
        if (aux && name === calls[0]!.field && !isTag(name, hint, plan.schema)) return selValues.get(t) ?? null;
        return filledInput(name, hint, aux ? aux(name, hint) : null);
      },
      call: (e) => {
        if (e.kind !== 'Call') return undefined;
        const m = byKey.get(callKeyOf(e));
        if (!m) return undefined;
        const v = m.get(t);
        // 1.x's cursor gives a symbol without a point in this row its default (call-fill.ts).
        return v === undefined ? cursorFill(fill, e, plan.schema) : v;
      },
    };
    const row: Cell[] = [spec ? t : loneSelector || integralOnly ? (selTimes.get(t) ?? t) : hasMin ? min : 0n];
    // A column whose rows LIMIT/OFFSET cut here reads every symbol as without a point.
    plan.projection.columns.forEach((c, j) => row.push(evaluate(c.expr, kept && !kept[j]!.has(t) ? { ...scope, call: missing } : scope, et)));
    rows.push(row);
  }
  const out = finish(g, inRange(desc ? rows.reverse() : rows, g, min, max, forecastTimes), false, perField);
  // 1.x's emitter fills the cells it sends, i.e. after OFFSET/LIMIT: the first row sent has no
  // row before it for fill(previous), even when the query's earlier windows had one. It does so
  // without GROUP BY time too (`max(v), s ... fill(1)`: `s` is 1 where the selected point lacks it).
  fillNullCells(out, fill, cells.skip, cells.numbers);
  return out;
}

/** The rows of a selector of several points as 1.x's emitter sends them: null cells filled (`top(v, 2), s ... fill(1)`). */
function filledCells(g: GroupRun, rows: Cell[][]): Cell[][] {
  const cells = cellFills(g.plan);
  fillNullCells(rows, g.plan.stmt.fill, cells.skip, cells.numbers);
  return rows;
}

/**
 * The window starts in ascending order. Windows are made in time order while the group's first
 * series is read, so the keys usually are sorted already: a sort of a million bigints with a
 * comparator held the event loop for about a second.
 */
function ascendingKeys(windows: Windows): bigint[] {
  const starts = [...windows.keys()];
  for (let i = 1; i < starts.length; i++) if (starts[i]! < starts[i - 1]!) return starts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return starts;
}

function isIntOut(windows: Windows, starts: bigint[], i: number): boolean {
  const t = windows.get(starts[0] ?? 0n)?.[i]?.outputType;
  return t === FieldType.Integer || t === FieldType.Unsigned;
}

import { callKey as callKeyOf } from './eval.js';
