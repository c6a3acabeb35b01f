/**
 * An outer GROUP BY time aggregate over the runs 1.x's fill iterator makes of an interleaved
 * inner fill (subquery-interleaved-fill.ts), as 1.6.7 answers it (seed 2502 `n0414`, `n0432`):
 * - its reducer reads the runs one after the other and closes a window at the first row that
 *   falls outside it, also a row without a value (fill(previous) before a run's first point),
 *   then skips the rows without a value before it opens the next: each stretch of consecutive
 *   rows in one outer window is reduced on its own (a run covering every window gives one row
 *   per window, the next run starts over at the first window);
 * - count(), sum(), mean(), min(), max(), first() and last() over a subquery are then reduced
 *   again over the merged per-source results (select.go's map-reduce branch, Iterators.Merge),
 *   which joins consecutive stretches of one window: the value-less start of a run only splits
 *   a window in spread() (one pass);
 * - its fill iterator expects the next window after each row it sends: it fills the windows the
 *   first rows skip, and once the rows go back in time (the next run) it passes every row
 *   through as it comes, the expected window still moving on by one interval per row; after the
 *   last row it fills up to the statement's last window if it has not passed it.
 * Taken only for the shapes this was measured on: calls of the reducers below over one field,
 * nothing around them, fill(null|none|N), ascending, no LIMIT/OFFSET, no tz() (runStreamShape);
 * one run's rows are held at a time (the runs themselves are bounded by MAX_REFILLED_ROWS).
 */
import type { SelectStatement } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import { FieldType } from '../../engine/index.js';
import type { AggCall } from './agg-calls.js';
import type { GroupRun } from './select-raw.js';
import type { Cursor } from '../../engine/index.js';
import { canonInt, castFillValue, cellAt, wrapInt64, type Scalar } from './value.js';
import { window as windowOf } from './window.js';

const STRETCH_REDUCERS: ReadonlySet<string> = new Set(['count', 'sum', 'mean', 'min', 'max', 'first', 'last', 'spread']);

/** The outer statement is one this module answers (checked before the inner result is refilled). */
export function runStreamShape(outer: SelectStatement): boolean {
  if (outer.limit > 0 || outer.offset > 0 || outer.slimit > 0 || outer.soffset > 0 || outer.location !== null) return false;
  if (outer.sortFields.some((f) => !f.ascending)) return false;
  if (outer.fill.mode !== 'null' && outer.fill.mode !== 'none' && outer.fill.mode !== 'number') return false;
  if (outer.condition && !onlyTime(outer.condition)) return false;
  const fields = outer.fields.map((f) => (f.expr.kind === 'Call' && f.expr.args.length === 1 && f.expr.args[0]!.kind === 'VarRef' && STRETCH_REDUCERS.has(f.expr.name.toLowerCase()) ? f.expr.args[0]!.name : undefined));
  // spread() beside a two-pass call: 1.x's scanner then pairs rows of differently cut windows (not measured).
  const spreads = outer.fields.filter((f) => f.expr.kind === 'Call' && f.expr.name.toLowerCase() === 'spread').length;
  if (spreads > 0 && spreads < outer.fields.length) return false;
  return fields.length > 0 && fields.every((f) => f !== undefined && f === fields[0]);
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
function reduceStretch(name: string, pts: readonly Point[], integer: boolean): Partial {
  const n = pts.length;
  const first = pts[0]!;
  switch (name) {
    case 'count':
      return { v: n, t: first.t, n };
    case 'sum':
      return { v: addAll(pts.map((p) => p.v), integer), t: first.t, n };
    case 'mean':
      return { v: pts.reduce((a, p) => a + num(p.v), 0) / n, t: first.t, n };
    case 'spread': {
      const vs = pts.map((p) => num(p.v));
      return { v: integer ? canonInt(BigInt(Math.max(...vs)) - BigInt(Math.min(...vs))) : Math.max(...vs) - Math.min(...vs), t: first.t, n };
    }
    default:
      return { ...pts.reduce((a, p) => (better(name, p, a) ? p : a)), n };
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

/** Every row of `ref` in stream order, with the field's value or null (rows without one are read when the source keeps them). */
async function* rowsOf(g: GroupRun, ref: GroupRun['series'][number], field: string): AsyncGenerator<Point> {
  const { plan, source } = g;
  const drain = async (c: Cursor | undefined, each: (t: bigint, b: NonNullable<Awaited<ReturnType<Cursor['next']>>>, i: number) => void): Promise<void> => {
    if (!c) return;
    try {
      for (let b = await c.next(); b; b = await c.next()) for (let i = 0; i < b.offsets.length; i++) each(b.base + BigInt(b.offsets[i]!), b, i);
    } finally {
      c.close();
    }
  };
  const values = new Map<bigint, Scalar>();
  await drain(source.cursor(ref, field, plan.time.min, plan.time.max, true), (t, b, i) => values.set(t, cellAt(b.column, i)));
  const times: bigint[] = [];
  await drain(source.rowCursor?.(ref, plan.time.min, plan.time.max, true), (t) => times.push(t));
  for (const t of times.length > 0 ? times : [...values.keys()]) yield { t, v: values.get(t) ?? null };
}

/** The group's rows (time, then each call's value in `calls` order). */
export async function runStreamRows(g: GroupRun, calls: readonly AggCall[]): Promise<Cell[][]> {
  const { plan, source } = g;
  const spec = plan.window!;
  const type = source.fieldTypes().get(calls[0]!.field);
  const integer = type === FieldType.Integer || type === FieldType.Unsigned;
  const names = calls.map((c) => c.reducer);
  // First pass: stretches of one window (a row outside it closes it, rows without a value open none).
  const stretches: { start: bigint; parts: Partial[] }[] = [];
  let open: { start: bigint; end: bigint; pts: Point[] } | undefined;
  const close = (): void => {
    if (open && open.pts.length > 0) stretches.push({ start: open.start, parts: names.map((n) => reduceStretch(n, open!.pts, integer)) });
    open = undefined;
  };
  if (type !== undefined) {
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
  }
  close();
  // Second pass (all but spread()): consecutive stretches of one window merged.
  const rows: { start: bigint; values: Cell[] }[] = [];
  const twoPass = names.every((n) => n !== 'spread');
  for (let i = 0; i < stretches.length; ) {
    let j = i + 1;
    while (twoPass && j < stretches.length && stretches[j]!.start === stretches[i]!.start) j++;
    const run = stretches.slice(i, j);
    rows.push({ start: run[0]!.start, values: names.map((n, k) => (j - i === 1 ? run[0]!.parts[k]!.v : mergePartials(n, run.map((s) => s.parts[k]!), integer)) as Cell) });
    i = j;
  }
  return filledRows(g, calls, rows);
}

/** 1.x's fill iterator over the stretches' rows (see the header). */
function filledRows(g: GroupRun, calls: readonly AggCall[], stretches: readonly { start: bigint; values: Cell[] }[]): Cell[][] {
  const { plan, stmtFill } = { plan: g.plan, stmtFill: g.plan.stmt.fill };
  const spec = plan.window!;
  const out: Cell[][] = [];
  if (stmtFill.mode === 'none') {
    for (const s of stretches) out.push([s.start, ...s.values]);
    return out;
  }
  const outputTypes = calls.map((c) => (c.reducer === 'count' ? FieldType.Integer : g.source.fieldTypes().get(c.field) ?? FieldType.Float));
  const empty = (t: bigint): Cell[] => [
    t,
    ...calls.map((c, k): Cell => {
      if (stmtFill.mode === 'number') return castFillValue(stmtFill.value, c.reducer === 'mean' ? FieldType.Float : outputTypes[k]!) as Cell;
      return c.reducer === 'count' ? 0 : null;
    }),
  ];
  const first = plan.time.hasMin ? windowOf(plan.time.min, spec).start : stretches[0]?.start;
  if (first === undefined) return out;
  const last = windowOf(plan.time.max, spec).start;
  let expected = first;
  for (const s of stretches) {
    for (; s.start > expected; expected += spec.interval) out.push(empty(expected));
    out.push([s.start, ...s.values]);
    expected += spec.interval;
  }
  for (; expected <= last; expected += spec.interval) out.push(empty(expected));
  return out;
}
