/**
 * What fill(N) gives an aggregate call in a row it has no point in: 1.x's rule, in one place.
 *
 * 1.x's buildCursor makes a symbol of each outermost call of a column that is not math (its
 * valueMapper: `max(v)`, `derivative(mean(v))`, never the inner `mean(v)`), typed by
 * influxql's CallTypeMapper from the field types of all the statement's sources (count and
 * elapsed integer; mean, median, stddev, integral, derivative and the other transforms of
 * new values float; the rest, sum and the selectors among them, their argument's type:
 * column-types.ts). A symbol typed Unknown, because no source has its field, gets no iterator
 * at all, so it is null in every row: neither the fill iterator nor the cursor's default
 * reaches it, and an expression over it is null too (`max(zz) * 2`). Every other symbol is N
 * cast to its type (castToType: fill(7.5) of count() is 7), also in a row or series where it
 * has no point, before the column's expression reads it (`mean(zz) * 2` is 14 under fill(7)).
 * Observed on influxd 1.6.7 (cases s-f100...).
 */
import { FieldType } from '../../engine/index.js';
import { varRef, type Call, type DataType, type Expr, type FillOption } from '../ast/nodes.js';
import { columnType } from '../plan/column-types.js';
import type { SchemaInfo } from '../plan/projection.js';
import { nullByDuration } from './duration-constant.js';
import { callKey, evaluate } from './eval.js';
import { isIntegerOutput } from './agg-calls.js';
import type { Cell } from '../result.js';
import { MATH_FUNCTIONS } from './math.js';
import type { SelectPlan } from './select-plan.js';
import { castFillValue, type Scalar } from './value.js';
import { fillAsWritten } from './fill-cells.js';

/** The type 1.x gives call `c` (a symbol or a transform's inner call); undefined for Unknown. */
export function callFillType(c: Call, schema: SchemaInfo): FieldType | undefined {
  return columnType(c, schema);
}

/**
 * Which of 1.x's two fills gives the value: `iterator`, its fill iterator, in a series where the
 * call has points (castTo<Type>: a string call gets '', a boolean one false); `cursor`, the
 * cursor's default for a row the call's iterator has no point in, i.e. a series it never saw
 * (castToType: numbers cast to the numeric types, N left as written for a string or boolean
 * call: `first(s), max(v) ... GROUP BY time(10s), h fill(7)` gives 7 for a host without `s`).
 */
export type FillSite = 'iterator' | 'cursor';

/** The value fill(N) gives a call of type `t` (callFillType) where it has no point; null for any other fill. */
export function callFillValue(fill: FillOption, t: FieldType | undefined, at: FillSite = 'iterator'): Scalar {
  if (fill.mode !== 'number' || t === undefined) return null;
  if (at === 'cursor' && (t === FieldType.String || t === FieldType.Boolean)) return fillAsWritten(fill.value);
  return castFillValue(fill.value, t);
}

/** The outermost calls of `e` that are not math: 1.x's symbols of the column. */
function forEachSymbol(e: Expr, f: (c: Call) => void): void {
  if (e.kind === 'Binary') {
    forEachSymbol(e.lhs, f);
    forEachSymbol(e.rhs, f);
  } else if (e.kind === 'Unary') forEachSymbol(e.expr, f);
  else if (e.kind === 'Call') {
    if (MATH_FUNCTIONS.has(e.name.toLowerCase())) e.args.forEach((a) => forEachSymbol(a, f));
    else f(e);
  }
}

/** Reducers 1.x builds without a fill iterator (buildCallIterator returns them before it adds one). */
const NO_FILL_ITERATOR: ReadonlySet<string> = new Set(['integral', 'top', 'bottom', 'distinct', 'sample']);

/** Whether 1.x fills a call's empty windows itself (fill iterator), making a row of every window of a series it has points in. */
export function hasFillIterator(reducer: string): boolean {
  return !NO_FILL_ITERATOR.has(reducer);
}

/** The keys (eval.ts callKey) of the calls the columns read as symbols, i.e. not only inside a transform. */
export function symbolKeys(columns: readonly { readonly expr: Expr }[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const c of columns) forEachSymbol(c.expr, (call) => keys.add(callKey(call)));
  return keys;
}

/** Whether a column reads a symbol 1.x types Unknown: it is null in every row, fill(N) or not. */
export function readsUntypedCall(e: Expr, schema: SchemaInfo): boolean {
  let untyped = false;
  forEachSymbol(e, (c) => (untyped ||= callFillType(c, schema) === undefined));
  return untyped;
}

/** 1.x's cursor default for symbol `e` in a row its iterator has no point in (FillSite `cursor`). */
export function cursorFill(fill: FillOption, e: Call, schema: SchemaInfo): Scalar {
  return callFillValue(fill, callFillType(e, schema), 'cursor');
}

/** The symbols of `e` as a RowScope's `call` sees them: each non-math call with its cursor default, as in a row none of them has a point in. */
export function missingSymbols(fill: FillOption, schema: SchemaInfo): (e: Expr) => Scalar | undefined {
  return (e) => (e.kind === 'Call' && !MATH_FUNCTIONS.has(e.name.toLowerCase()) ? cursorFill(fill, e, schema) : undefined);
}

/**
 * 1.x's cursor default for a field a row lacks, as the column's expression reads it under
 * fill(N) (`i * 2 ... fill(3.5)` is 6 for an integer `i`): N cast to the field's type, as
 * written for a field no source has. Undefined under any other fill (the field stays null).
 */
export function fieldFill(plan: SelectPlan): ((name: string, hint: string | null) => Scalar) | undefined {
  const { fill } = plan.stmt;
  if (fill.mode !== 'number') return undefined;
  const raw: Scalar = fillAsWritten(fill.value);
  return (name, hint) => {
    const t = columnType(varRef(name, hint as DataType | null), plan.schema);
    return t === undefined ? raw : callFillValue(fill, t, 'cursor');
  };
}

interface CellFills {
  /** Per column: leave its null cells alone (a column over a symbol typed Unknown, or null whatever it reads: duration-constant.ts). */
  readonly skip: readonly boolean[];
  /** Per column, what fill(N) puts in a null cell: a lone symbol or field cast to its type (castToType), N as written otherwise. */
  readonly numbers: readonly Scalar[];
}

const CELL_FILLS = new WeakMap<SelectPlan, CellFills>();

/** How the emitter's fill (fill-cells.ts) treats each column's null cells. */
export function cellFills(plan: SelectPlan): CellFills {
  let f = CELL_FILLS.get(plan);
  if (f) return f;
  const { fill } = plan.stmt;
  const raw: Scalar = fill.mode !== 'number' ? null : fillAsWritten(fill.value);
  const numbers = plan.projection.columns.map(({ expr: e }): Scalar => {
    if (e.kind === 'Call' && !MATH_FUNCTIONS.has(e.name.toLowerCase())) return cursorFill(fill, e, plan.schema);
    const t = e.kind === 'VarRef' ? columnType(e, plan.schema) : undefined;
    return t === undefined ? raw : callFillValue(fill, t, 'cursor');
  });
  f = { skip: plan.projection.columns.map((c) => nullByDuration(c.expr) || readsUntypedCall(c.expr, plan.schema)), numbers };
  CELL_FILLS.set(plan, f);
  return f;
}

/** The columns' symbols by call key, in first-seen order: 1.x's scanners of the cursor. */
export function columnSymbols(columns: readonly { readonly expr: Expr }[]): Map<string, Call> {
  const out = new Map<string, Call>();
  for (const c of columns) forEachSymbol(c.expr, (call) => out.set(callKey(call), call));
  return out;
}

/**
 * The cells of a row in which none of the plan's symbols has a point, as 1.x's cursor makes one
 * where another iterator of the statement has a row (per-call-ranges.ts joins two parts so):
 * each symbol its default (N cast to its type under fill(N), else null), the column's expression
 * over them (`max(a) * 2` is -2 under fill(-1)), then the emitter's fill of a null cell.
 */
export function missingRow(plan: SelectPlan): Cell[] {
  const { fill } = plan.stmt;
  const symbols = columnSymbols(plan.projection.columns);
  const isInteger = (key: string): boolean => {
    const call = symbols.get(key);
    const t = call && callFillType(call, plan.schema);
    return t !== undefined && isIntegerOutput(t);
  };
  const scope = { time: 0n, lookup: () => null, call: missingSymbols(fill, plan.schema) };
  const cells = cellFills(plan);
  return plan.projection.columns.map(({ expr }, j): Cell => {
    const v = evaluate(expr, scope, { isInteger });
    return v === null && fill.mode === 'number' && !cells.skip[j] ? (cells.numbers[j] ?? null) : v;
  });
}
