/**
 * The stretches of a run stream (run-stream-windows.ts) and what selectors take from them.
 * A stretch is a stretch of consecutive rows of the stream in one outer window: 1.x's reducer
 * closes a window at the first row outside it, also a row without a value, and skips the rows
 * without a value before it opens the next. A selector's row is one of the stream's, so the
 * tags and fields beside it (`max(m), h`) are that row's: a tag is its run's (a run is one inner
 * series), a field its value at the row's time (a run holds one row per inner window). top()
 * and bottom() without tag arguments answer up to N rows per stretch at their points' times;
 * select.go returns their iterator before the interval and fill iterators, so they are never
 * filled, and their rows come stretch after stretch as the stream gives them. So do distinct()'s,
 * at the stretch's window (its iterator is followed by the interval iterator only).
 */
import type { Batch, Cursor, FieldType } from '../../engine/index.js';
import { walkExpr } from '../ast/walk.js';
import { isMath } from '../plan/functions.js';
import { isTag } from '../plan/projection.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { createReducer } from './reducers/index.js';
import { evalTypes, fieldRefs, type GroupRun } from './select-raw.js';
import { conditionTagValue, isConditionTag } from '../plan/condition.js';
import { evaluate, type RowScope } from './eval.js';
import { toColumn } from './subquery-source.js';
import { cellAt, compareScalar, type ResultRow, type Scalar } from './value.js';
import { window as windowOf } from './window.js';

/** Calls answering several rows per stretch. */
export const MULTI_ROW: ReadonlySet<string> = new Set(['top', 'bottom', 'distinct']);

/** A row of the stream: its time, the call's field, and the auxiliary names' values. */
export interface StreamPoint {
  readonly t: bigint;
  readonly v: Scalar;
  readonly aux?: readonly Cell[];
}

/** A name the columns read beside the calls, and whether it names a tag of the runs. */
export interface AuxName {
  readonly key: string;
  readonly name: string;
  readonly tag: boolean;
}

export const auxKey = (name: string, hint: string | null): string => `${hint ?? ''}\u0000${name}`;

/** The names the columns read outside the calls (math around them aside), once each. */
export function auxNames(g: GroupRun): AuxName[] {
  const out = new Map<string, AuxName>();
  for (const c of g.plan.projection.columns) {
    walkExpr(c.expr, (e) => {
      if (e.kind === 'Call') return isMath(e.name.toLowerCase());
      if (e.kind === 'VarRef') out.set(auxKey(e.name, e.type), { key: auxKey(e.name, e.type), name: e.name, tag: isTag(e.name, e.type, g.plan.schema) });
      return true;
    });
  }
  return [...out.values()];
}

/** Every row of the run `ref` in stream order, with the field's value or null (rows without one are read when the source keeps them). */
async function* rowsOf(g: GroupRun, ref: GroupRun['series'][number], field: string, aux: readonly AuxName[]): AsyncGenerator<StreamPoint> {
  const { plan, source } = g;
  const drain = async (c: Cursor | undefined, each: (t: bigint, b: Batch, i: number) => void): Promise<void> => {
    if (!c) return;
    try {
      for (let b = await c.next(); b; b = await c.next()) for (let i = 0; i < b.offsets.length; i++) each(b.base + BigInt(b.offsets[i]!), b, i);
    } finally {
      c.close();
    }
  };
  // A run holds one row per inner window: its times are unique.
  const valuesOf = async (name: string): Promise<Map<bigint, Scalar>> => {
    const values = new Map<bigint, Scalar>();
    await drain(source.cursor(ref, name, plan.time.min, plan.time.max, plan.ascending), (t, b, i) => values.set(t, cellAt(b.column, i)));
    return values;
  };
  const values = await valuesOf(field);
  // A tag the outer statement pushed down is no column of the inner rows (subquery.go mapAuxField).
  const own = source.groupTags?.() ?? new Set<string>();
  const auxValues = await Promise.all(aux.map(async (a) => (a.tag ? (own.has(a.name) ? (ref.tags[a.name] ?? null) : null) : await valuesOf(a.name))));
  const times: bigint[] = [];
  await drain(source.rowCursor?.(ref, plan.time.min, plan.time.max, plan.ascending), (t) => times.push(t));
  const passes = await rowCondition(g, ref, valuesOf);
  for (const t of times.length > 0 ? times : [...values.keys()]) {
    if (!passes(t)) continue;
    const v = values.get(t) ?? null;
    if (aux.length === 0) yield { t, v };
    else yield { t, v, aux: auxValues.map((a) => (a instanceof Map ? ((a.get(t) ?? null) as Cell) : a)) };
  }
}

/**
 * The outer WHERE on a row of the run (true when there is none). 1.x filters the inner rows
 * as they come out of the inner statement's fill (subquery.go: a filter cursor over the
 * substatement's cursor), so a row it drops, filled or not, leaves the stream: it neither
 * opens nor closes a stretch. A tag in it reads the run's tag.
 */
async function rowCondition(g: GroupRun, ref: GroupRun['series'][number], valuesOf: (name: string) => Promise<Map<bigint, Scalar>>): Promise<(t: bigint) => boolean> {
  const { rowFilter, plan, source } = g;
  if (!rowFilter) return () => true;
  const names = fieldRefs([rowFilter], plan).filter((f) => source.fieldTypes().has(f));
  const columns = new Map(await Promise.all(names.map(async (n) => [n, await valuesOf(n)] as const)));
  const types = evalTypes(source);
  return (t) => {
    const scope: RowScope = {
      time: t,
      lookup: (name, hint) => (isConditionTag(name, hint, plan.schema) ? conditionTagValue(ref.tags, name) : (columns.get(name)?.get(t) ?? null)),
      condition: true,
    };
    return evaluate(rowFilter, scope, types) === true;
  };
}

/** The stretches of the group's stream (the runs in turn), each with its outer window's start and its points with a value. */
export async function* stretchesOf(g: GroupRun, field: string, aux: readonly AuxName[]): AsyncGenerator<{ start: bigint; pts: StreamPoint[] }> {
  const spec = g.plan.window!;
  let open: { start: bigint; end: bigint; pts: StreamPoint[] } | undefined;
  for (const ref of g.series) {
    for await (const p of rowsOf(g, ref, field, aux)) {
      if (open && (p.t < open.start || p.t >= open.end)) {
        if (open.pts.length > 0) yield open;
        open = undefined;
      }
      if (p.v === null) continue;
      if (!open) {
        const w = windowOf(p.t, spec);
        open = { start: w.start, end: w.end, pts: [] };
      }
      open.pts.push(p);
    }
  }
  if (open && open.pts.length > 0) yield open;
}

/** The call's own reducer over a stretch's points, in stream order. */
export function reduceOnce(call: AggCall, pts: readonly StreamPoint[], type: FieldType, ascending: boolean): ResultRow[] {
  const reducer = createReducer(call.reducer, type, { ...call.args, descending: !ascending });
  const base = pts[0]!.t;
  reducer.add(base, Float64Array.from(pts, (p) => Number(p.t - base)), toColumn(type, pts.map((p) => p.v)), 0, pts.length);
  return reducer.result();
}

/**
 * distinct() over a stretch as 1.x's reducer keeps it: each value with the first point holding
 * it in stream order (not the earliest: the stream goes back in time across runs), ordered by
 * those points' times, then value.
 */
function distinctInStream(pts: readonly StreamPoint[]): ResultRow[] {
  const first = new Map<unknown, StreamPoint>();
  for (const p of pts) {
    const k = typeof p.v === 'number' && Number.isNaN(p.v) ? Symbol('NaN') : p.v;
    if (!first.has(k)) first.set(k, p);
  }
  return [...first.values()].sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : compareScalar(a.v, b.v))).map((p) => ({ time: p.t, value: p.v }));
}

/** top()/bottom()/distinct() over each stretch: [time, value, ...auxiliary values] per row, unfilled. */
export async function multiRows(g: GroupRun, call: AggCall, aux: readonly AuxName[]): Promise<Cell[][]> {
  const type = g.source.fieldTypes().get(call.field);
  if (type === undefined) return [];
  const out: Cell[][] = [];
  for await (const { start, pts } of stretchesOf(g, call.field, aux)) {
    // A stretch may run across runs, so several of its points may share a time: the selected
    // point is the first not yet taken with the row's time and value.
    const taken = new Set<StreamPoint>();
    const pointOf = (t: bigint, v: Scalar): StreamPoint | undefined => {
      const p = pts.find((q) => q.t === t && q.v === v && !taken.has(q));
      if (p) taken.add(p);
      return p;
    };
    for (const r of call.reducer === 'distinct' ? distinctInStream(pts) : reduceOnce(call, pts, type, g.plan.ascending)) {
      const t = r.time ?? pts[0]!.t;
      const beside = aux.length > 0 ? (pointOf(t, r.value)?.aux ?? []) : [];
      out.push([call.reducer === 'distinct' ? start : t, r.value as Cell, ...beside]);
    }
  }
  return out;
}
