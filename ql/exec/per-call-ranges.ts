/**
 * A GROUP BY time statement over a subquery whose transforms read early (subqueryRange) beside
 * other calls: `SELECT max(b), difference(max(b)) FROM (...) WHERE time >= '13:15' GROUP BY
 * time(30m)`. 1.x builds an iterator per call, each with its own options, so max(b) reads the
 * subquery over the statement's range (the inner 13:00 window cut at 13:15) and difference()
 * over the range one interval earlier (the 13:00 window whole), and its cursor then joins the
 * calls' rows: the earliest head time (the latest under ORDER BY time DESC), a call without a
 * row there null (fill(previous): its value in the row before; fill(N): N). Strata runs one inner
 * statement per range: the statement is split in the fields of each range, each part runs on
 * its own (its LIMIT and OFFSET cut per part, as 1.x cuts per call) and the rows of a series
 * are joined so. Under fill(N) a call missing from a joined row is N before the math around it
 * (`max(a) * 2` is -2 under fill(-1)): each part's own such cells (call-fill.ts missingRow).
 * Taken where every field is one part's (no column mixes the two), without SLIMIT/SOFFSET or INTO.
 */
import type { Expr, Field, SelectStatement, Source } from '../ast/nodes.js';
import { walkExpr } from '../ast/walk.js';
import { isMath } from '../plan/functions.js';
import { exprName } from '../plan/projection.js';
import type { Cell, ResultSeries } from '../result.js';
import { READS_EARLIER } from './subquery-statement.js';

type Part = 'early' | 'other';

/** Which range a field's calls read: the early one (transforms of calls), the statement's (any other call), or both. */
function partOf(e: Expr): Part | 'both' | 'none' {
  let early = false;
  let other = false;
  walkExpr(e, (n) => {
    if (n.kind !== 'Call') return true;
    const name = n.name.toLowerCase();
    if (isMath(name)) return true;
    if (READS_EARLIER.has(name) && n.args[0]?.kind === 'Call') early = true;
    else other = true;
    return false;
  });
  return early && other ? 'both' : early ? 'early' : other ? 'other' : 'none';
}

/** The statement's two parts and the part of each field, when it mixes the ranges in the shapes above. */
export function splitByCallRange(stmt: SelectStatement): { parts: [SelectStatement, SelectStatement]; of: Part[] } | undefined {
  if (!(stmt.sources as readonly Source[]).some((s) => s.kind === 'SubQuery')) return undefined;
  if (!stmt.dimensions.some((d) => d.kind === 'Call' && d.name.toLowerCase() === 'time')) return undefined;
  if (stmt.slimit > 0 || stmt.soffset > 0 || stmt.target) return undefined;
  // fill(N) fills a call missing from a row before the math around it: bare calls only.
  const of = stmt.fields.map((f) => partOf(f.expr));
  if (!of.every((p): p is Part => p === 'early' || p === 'other') || !of.includes('early') || !of.includes('other')) return undefined;
  const fieldsOf = (p: Part): Field[] => stmt.fields.filter((_, i) => of[i] === p);
  return { parts: [{ ...stmt, fields: fieldsOf('early') }, { ...stmt, fields: fieldsOf('other') }], of };
}

const keyOf = (s: ResultSeries): string => JSON.stringify([s.name ?? '', Object.entries(s.tags ?? {}).sort()]);

/** A part's result, and its cells in a row only the other part has (call-fill.ts missingRow; undefined: null, N as written under fill(N)). */
export interface PartResult {
  readonly series: readonly ResultSeries[];
  readonly missing?: readonly Cell[];
}

/** The parts' results joined series by series (a part without series gives its columns their fields' names). */
export function joinCallRanges(stmt: SelectStatement, of: readonly Part[], { series: early, missing: missingA }: PartResult, { series: other, missing: missingB }: PartResult): ResultSeries[] {
  const own = (p: Part): string[] => ['time', ...stmt.fields.filter((_, k) => of[k] === p).map((f) => f.alias ?? exprName(f.expr))];
  const [namesA, namesB] = [early[0]?.columns ?? own('early'), other[0]?.columns ?? own('other')];
  const ascending = !stmt.sortFields.some((f) => !f.ascending);
  const fill = stmt.fill;
  const asWritten: Cell = fill.mode === 'number' ? fill.value : null;
  const missing = [missingA, missingB];
  const byKey = new Map<string, [ResultSeries | undefined, ResultSeries | undefined]>();
  for (const s of early) byKey.set(keyOf(s), [s, undefined]);
  for (const s of other) byKey.set(keyOf(s), [byKey.get(keyOf(s))?.[0], s]);
  // Each part lists its series in the statement's order: a series of one part only goes before
  // the next series of its part that the other lists too.
  const order = early.map(keyOf);
  for (let k = other.length - 1, next = order.length; k >= 0; k--) {
    const key = keyOf(other[k]!);
    const at = order.indexOf(key);
    if (at >= 0) next = at;
    else order.splice(next, 0, key);
  }
  let [i, j] = [1, 1];
  const columns = [namesA[0]!, ...of.map((p) => (p === 'early' ? namesA[i++]! : namesB[j++]!))];
  const out: ResultSeries[] = [];
  for (const [a, b] of order.map((k) => byKey.get(k)!)) {
    const streams = [a?.values ?? [], b?.values ?? []];
    const at = [0, 0];
    const width = [of.filter((p) => p === 'early').length, of.filter((p) => p === 'other').length];
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
        return Array.from({ length: width[i]! }, (_, k) => (fill.mode === 'previous' ? (prev[i]![k] ?? null) : (missing[i]?.[k] ?? asWritten)));
      });
      prev = cells;
      const [ia, ib] = [cells[0]![Symbol.iterator](), cells[1]![Symbol.iterator]()];
      values.push([t, ...of.map((p) => ((p === 'early' ? ia.next().value : ib.next().value) ?? null) as Cell)]);
    }
    const like = (a ?? b)!;
    out.push({ ...like, columns, values });
  }
  return out;
}
