/**
 * GROUP BY time aggregates kept in dense arrays: one slot per window, numbered from the first
 * window of the query's range, for the reducers whose per-window state is one number and whose
 * answer under GROUP BY time is that number alone (count, min, max: the row is labelled with
 * the window start, so a selector's point time is not needed).
 *
 * Why: the general path (select-agg.ts) keeps a bigint-keyed Map of reducer objects per window,
 * a window object per run, and then a TimedValue per window per aggregate for fill() and the
 * join by time. For a small query (60 windows of one series) that bookkeeping, not the data,
 * was most of its cost and most of its garbage.
 *
 * Taken only when the answer is the general path's, value for value:
 * - windows are uniform: no TZ() (a zone makes windows 23 or 25 hours long);
 * - the range has a lower bound, so the first window is known before reading;
 * - no row filter, no transform of an aggregate, every column one aggregate call;
 * - fill is null, none, previous or a number (linear interpolates on window times: general path);
 * - min()/max() see Float64 value columns only (a batch of bigints, booleans or strings hands
 *   the whole group back to the general path, which then reads it again from the start).
 * Per window, min/max replay Extreme (reducers/minmax.ts) on values: a run's extreme is found
 * by the same scan and offered with the same comparison, so even NaN behaves the same.
 */
import { FieldType, type Batch } from '../../engine/index.js';
import type { FillOption } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import type { AggCall, AggTransform } from './agg-calls.js';
import { callKey } from './eval.js';
import type { SelectPlan } from './select-plan.js';
import { callFillValue } from './call-fill.js';
import type { Scalar } from './value.js';
import { MIN_TIME, window as windowOf } from './window.js';
import { noteWindowRowTimes } from './window-row-times.js';

/** Reducers whose per-window answer under GROUP BY time is one number. */
const DENSE_REDUCERS: ReadonlySet<string> = new Set(['count', 'min', 'max']);

/** Bound on the windows of one dense group (8 bytes + 1 per window per aggregate). */
export const MAX_DENSE_WINDOWS = 100_000;

/** Window end offsets are stepped by adding the interval only while the sum is exact. */
const EXACT_STEP = 2 ** 52;

export interface DenseLayout {
  /** Start of window 0: the window holding the range's lower bound. */
  readonly first: bigint;
  readonly interval: bigint;
  /** Windows from `first` to the window holding the range's upper bound, inclusive. */
  readonly count: number;
  /** Per projection column, the index of the aggregate call it shows. */
  readonly columnCalls: readonly number[];
}

/** The dense layout of a group, or undefined when the general path must answer it. */
export function denseLayout(plan: SelectPlan, calls: readonly AggCall[], transforms: readonly AggTransform[], hasRowFilter: boolean): DenseLayout | undefined {
  const spec = plan.window;
  if (!spec || spec.tz !== undefined || hasRowFilter || transforms.length > 0 || !plan.time.hasMin) return undefined;
  if (plan.stmt.fill.mode === 'linear' || calls.length === 0) return undefined;
  for (const c of calls) if (!DENSE_REDUCERS.has(c.reducer)) return undefined;
  const columnCalls: number[] = [];
  for (const col of plan.projection.columns) {
    const i = col.expr.kind === 'Call' ? calls.findIndex((c) => c.key === callKey(col.expr)) : -1;
    if (i < 0) return undefined;
    columnCalls.push(i);
  }
  const first = windowOf(plan.time.min, spec).start;
  // The clamped first window is shorter than the others, and 1.x prints and fills it as 0 (fill.ts).
  if (first === MIN_TIME) return undefined;
  const last = windowOf(plan.time.max, spec).start;
  const count = (last - first) / spec.interval + 1n;
  if (count > BigInt(MAX_DENSE_WINDOWS)) return undefined;
  return { first, interval: spec.interval, count: Number(count), columnCalls };
}

/** How an aggregate's empty windows are answered (fill.ts for the general path). */
export interface DenseFill {
  readonly fill: FillOption;
  /** Per call, the type fill(N) casts to (call-fill.ts callFillType); undefined: 1.x types it Unknown, never filled. */
  readonly outputTypes: readonly (FieldType | undefined)[];
  /** The inner statement of a subquery: count()'s empty windows stay empty (select-plan.ts). */
  readonly nested: boolean;
  /** Output order: fill(previous) takes the window before in this order. */
  readonly ascending: boolean;
  /** GroupRun.fillsUnseen: calls filled as if they saw a point. */
  readonly fillsUnseen?: readonly boolean[] | undefined;
}

export class DenseWindows {
  // Plain arrays, not typed ones: a typed array over 64 bytes gets an off-heap backing store,
  // which costs more to make than a small group costs to aggregate.
  private readonly values: number[][];
  private readonly has: number[][];
  /** Whether each call saw any point (a call without any has no rows to fill: all null). */
  private readonly any: boolean[];
  private readonly iv: number;

  constructor(
    private readonly layout: DenseLayout,
    private readonly reducers: readonly string[],
  ) {
    this.values = reducers.map(() => new Array<number>(layout.count).fill(0));
    this.has = reducers.map(() => new Array<number>(layout.count).fill(0));
    this.any = reducers.map(() => false);
    this.iv = Number(layout.interval);
  }

  /**
   * Adds a cursor batch (ascending) to the calls `idx`, which all read its field. False when a
   * call cannot take it (min/max of a column that is not Float64): the group must go back to
   * the general path.
   */
  addBatch(b: Batch, idx: readonly number[]): boolean {
    const s = b.stats;
    if (s && s.count > 0 && this.addStats(b, s, idx)) return true;
    const offs = b.offsets;
    const m = offs.length;
    if (m === 0) return true;
    const column = b.column;
    const numbers = column.values instanceof Float64Array ? column.values : undefined;
    for (const i of idx) if (this.reducers[i] !== 'count' && numbers === undefined) return false;
    for (const c of idx) if (!this.addColumn(c, b.base, offs, numbers)) return false;
    return true;
  }

  /**
   * The batch's rows into call c's windows, run by run (a run: the rows of one window), in one
   * call for the whole batch: a call per run was one per window of every small query. False
   * when a row lies outside the layout's windows.
   */
  private addColumn(c: number, base: bigint, offs: Float64Array, numbers: Float64Array | undefined): boolean {
    const r = this.reducers[c];
    const has = this.has[c]!;
    const values = this.values[c]!;
    const m = offs.length;
    let k = this.indexOf(base + BigInt(offs[0]!));
    let endRel = this.endOffset(k, base);
    let i = 0;
    while (i < m) {
      if (k < 0 || k >= this.layout.count) return false;
      let j = i + 1;
      while (j < m && offs[j]! < endRel) j++;
      this.any[c] = true;
      if (r === 'count') values[k] = values[k]! + (j - i);
      else {
        // Extreme (reducers/minmax.ts) over the run: the same scan and comparison, so NaN behaves the same.
        const v = numbers!;
        let best = v[i]!;
        if (r === 'max') {
          for (let x = i + 1; x < j; x++) if (v[x]! > best) best = v[x]!;
          if (has[k] === 0 || best > values[k]!) values[k] = best;
        } else {
          for (let x = i + 1; x < j; x++) if (v[x]! < best) best = v[x]!;
          if (has[k] === 0 || best < values[k]!) values[k] = best;
        }
      }
      has[k] = 1;
      i = j;
      if (i === m) break;
      const off = offs[i]!;
      const next = endRel + this.iv;
      if (off < next && Math.abs(next) <= EXACT_STEP) {
        k++;
        endRel = next;
      } else {
        k = this.indexOf(base + BigInt(off));
        endRel = this.endOffset(k, base);
      }
    }
    return true;
  }

  /** Rows in ascending time: `[window start, column values...]`, filled as the general path fills. */
  rows(f: DenseFill): Cell[][] {
    const { count, first, interval, columnCalls } = this.layout;
    const n = this.reducers.length;
    const filled: Scalar[][] = [];
    let anyCall = false;
    // fill(N): 1.x's cursor gives N to a call without a point in the rows the other calls make.
    const rowsMade = f.fill.mode === 'number' && this.any.some(Boolean);
    const any = this.any.map((a, c) => a || f.fillsUnseen?.[c] === true || (rowsMade && f.outputTypes[c] !== undefined));
    for (let c = 0; c < n; c++) {
      filled.push(any[c] ? this.fillCall(c, f) : []);
      anyCall ||= any[c]!;
    }
    if (!anyCall) return [];
    const everyWindow = f.fill.mode !== 'none';
    const rows: Cell[][] = [];
    const windows: number[] | undefined = everyWindow ? undefined : [];
    let t = first;
    for (let k = 0; k < count; k++, t += interval) {
      if (windows && !this.has.some((h) => h[k] === 1)) continue;
      windows?.push(k);
      const row = new Array<Cell>(columnCalls.length + 1);
      row[0] = t;
      for (let col = 0; col < columnCalls.length; col++) {
        const call = columnCalls[col]!;
        row[col + 1] = any[call] ? filled[call]![k]! : null;
      }
      rows.push(row);
    }
    // Descending output reverses these rows in place (select-agg.ts finish): no grid then.
    if (f.ascending) noteWindowRowTimes(rows, { first, interval, windows });
    return rows;
  }

  /** Window k's start - base is where window k - 1 ends; as a Number when exact, else +Infinity. */
  private endOffset(k: number, base: bigint): number {
    const rel = this.layout.first + BigInt(k + 1) * this.layout.interval - base;
    return rel >= 9007199254740992n ? Infinity : Number(rel);
  }

  private indexOf(t: bigint): number {
    const d = t - this.layout.first;
    return d < 0n ? -1 : Number(d / this.layout.interval);
  }

  /** A whole stored block inside one window: its index statistics stand for its values. */
  private addStats(b: Batch, s: NonNullable<Batch['stats']>, idx: readonly number[]): boolean {
    for (const c of idx) {
      const r = this.reducers[c];
      if (r === 'min' ? s.min === undefined : r === 'max' ? s.max === undefined : false) return false;
    }
    const k = this.indexOf(b.base + BigInt(Math.min(s.firstOffset, s.lastOffset)));
    if (k < 0 || k >= this.layout.count || this.indexOf(b.base + BigInt(Math.max(s.firstOffset, s.lastOffset))) !== k) return false;
    for (const c of idx) {
      const r = this.reducers[c];
      const has = this.has[c]!;
      const values = this.values[c]!;
      this.any[c] = true;
      if (r === 'count') values[k] = values[k]! + s.count;
      else if (r === 'max' ? has[k] === 0 || s.max! > values[k]! : has[k] === 0 || s.min! < values[k]!) values[k] = r === 'max' ? s.max! : s.min!;
      has[k] = 1;
    }
    return true;
  }

  /** Call c's value per window, empty windows filled; indexed by window. */
  private fillCall(c: number, f: DenseFill): Scalar[] {
    const { count } = this.layout;
    const has = this.has[c]!;
    const values = this.values[c]!;
    const out = new Array<Scalar>(count);
    let mode = f.fill.mode;
    let fillValue: Scalar = null;
    if (mode === 'number') fillValue = callFillValue(f.fill, f.outputTypes[c], this.any[c] ? 'iterator' : 'cursor');
    if (mode === 'null' && this.reducers[c] === 'count' && !f.nested) {
      mode = 'number';
      fillValue = 0;
    }
    let previous: Scalar = null;
    for (let step = 0; step < count; step++) {
      const k = f.ascending ? step : count - 1 - step;
      if (has[k] === 1) {
        out[k] = previous = values[k]!;
        continue;
      }
      out[k] = mode === 'number' ? fillValue : mode === 'previous' ? previous : null;
    }
    return out;
  }
}
