/**
 * percentile() beside other calls when its first windows in the read direction have points but
 * too few for the rank (percentile-lead.ts: alone, 1.6.7 answers nothing). Read in 1.x's query
 * package: its reduce iterator returns nil for a window its reducer emits nothing for, which
 * each call of the fill iterator above it (before it has seen a point, so before it starts)
 * passes on, one window per call. The cursor (query/cursor.go multiScannerCursor) calls each
 * scanner's Peek, then ScanAt, per row: an iterator with nothing buffered is called twice, so
 * two empty windows go per row. Once a window gives a point, the fill iterator starts at the
 * statement's first window and sends every window from there, so the windows the cursor already
 * answered come again, each a row of its own where the other calls have no point (null, N cast
 * under fill(N), the value before under fill(previous)). Two empty windows make the first
 * window twice (`count(v), percentile(v, 10)` over windows of 1, 2 and 5 points: 00:00 twice);
 * one does not (the ScanAt that consumed it gets the filled first window and joins it). Under
 * ORDER BY time DESC the cursor takes the latest head, so the repeated window comes before the
 * others' heads again (seed 3002's `g0014`). Observed on 1.6.7 and modelled here as that cursor
 * over each symbol's filled rows (a transform's rows are its own scanner's); taken for one
 * measurement without tag dimensions and without LIMIT/OFFSET (1.x's reduce iterator runs
 * across series and measurements, and its limit iterator cuts each call, otherwise).
 */
import type { Expr, Source } from '../ast/nodes.js';
import type { Cell } from '../result.js';
import type { AggCall } from './agg-calls.js';
import { windowRange } from './agg-read-range.js';
import { columnSymbols, cursorFill } from './call-fill.js';
import { unclipped } from './clipped-reducer.js';
import { callKey, evaluate } from './eval.js';
import { PercentileReducer } from './reducers/percentile.js';
import type { Reducer } from './reducers/index.js';
import { evalTypes, type GroupRun } from './select-raw.js';
import type { Scalar, TimedValue } from './value.js';

/** Per call, the statement's windows (read order) its reducer had points in but answered nothing for, before its first answer. */
function leadingEmpty(calls: readonly AggCall[], windows: ReadonlyMap<bigint, readonly Reducer[]>, readOrder: readonly bigint[]): number[] {
  return calls.map((c, i) => {
    if (c.reducer !== 'percentile') return 0;
    let k = 0;
    for (const start of readOrder) {
      const at = windows.get(start)?.[i];
      const r = at && unclipped(at);
      if (!(r instanceof PercentileReducer) || r.points === 0) continue;
      if (r.result().length > 0) return k;
      k++;
    }
    return k;
  });
}

/**
 * The group's rows (ascending, as the general path hands them to finish()), or undefined where
 * the shape is not the one modelled or no percentile() has an empty lead. `rowsOf`: each call's
 * and transform's rows after its fill, in the read direction; `integer`: which of them are.
 */
export function percentileLeadRows(
  g: GroupRun,
  calls: readonly AggCall[],
  windows: ReadonlyMap<bigint, readonly Reducer[]>,
  ascendingStarts: readonly bigint[],
  rowsOf: ReadonlyMap<string, readonly TimedValue[]>,
  integer: ReadonlyMap<string, boolean>,
): Cell[][] | undefined {
  const { plan } = g;
  const stmt = plan.stmt;
  const [source, ...more] = stmt.sources as readonly Source[];
  if (calls.length < 2 || stmt.limit > 0 || stmt.offset > 0 || more.length > 0 || source?.kind !== 'Measurement' || source.regex) return undefined;
  if (stmt.dimensions.some((d) => d.kind !== 'Call')) return undefined;
  const bySymbol = columnSymbols(plan.projection.columns);
  const symbols = [...bySymbol.values()];
  const keys = [...bySymbol.keys()];
  const streams = keys.map((k) => rowsOf.get(k));
  if (symbols.length < 2 || streams.some((s) => s === undefined)) return undefined;
  const ascending = plan.ascending;
  // Only the statement's own windows: a transform's extra window is its inner call's alone.
  const own = windowRange(g);
  const starts = ascendingStarts.filter((t) => own === undefined || (t >= own.first && t <= own.last));
  const empty = leadingEmpty(calls, windows, ascending ? starts : starts.reverse());
  // Only a percentile() that is itself a symbol: a transform's inner call gives its transform rows.
  const nils = keys.map((k) => empty[calls.findIndex((c) => c.key === k)] ?? 0);
  if (nils.every((k) => k === 0)) return undefined;
  const fill = stmt.fill;
  const at = symbols.map(() => 0);
  // What each scanner holds: a row Peek buffered (true) or nothing (Peek answered nil).
  const peeked = symbols.map(() => false);
  const before = (a: bigint, b: bigint): boolean => (ascending ? a < b : a > b);
  const m: Scalar[] = symbols.map(() => null);
  const defaults = symbols.map((e) => cursorFill(fill, e, plan.schema));
  const types = evalTypes(g.source, integer);
  const out: Cell[][] = [];
  for (;;) {
    let ts: bigint | undefined;
    streams.forEach((s, i) => {
      if (!peeked[i] && nils[i]! > 0) {
        nils[i]!--;
        return;
      }
      const head = s![at[i]!];
      peeked[i] = head !== undefined;
      if (head && (ts === undefined || before(head.time, ts))) ts = head.time;
    });
    if (ts === undefined) break;
    streams.forEach((s, i) => {
      const wasPeeked = peeked[i];
      peeked[i] = false;
      if (!wasPeeked && nils[i]! > 0) {
        nils[i]!--;
      } else {
        const head = s![at[i]!];
        if (head && head.time === ts) {
          at[i]!++;
          m[i] = head.value;
          return;
        }
        // Left for the next Peek (unread), as the scanner does.
        peeked[i] = head !== undefined;
      }
      // The scanner's default: fill(previous) leaves the value before in the cursor's map.
      if (fill.mode !== 'previous') m[i] = defaults[i]!;
    });
    const slots = new Map(keys.map((k, i) => [k, m[i]!]));
    const scope = { time: ts, lookup: () => null, call: (e: Expr) => (e.kind === 'Call' ? slots.get(callKey(e)) : undefined) };
    out.push([ts, ...plan.projection.columns.map((c) => evaluate(c.expr, scope, types) as Cell)]);
  }
  return ascending ? out : out.reverse();
}
