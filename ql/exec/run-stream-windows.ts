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
 * - percentile() is one pass like median(); a selector beside tags or fields (`max(m), h`) takes
 *   them from its point, in either pass (the second keeps the better partial's); top() and
 *   bottom() without tag arguments answer their rows per stretch at their points' times, never
 *   filled (select.go returns their iterator before the interval and fill iterators):
 *   run-stream-selectors.ts.
 * Taken only for the shapes this was measured on: calls of the reducers below, with math
 * around them or not, any fill, either direction, LIMIT/OFFSET (per call before the join when
 * there are several: joinedRows), tz() (run-stream-fill.ts steps over offset changes as 1.x does), no SLIMIT/SOFFSET
 * (runStreamShape); one run's rows are held at a time (the runs themselves are bounded by
 * MAX_REFILLED_ROWS). A WHERE on tags and fields drops rows from the stream (1.x's filter
 * cursor over the inner statement: run-stream-selectors.ts rowCondition), and transforms of
 * the calls, when every call is one, read their calls' rows in stream order
 * (run-stream-transform.ts).
 */
import type { Expr, SelectStatement } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import { FieldType, type Batch, type Cursor } from '../../engine/index.js';
import { isMath } from '../plan/functions.js';
import type { AggCall } from './agg-calls.js';
import { aggregatesOf } from './plan-derived.js';
import { runStreamTransformRows } from './run-stream-transform.js';
import type { QueryContext } from './context.js';
import { statementTime } from './subquery-statement.js';
import { zoneOffsetNs } from './zone.js';
import { callKey, evaluate, type RowScope } from './eval.js';
import { callType, filledRunRows, scannerDefaults, type WindowRow } from './run-stream-fill.js';
import { evalTypes, type GroupRun } from './select-raw.js';
import { wrapInt64, type Scalar } from './value.js';
import { callFillValue, symbolKeys } from './call-fill.js';
import { auxKey, auxNames, MULTI_ROW, multiRows, reduceOnce, stretchesOf, type AuxName, type StreamPoint } from './run-stream-selectors.js';

/** Reduced per stretch, then again over consecutive partials of one window (select.go's map-reduce calls). */
const TWO_PASS: ReadonlySet<string> = new Set(['count', 'sum', 'mean', 'min', 'max', 'first', 'last']);
/** Reduced once per stretch (calls 1.x cannot merge): its own reducer over the stretch's points. */
const ONE_PASS: ReadonlySet<string> = new Set(['spread', 'stddev', 'median', 'mode', 'percentile']);
/** Calls that may stand beside tags and fields: the row is their point's. */
const SELECTORS: ReadonlySet<string> = new Set(['min', 'max', 'first', 'last', 'top', 'bottom']);

/** Transforms of a call that run-stream-transform.ts answers. */
const TRANSFORMS: ReadonlySet<string> = new Set(['derivative', 'non_negative_derivative', 'difference', 'non_negative_difference', 'moving_average', 'cumulative_sum', 'elapsed']);

/**
 * The reducer calls of `e` (false when it holds anything else than them, numbers, math around
 * them, transforms of them (counted in `transforms`) and auxiliary names).
 */
function stretchCalls(e: Expr, out: { name: string; field: string }[], aux: string[], transforms: string[] = []): boolean {
  switch (e.kind) {
    case 'Integer':
    case 'Number':
      return true;
    case 'VarRef':
      aux.push(e.name);
      return e.name.toLowerCase() !== 'time';
    case 'Unary':
      return stretchCalls(e.expr, out, aux, transforms);
    case 'Binary':
      return stretchCalls(e.lhs, out, aux, transforms) && stretchCalls(e.rhs, out, aux, transforms);
    case 'Call': {
      const name = e.name.toLowerCase();
      if (isMath(name)) return e.args.every((a) => stretchCalls(a, out, aux, transforms));
      if (TRANSFORMS.has(name)) {
        transforms.push(name);
        const inner = e.args[0];
        return inner?.kind === 'Call' && !TRANSFORMS.has(inner.name.toLowerCase()) && stretchCalls(inner, out, aux, transforms);
      }
      const [arg, second] = e.args;
      if (arg?.kind !== 'VarRef') return false;
      const numeric = second?.kind === 'Integer' || second?.kind === 'Number';
      const arity = name === 'percentile' || name === 'top' || name === 'bottom' ? 2 : 1;
      if (!(TWO_PASS.has(name) || ONE_PASS.has(name) || MULTI_ROW.has(name)) || e.args.length !== arity || (arity === 2 && !numeric)) return false;
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
  if (outer.slimit > 0 || outer.soffset > 0) return false;
  // A WHERE on tags and fields filters the stream's rows (run-stream-selectors.ts rowCondition).
  if (outer.condition && !withoutCalls(outer.condition)) return false;
  const calls: { name: string; field: string }[] = [];
  const aux: string[] = [];
  const transforms: string[] = [];
  if (!outer.fields.every((f) => stretchCalls(f.expr, calls, aux, transforms)) || calls.length === 0) return false;
  // Transforms of calls, and plain calls beside transforms that read no earlier (run-stream-transform.ts).
  // cumulative_sum() or a plain call beside a transform reading early: 1.x reads the runs over two ranges.
  const early = transforms.filter((t) => t !== 'cumulative_sum').length;
  const plain = calls.length - transforms.length;
  if (transforms.length > 0) return (early === 0 || (early === transforms.length && plain === 0)) && aux.length === 0 && !calls.some((c) => MULTI_ROW.has(c.name));
  // Tags and fields only beside one selector; top(), bottom() and distinct() only alone (1.x refuses more).
  if (aux.length > 0 && !SELECTORS.has(calls[0]!.name)) return false;
  if ((aux.length > 0 || calls.some((c) => MULTI_ROW.has(c.name))) && calls.length !== 1) return false;
  return true;
}

/** Whether each call is reduced over a stream of its own: they read several fields, or mix one-pass and two-pass calls. */
function ownStreams(calls: readonly { name: string; field: string }[]): boolean {
  const onePass = calls.filter((c) => ONE_PASS.has(c.name)).length;
  return (onePass > 0 && onePass < calls.length) || calls.some((c) => c.field !== calls[0]!.field);
}

function withoutCalls(e: SelectStatement['condition']): boolean {
  if (!e) return true;
  if (e.kind === 'Binary') return withoutCalls(e.lhs) && withoutCalls(e.rhs);
  if (e.kind === 'Unary') return withoutCalls(e.expr);
  return e.kind !== 'Call';
}

/** One call's result over a stretch: its value, the selected point's time, the points it read (mean()'s weight), the point's auxiliary values. */
interface Partial {
  readonly v: Scalar;
  readonly t: bigint;
  readonly n: number;
  readonly aux?: readonly Cell[];
  /** The call answered no point (percentile() of too few values): a call alone then has no row. */
  readonly none?: true;
}

const num = (v: Scalar): number => Number(v);

/** The call over one stretch's points (never empty), with 1.x's ties: the larger value at one time, the earlier time at one value. */
function reduceStretch(call: AggCall, pts: readonly StreamPoint[], type: FieldType, ascending: boolean): Partial {
  const name = call.reducer;
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
      const row = reduceOnce(call, pts, type, ascending)[0];
      return { v: row?.value ?? null, t: row?.time ?? first.t, n, ...(!row && { none: true as const }) };
    }
  }
}

/** 1.x's selector rules: min/max by value then the earlier time, first/last by time then the larger value. */
function better(name: string, p: { v: Scalar; t: bigint }, than: { v: Scalar; t: bigint }): boolean {
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

/** The second pass: consecutive partials of one window merged as 1.x's merge iterator's call does (a selector keeps the better partial). */
function mergePartials(name: string, parts: readonly Partial[], integer: boolean): Partial {
  const n = parts.reduce((a, p) => a + p.n, 0);
  const t = parts[0]!.t;
  if (name === 'count' || name === 'sum') return { v: addAll(parts.map((p) => p.v), integer || name === 'count'), t, n };
  if (name === 'mean') {
    // FloatMeanReducer weighs each partial mean by the points it aggregated.
    let sum = 0;
    for (const p of parts) sum += num(p.v) * p.n;
    return { v: sum / n, t, n };
  }
  return parts.reduce((a, p) => (better(name, p, a) ? p : a));
}

/** The group's reduced rows, one per stretch but for consecutive stretches of one window the second pass joins. */
export async function windowRows(g: GroupRun, calls: readonly AggCall[], aux: readonly AuxName[]): Promise<WindowRow[]> {
  const { plan, source } = g;
  const type = source.fieldTypes().get(calls[0]!.field);
  if (type === undefined) return [];
  const integer = type === FieldType.Integer || type === FieldType.Unsigned;
  const names = calls.map((c) => c.reducer);
  // First pass: stretches of one window (a row outside it closes it, rows without a value open none).
  const stretches: { start: bigint; parts: Partial[] }[] = [];
  for await (const { start, pts } of stretchesOf(g, calls[0]!.field, aux)) stretches.push({ start, parts: calls.map((c) => reduceStretch(c, pts, type, plan.ascending)) });
  // Second pass (two-pass calls only): consecutive stretches of one window merged.
  const rows: WindowRow[] = [];
  const twoPass = names.every((n) => TWO_PASS.has(n));
  for (let i = 0; i < stretches.length; ) {
    let j = i + 1;
    while (twoPass && j < stretches.length && stretches[j]!.start === stretches[i]!.start) j++;
    const joined = stretches.slice(i, j);
    const parts = names.map((n, k) => (j - i === 1 ? joined[0]!.parts[k]! : mergePartials(n, joined.map((s) => s.parts[k]!), integer)));
    // A selector beside tags or fields is the only call: the row is its point's.
    const auxOf = parts[0]!.aux;
    if (!parts.every((p) => p.none)) rows.push({ start: joined[0]!.start, values: parts.map((p) => p.v as Cell), ...(auxOf && { aux: auxOf }) });
    i = j;
  }
  return rows;
}

/**
 * Each call's rows over a stream of its own, joined as 1.x's cursor joins its calls' iterators:
 * the next row is at the earliest head time (the latest under DESC), and holds the value of each
 * call whose head is at that time, null for the others (fill(N): N, fill(previous): the call's
 * value in the row before, as the cursor fills). The streams go back in time, so a call's rows
 * may pair with any of another's. `paged`: LIMIT and OFFSET cut each call's rows before the join
 * (select.go buildFieldIterator puts a limit iterator on every call's iterator).
 */
async function joinedRows(g: GroupRun, calls: readonly AggCall[], paged: boolean): Promise<Cell[][]> {
  const { offset, limit } = g.plan.stmt;
  const page = (rows: Cell[][]): Cell[][] => (paged ? rows.slice(offset, limit > 0 ? offset + limit : undefined) : rows);
  const streams = await Promise.all(calls.map(async (c) => page(filledRunRows(g, [c], await windowRows(g, [c], [])))));
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
  const { transforms } = aggregatesOf(g.plan);
  if (transforms.length > 0) {
    const symbols = symbolKeys(g.plan.projection.columns);
    return runStreamTransformRows(g, transforms, calls.filter((c) => symbols.has(c.key)));
  }
  const aux = auxNames(g);
  const only = calls.length === 1 ? calls[0]! : undefined;
  const { offset, limit } = g.plan.stmt;
  // Several calls under LIMIT or OFFSET: each call's rows are cut, then joined (joinedRows).
  const perCall = calls.length > 1 && (limit > 0 || offset > 0);
  const filled =
    only && MULTI_ROW.has(only.reducer)
      ? await multiRows(g, only, aux)
      : perCall || ownStreams(calls.map((c) => ({ name: c.reducer, field: c.field })))
        ? await joinedRows(g, calls, perCall)
        : filledRunRows(g, calls, await windowRows(g, calls, aux));
  scannerDefaults(g, calls, aux, filled);
  const paged = perCall ? filled : filled.slice(offset, limit > 0 ? offset + limit : undefined);
  const slots = new Map(calls.map((c, k) => [c.key, k + 1]));
  // The auxiliary values follow the calls' in a row (none in a filled one).
  const auxSlots = new Map(aux.map((a, k) => [a.key, calls.length + 1 + k]));
  const types = evalTypes(g.source, new Map(calls.map((c) => [c.key, c.reducer === 'count' || (c.reducer !== 'mean' && evalTypes(g.source).isInteger(c.field))])));
  const columns = g.plan.projection.columns;
  return paged.map((row) => {
    const scope: RowScope = {
      time: row[0] as bigint,
      lookup: (name, hint) => (row[auxSlots.get(auxKey(name, hint)) ?? -1] ?? null) as Scalar,
      call: (e) => (e.kind === 'Call' ? (row[slots.get(callKey(e)) ?? -1] as Scalar | undefined) : undefined),
    };
    return [row[0]!, ...columns.map((c) => evaluate(c.expr, scope, types) as Cell)];
  });
}
