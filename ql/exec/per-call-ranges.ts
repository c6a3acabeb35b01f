/**
 * A GROUP BY time statement over a subquery whose transforms read early (subqueryRange) beside
 * other calls: `SELECT max(b), difference(max(b)) FROM (...) WHERE time >= '13:15' GROUP BY
 * time(30m)`. 1.x builds an iterator per call, each with its own options, so max(b) reads the
 * subquery over the statement's range (the inner 13:00 window cut at 13:15) and difference()
 * over the range one interval earlier (the 13:00 window whole), and its cursor then joins the
 * calls' rows: the earliest head time (the latest under ORDER BY time DESC), a call without a
 * row there null (fill(previous): its value in the row before; fill(N): N cast to its type,
 * before the math around it: `max(a) * 2` is -2 under fill(-1)). Strata runs one inner
 * statement per range: the statement is split in the fields of each range, each part runs on
 * its own (its LIMIT and OFFSET cut per part, as 1.x cuts per call) and the rows of a series
 * are joined so, each part's cells in a row it lacks being its own (call-fill.ts missingRow).
 * A column mixing the two ranges (`max(b) - difference(max(b))`) reads its calls from both
 * parts, each a hidden column of its part, and is computed on the joined row as the cursor
 * computes it. Taken without SLIMIT/SOFFSET or INTO, and without `*` or regexes in calls.
 */
import { field, type Call, type Expr, type Field, type SelectStatement, type Source } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import { isMath } from '../plan/functions.js';
import { columnNames } from '../plan/projection.js';
import type { Cell, ResultSeries } from '../result.js';
import { callFillType, readsUntypedCall } from './call-fill.js';
import { callKey, evaluate } from './eval.js';
import { isIntegerOutput } from './agg-calls.js';
import { fillAsWritten } from './fill-cells.js';
import type { SelectPlan } from './select-plan.js';
import { READS_EARLIER } from './subquery-statement.js';

type Part = 0 | 1;
const EARLY: Part = 0;
const OTHER: Part = 1;

/** The part of a call that is not math: the early one (a transform of a call) or the statement's (any other). */
function partOfCall(c: Call): Part {
  return READS_EARLIER.has(c.name.toLowerCase()) && c.args[0]?.kind === 'Call' ? EARLY : OTHER;
}

/** The outermost calls of `e` that are not math (1.x's symbols), each with its part. */
function symbolsOf(e: Expr): Call[] {
  const out: Call[] = [];
  walkExpr(e, (n) => {
    if (n.kind !== 'Call' || isMath(n.name.toLowerCase())) return true;
    out.push(n);
    return false;
  });
  return out;
}

/** Where an output column comes from: a column of one part, or an expression over columns of both. */
type ColumnSource = { readonly part: Part; readonly at: number } | { readonly expr: Expr; readonly symbols: ReadonlyMap<string, { readonly part: Part; readonly at: number; readonly call: Call }> };

export interface CallRangeSplit {
  /** The early part, then the other. */
  readonly parts: readonly [SelectStatement, SelectStatement];
  readonly columns: readonly ColumnSource[];
}

const wildcardOrRegex = (e: Expr): boolean => {
  let found = false;
  walkExpr(e, (n) => {
    if (n.kind === 'Wildcard' || n.kind === 'Regex') found = true;
    return !found;
  });
  return found;
};

/** The statement's two parts and where each column comes from, when its calls read both ranges in the shapes above. */
export function splitByCallRange(stmt: SelectStatement): CallRangeSplit | undefined {
  if (!(stmt.sources as readonly Source[]).some((s) => s.kind === 'SubQuery')) return undefined;
  if (!stmt.dimensions.some((d) => d.kind === 'Call' && d.name.toLowerCase() === 'time')) return undefined;
  if (stmt.slimit > 0 || stmt.soffset > 0 || stmt.target) return undefined;
  const symbols = stmt.fields.map((f) => symbolsOf(f.expr));
  // A field without a call (a tag, a field) goes with neither part: not split.
  if (symbols.some((s) => s.length === 0) || stmt.fields.some((f) => wildcardOrRegex(f.expr))) return undefined;
  const parts = symbols.map((s) => new Set(s.map(partOfCall)));
  if (!parts.some((p) => p.has(EARLY)) || !parts.some((p) => p.has(OTHER))) return undefined;
  const fields: [Field[], Field[]] = [[], []];
  const columns = stmt.fields.map((f, i): ColumnSource => {
    const own = [...parts[i]!];
    if (own.length === 1) {
      const part = own[0]!;
      return { part, at: fields[part].push(f) - 1 };
    }
    // Each call of a mixed column is a hidden column of its part (one per distinct call).
    const bySymbol = new Map<string, { part: Part; at: number; call: Call }>();
    for (const call of symbols[i]!) {
      const key = callKey(call);
      if (bySymbol.has(key)) continue;
      const part = partOfCall(call);
      bySymbol.set(key, { part, at: fields[part].push(field(call, `__call_${i}_${bySymbol.size}`)) - 1, call });
    }
    return { expr: f.expr, symbols: bySymbol };
  });
  return { parts: [{ ...stmt, fields: fields[EARLY] }, { ...stmt, fields: fields[OTHER] }], columns };
}

/** A part's result, its cells in a row only the other part has (call-fill.ts missingRow), and its plan (the calls' types). */
export interface PartResult {
  readonly series: readonly ResultSeries[];
  readonly missing?: readonly Cell[];
  readonly plan?: SelectPlan;
}

const keyOf = (s: ResultSeries): string => JSON.stringify([s.name ?? '', Object.entries(s.tags ?? {}).sort()]);

/** The parts' results joined series by series, in the statement's order of series. */
export function joinCallRanges(stmt: SelectStatement, split: CallRangeSplit, results: readonly [PartResult, PartResult]): ResultSeries[] {
  const names = ['time', ...columnNames(stmt.fields)];
  const ascending = !stmt.sortFields.some((f) => !f.ascending);
  const fill = stmt.fill;
  const asWritten: Cell = fill.mode === 'number' ? fillAsWritten(fill.value) : null;
  const widths = split.parts.map((p) => p.fields.length);
  const byKey = new Map<string, [ResultSeries | undefined, ResultSeries | undefined]>();
  for (const s of results[EARLY].series) byKey.set(keyOf(s), [s, undefined]);
  for (const s of results[OTHER].series) byKey.set(keyOf(s), [byKey.get(keyOf(s))?.[0], s]);
  // Each part lists its series in the statement's order: a series of one part only goes before
  // the next series of its part that the other lists too.
  const order = results[EARLY].series.map(keyOf);
  const other = results[OTHER].series;
  for (let k = other.length - 1, next = order.length; k >= 0; k--) {
    const key = keyOf(other[k]!);
    const at = order.indexOf(key);
    if (at >= 0) next = at;
    else order.splice(next, 0, key);
  }
  const computed = mixedColumns(stmt, split, results);
  const out: ResultSeries[] = [];
  for (const pair of order.map((k) => byKey.get(k)!)) {
    const streams = pair.map((s) => s?.values ?? []);
    const at = [0, 0];
    const values: Cell[][] = [];
    let prev: readonly (readonly Cell[])[] = [[], []];
    const before = (x: bigint, y: bigint): boolean => (ascending ? x < y : x > y);
    for (;;) {
      let t: bigint | undefined;
      streams.forEach((s, i) => {
        const head = s[at[i]!]?.[0] as bigint | undefined;
        if (head !== undefined && (t === undefined || before(head, t))) t = head;
      });
      if (t === undefined) break;
      const cells = streams.map((s, i) => {
        const row = s[at[i]!];
        if (row && row[0] === t) {
          at[i]!++;
          return row.slice(1);
        }
        return Array.from({ length: widths[i]! }, (_, k) => (fill.mode === 'previous' ? (prev[i]![k] ?? null) : (results[i as Part].missing?.[k] ?? asWritten)));
      });
      prev = cells;
      values.push([t, ...split.columns.map((c, j) => ('part' in c ? (cells[c.part]![c.at] ?? null) : computed.get(j)!(cells, t!)))]);
    }
    out.push({ ...(pair[0] ?? pair[1])!, columns: names, values });
  }
  return out;
}

/** Per mixed column: its expression over the joined row's hidden call columns, then the emitter's fill of a null cell. */
function mixedColumns(stmt: SelectStatement, split: CallRangeSplit, results: readonly [PartResult, PartResult]): Map<number, (cells: readonly (readonly Cell[])[], t: bigint) => Cell> {
  const fill = stmt.fill;
  const out = new Map<number, (cells: readonly (readonly Cell[])[], t: bigint) => Cell>();
  split.columns.forEach((c, j) => {
    if ('part' in c) return;
    const typeOf = (key: string) => {
      const s = c.symbols.get(key);
      const plan = s && results[s.part].plan;
      return s && plan ? callFillType(s.call, plan.schema) : undefined;
    };
    const isInteger = (key: string): boolean => {
      const t = typeOf(key);
      return t !== undefined && isIntegerOutput(t);
    };
    // 1.x's emitter leaves a column over a call it types Unknown null (call-fill.ts cellFills).
    const untyped = [...c.symbols.values()].some((s) => {
      const plan = results[s.part].plan;
      return plan !== undefined && readsUntypedCall(s.call, plan.schema);
    });
    out.set(j, (cells, time) => {
      const call = (e: Expr): Cell | undefined => {
        if (e.kind !== 'Call') return undefined;
        const s = c.symbols.get(callKey(e));
        return s ? (cells[s.part]![s.at] ?? null) : undefined;
      };
      const v = evaluate(c.expr, { time, lookup: () => null, call }, { isInteger }) as Cell;
      return v === null && fill.mode === 'number' && !untyped ? fillAsWritten(fill.value) : v;
    });
  });
  return out;
}
