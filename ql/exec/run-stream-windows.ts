/**
 * An outer GROUP BY time aggregate over the runs 1.x's fill iterator makes of an interleaved
 * inner fill (subquery-interleaved-fill.ts), as 1.6.7 answers it (seed 2502 `n0414`, `n0432`):
 * - its reducer reads the runs one after the other (newest first under ORDER BY time DESC) and
 *   closes a window at the first row that falls outside it, also a row without a value
 *   (fill(previous) before a run's first point), then skips the rows without a value before it
 *   opens the next: each stretch of consecutive rows in one outer window is reduced on its own
 *   (a run covering every window gives one row per window, the next run starts over);
 * - count(), sum(), mean(), min(), max(), first() and last() over a subquery are then reduced
 *   again over the merged per-source results (select.go's map-reduce branch, Iterators.Merge),
 *   which joins consecutive stretches of one window: the value-less start of a run only splits
 *   a window in the calls 1.x cannot merge (spread(), stddev(), median(), mode(): one pass);
 * - its fill iterator then fills only around the rows (run-stream-fill.ts), and the math around
 *   the calls, LIMIT and OFFSET apply to the rows as they come, in that stream order.
 * - calls over other fields, or a one-pass call beside a two-pass one, are each reduced over a
 *   stream of their own (1.x builds an iterator per call) and their rows joined by time as 1.x's
 *   cursor joins them (joinedRows; 90 statements measured: every one whose inner runs agree).
 * Taken only for the shapes this was measured on: calls of the reducers below, with math
 * around them or not, any fill, either direction, LIMIT/OFFSET (not with calls of their own
 * streams), tz() of a zone whose offset does not change in the range, no SLIMIT/SOFFSET
 * (runStreamShape); one run's rows are held at a time (the runs themselves are bounded by
 * MAX_REFILLED_ROWS).
 */
import type { Expr, SelectStatement } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import { FieldType, type Batch, type Cursor } from '../../engine/index.js';
import { isMath } from '../plan/functions.js';
import type { AggCall } from './agg-calls.js';
import type { QueryContext } from './context.js';
import { statementTime } from './subquery-statement.js';
import { zoneOffsetNs } from './zone.js';
import { callKey, evaluate, type RowScope } from './eval.js';
import { callType, filledRunRows, type WindowRow } from './run-stream-fill.js';
import { evalTypes, type GroupRun } from './select-raw.js';
import { createReducer } from './reducers/index.js';
import { toColumn } from './subquery-source.js';
import { cellAt, wrapInt64, type Scalar } from './value.js';
import { callFillValue } from './call-fill.js';
import { window as windowOf } from './window.js';

/** Reduced per stretch, then again over consecutive partials of one window (select.go's map-reduce calls). */
const TWO_PASS: ReadonlySet<string> = new Set(['count', 'sum', 'mean', 'min', 'max', 'first', 'last']);
/** Reduced once per stretch (calls 1.x cannot merge): its own reducer over the stretch's points. */
const ONE_PASS: ReadonlySet<string> = new Set(['spread', 'stddev', 'median', 'mode']);

/** The reducer calls of `e` (undefined when it holds anything else than them, numbers and math around them). */
function stretchCalls(e: Expr, out: { name: string; field: string }[]): boolean {
  switch (e.kind) {
    case 'Integer':
    case 'Number':
      return true;
    case 'Unary':
      return stretchCalls(e.expr, out);
    case 'Binary':
      return stretchCalls(e.lhs, out) && stretchCalls(e.rhs, out);
    case 'Call': {
      const name = e.name.toLowerCase();
      if (isMath(name)) return e.args.every((a) => stretchCalls(a, out));
      const arg = e.args[0];
      if (!(TWO_PASS.has(name) || ONE_PASS.has(name)) || e.args.length !== 1 || arg?.kind !== 'VarRef') return false;
      out.push({ name, field: arg.name });
      return true;
    }
    default:
      return false;
  }
}

/** The outer statement is one this module answers (checked before the inner result is refilled). */
export function runStreamShape(outer: SelectStatement, ctx: QueryContext): boolean {
  // SLIMIT counts series
  if (outer.slimit > 0 || outer.soffset > 0 || !steadyZone(outer, ctx)) return false;
  if (outer.condition && !onlyTime(outer.condition)) return false;
  const calls: { name: string; field: string }[] = [];
  if (!outer.fields.every((f) => stretchCalls(f.expr, calls)) || calls.length === 0) return false;
  // Calls that 1.x cannot reduce in one stream (other fields, a one-pass call beside a two-pass
  // one) are each their own stream, joined by time (runStreamRows), but not paged (not measured).
  return !ownStreams(calls) || (outer.limit === 0 && outer.offset === 0);
}

/** Whether each call is reduced over a stream of its own: they read several fields, or mix one-pass and two-pass calls. */
function ownStreams(calls: readonly { name: string; field: string }[]): boolean {
  const onePass = calls.filter((c) => ONE_PASS.has(c.name)).length;
  return (onePass > 0 && onePass < calls.length) || calls.some((c) => c.field !== calls[0]!.field);
}

/** Weeks of a range whose zone offsets are sampled, at most (a longer range is not taken under tz()). */
const MAX_ZONE_SAMPLES = 100;
const WEEK_NS = 7n * 86_400n * 1_000_000_000n;

/**
 * No tz(), or a zone whose offset stays the same over the statement's bounded range (sampled at
 * its ends and every week): the outer windows are then the zone's, cut as in UTC, and 1.x's fill
 * iterator steps one interval at a time. Across an offset change it moves its expected window by
 * the change too (not measured).
 */
function steadyZone(stmt: SelectStatement, ctx: QueryContext): boolean {
  const tz = stmt.location;
  if (tz === null) return true;
  const { min, max, hasMin, hasMax } = statementTime(stmt, ctx);
  if (!hasMin || !hasMax || (max - min) / WEEK_NS > BigInt(MAX_ZONE_SAMPLES)) return false;
  const at = zoneOffsetNs(tz, min);
  for (let t = min; t < max; t += WEEK_NS) if (zoneOffsetNs(tz, t) !== at) return false;
  return zoneOffsetNs(tz, max) === at;
}

function onlyTime(e: SelectStatement['condition']): boolean {
  if (!e) return true;
  if (e.kind === 'VarRef') return e.name.toLowerCase() === 'time';
  if (e.kind === 'Binary') return onlyTime(e.lhs) && onlyTime(e.rhs);
  return e.kind !== 'Call';
}

interface Point {
  readonly t: bigint;
  readonly v: Scalar;
}

/** One call's result over a stretch: its value, the selected point's time, and the points it read (mean()'s weight). */
interface Partial {
  readonly v: Scalar;
  readonly t: bigint;
  readonly n: number;
}

const num = (v: Scalar): number => Number(v);

/** The call over one stretch's points (never empty), with 1.x's ties: the larger value at one time, the earlier time at one value. */
function reduceStretch(name: string, pts: readonly Point[], type: FieldType, ascending: boolean): Partial {
  const n = pts.length;
  const first = pts[0]!;
  const integer = type === FieldType.Integer || type === FieldType.Unsigned;
  switch (name) {
    case 'count':
      return { v: n, t: first.t, n };
    case 'sum':
      return { v: addAll(pts.map((p) => p.v), integer), t: first.t, n };
    case 'mean':
      return { v: pts.reduce((a, p) => a + num(p.v), 0) / n, t: first.t, n };
    case 'min':
    case 'max':
    case 'first':
    case 'last':
      return { ...pts.reduce((a, p) => (better(name, p, a) ? p : a)), n };
    default: {
      // the one-pass calls: the statement's own reducer over the stretch, in stream order
      const reducer = createReducer(name, type, { descending: !ascending });
      reducer.add(first.t, Float64Array.from(pts, (p) => Number(p.t - first.t)), toColumn(type, pts.map((p) => p.v)), 0, n);
      const row = reducer.result()[0];
      return { v: row?.value ?? null, t: row?.time ?? first.t, n };
    }
  }
}

/** 1.x's selector rules: min/max by value then the earlier time, first/last by time then the larger value. */
function better(name: string, p: Point, than: Point): boolean {
  const c = num(p.v) - num(than.v);
  switch (name) {
    case 'min':
      return c < 0 || (c === 0 && p.t < than.t);
    case 'max':
      return c > 0 || (c === 0 && p.t < than.t);
    case 'first':
      return p.t < than.t || (p.t === than.t && c > 0);
    default:
      return p.t > than.t || (p.t === than.t && c > 0);
  }
}

function addAll(vs: readonly Scalar[], integer: boolean): Scalar {
  if (!integer) return vs.reduce<number>((a, v) => a + num(v), 0);
  return wrapInt64(vs.reduce<bigint>((a, v) => a + BigInt(v as number | bigint), 0n));
}

/** The second pass: consecutive partials of one window merged as 1.x's merge iterator's call does. */
function mergePartials(name: string, parts: readonly Partial[], integer: boolean): Scalar {
  if (name === 'count' || name === 'sum') return addAll(parts.map((p) => p.v), integer || name === 'count');
  if (name === 'mean') {
    // FloatMeanReducer weighs each partial mean by the points it aggregated.
    let sum = 0;
    let n = 0;
    for (const p of parts) {
      sum += num(p.v) * p.n;
      n += p.n;
    }
    return sum / n;
  }
  return parts.reduce((a, p) => (better(name, p, a) ? p : a)).v;
}

/** Every row of the run `ref` in stream order, with the field's value or null (rows without one are read when the source keeps them). */
async function* rowsOf(g: GroupRun, ref: GroupRun['series'][number], field: string): AsyncGenerator<Point> {
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
  const values = new Map<bigint, Scalar>();
  await drain(source.cursor(ref, field, plan.time.min, plan.time.max, plan.ascending), (t, b, i) => values.set(t, cellAt(b.column, i)));
  const times: bigint[] = [];
  await drain(source.rowCursor?.(ref, plan.time.min, plan.time.max, plan.ascending), (t) => times.push(t));
  for (const t of times.length > 0 ? times : [...values.keys()]) yield { t, v: values.get(t) ?? null };
}

/** The group's reduced rows, one per stretch but for consecutive stretches of one window the second pass joins. */
async function windowRows(g: GroupRun, calls: readonly AggCall[]): Promise<WindowRow[]> {
  const { plan, source } = g;
  const spec = plan.window!;
  const type = source.fieldTypes().get(calls[0]!.field);
  if (type === undefined) return [];
  const integer = type === FieldType.Integer || type === FieldType.Unsigned;
  const names = calls.map((c) => c.reducer);
  // First pass: stretches of one window (a row outside it closes it, rows without a value open none).
  const stretches: { start: bigint; parts: Partial[] }[] = [];
  let open: { start: bigint; end: bigint; pts: Point[] } | undefined;
  const close = (): void => {
    if (open && open.pts.length > 0) stretches.push({ start: open.start, parts: names.map((n) => reduceStretch(n, open!.pts, type, plan.ascending)) });
    open = undefined;
  };
  for (const ref of g.series) {
    for await (const p of rowsOf(g, ref, calls[0]!.field)) {
      if (open && (p.t < open.start || p.t >= open.end)) close();
      if (p.v === null) continue;
      if (!open) {
        const w = windowOf(p.t, spec);
        open = { start: w.start, end: w.end, pts: [] };
      }
      open.pts.push(p);
    }
  }
  close();
  // Second pass (two-pass calls only): consecutive stretches of one window merged.
  const rows: WindowRow[] = [];
  const twoPass = names.every((n) => TWO_PASS.has(n));
  for (let i = 0; i < stretches.length; ) {
    let j = i + 1;
    while (twoPass && j < stretches.length && stretches[j]!.start === stretches[i]!.start) j++;
    const joined = stretches.slice(i, j);
    rows.push({ start: joined[0]!.start, values: names.map((n, k) => (j - i === 1 ? joined[0]!.parts[k]!.v : mergePartials(n, joined.map((s) => s.parts[k]!), integer)) as Cell) });
    i = j;
  }
  return rows;
}

/**
 * Each call's rows over a stream of its own, joined as 1.x's cursor joins its calls' iterators:
 * the next row is at the earliest head time (the latest under DESC), and holds the value of each
 * call whose head is at that time, null for the others (fill(N): N, fill(previous): the call's
 * value in the row before, as the cursor fills). The streams go back in time, so a call's rows
 * may pair with any of another's.
 */
async function joinedRows(g: GroupRun, calls: readonly AggCall[]): Promise<Cell[][]> {
  const streams = await Promise.all(calls.map(async (c) => filledRunRows(g, [c], await windowRows(g, [c]))));
  const at = streams.map(() => 0);
  const out: Cell[][] = [];
  const before = (a: bigint, b: bigint): boolean => (g.plan.ascending ? a < b : a > b);
  const fill = g.plan.stmt.fill;
  const missing = calls.map((c) => callFillValue(fill, callType(g, c), 'cursor') as Cell);
  for (;;) {
    let t: bigint | undefined;
    streams.forEach((s, i) => {
      const head = s[at[i]!]?.[0] as bigint | undefined;
      if (head !== undefined && (t === undefined || before(head, t))) t = head;
    });
    if (t === undefined) return out;
    const prev = out[out.length - 1];
    out.push([t, ...streams.map((s, i) => (s[at[i]!]?.[0] === t ? (s[at[i]!++]![1] ?? null) : fill.mode === 'previous' ? (prev?.[i + 1] ?? null) : missing[i]!))]);
  }
}

/** The group's result rows: stretches reduced, filled, the columns computed from the calls, then paged. */
export async function runStreamRows(g: GroupRun, calls: readonly AggCall[]): Promise<Cell[][]> {
  const filled = ownStreams(calls.map((c) => ({ name: c.reducer, field: c.field }))) ? await joinedRows(g, calls) : filledRunRows(g, calls, await windowRows(g, calls));
  const { offset, limit } = g.plan.stmt;
  const paged = filled.slice(offset, limit > 0 ? offset + limit : undefined);
  const slots = new Map(calls.map((c, k) => [c.key, k + 1]));
  const types = evalTypes(g.source, new Map(calls.map((c) => [c.key, c.reducer === 'count' || (c.reducer !== 'mean' && evalTypes(g.source).isInteger(c.field))])));
  const columns = g.plan.projection.columns;
  return paged.map((row) => {
    const scope: RowScope = { time: row[0] as bigint, lookup: () => null, call: (e) => (e.kind === 'Call' ? (row[slots.get(callKey(e)) ?? -1] as Scalar | undefined) : undefined) };
    return [row[0]!, ...columns.map((c) => evaluate(c.expr, scope, types) as Cell)];
  });
}
