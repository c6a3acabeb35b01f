/**
 * 1.6.7 answers nothing at all for a statement whose only call is percentile() when the
 * first window it reduces (the first series in output order, at its first window with points)
 * has too few points for the rank (index < 0: percentile(x, 10) of four points). Its reduce
 * iterator ends the stream at that empty first result; later empty windows print null.
 * Observed on 1.6.7 with and without GROUP BY time, tags, ORDER BY time DESC and SLIMIT.
 */
import { FieldType } from '../../engine/index.js';
import { call, type Expr, type SelectStatement, type VarRef } from '../ast/nodes.js';
import type { ResultSeries } from '../result.js';
import { percentileIndex } from './reducers/index.js';
import { walkExpr } from '../ast/walk.js';
import { MATH_FUNCTIONS } from './math.js';

interface LonePercentile {
  readonly arg: VarRef;
  readonly rank: number;
}

/** Whether call `e` reads a field no source has: 1.x's iterator for it gives no point at all. */
function readsNoField(e: Expr, hasField: (name: string) => boolean): boolean {
  if (e.kind === 'Distinct') return !hasField(e.name);
  if (e.kind !== 'Call') return false;
  const arg = e.args[0];
  if (arg?.kind === 'VarRef') return !hasField(arg.name);
  return arg !== undefined && readsNoField(arg, hasField);
}

/**
 * The statement's percentile() call when it is the only aggregate or selector: alone, under
 * math (`percentile(x, 90) * 2`) or beside auxiliary fields and tags (`percentile(x, 90), x,
 * host`), which 1.6.7 drives from the same iterator. Beside another call it is joined with
 * that call's windows instead, and answers as usual; not beside calls over a field no source
 * has (`percentile(v, 10), count(zz)`), which give that join no point.
 */
function lonePercentile(stmt: SelectStatement, hasField: (name: string) => boolean): LonePercentile | undefined {
  const calls: Expr[] = [];
  for (const f of stmt.fields) {
    walkExpr(f.expr, (e) => {
      if (e.kind === 'Distinct' || (e.kind === 'Call' && !MATH_FUNCTIONS.has(e.name.toLowerCase()))) {
        if (!readsNoField(e, hasField) || (e.kind === 'Call' && e.name.toLowerCase() === 'percentile')) calls.push(e);
        return false;
      }
      return true;
    });
  }
  if (calls.length !== 1) return undefined;
  const e = calls[0]!;
  if (e.kind !== 'Call' || e.name.toLowerCase() !== 'percentile' || e.args.length !== 2) return undefined;
  const [arg, n] = e.args as [Expr, Expr];
  if (arg.kind !== 'VarRef') return undefined;
  const rank = n.kind === 'Number' ? n.value : n.kind === 'Integer' ? Number(n.value) : undefined;
  return rank === undefined ? undefined : { arg, rank };
}

/** Whether `stmt` has a lone percentile() call, the only case leadPercentileMissing probes (checked first: no promise for the rest). */
export function mayLeadPercentile(stmt: SelectStatement, hasField: (name: string) => boolean): boolean {
  return lonePercentile(stmt, hasField) !== undefined;
}

/**
 * Whether `stmt` is such a statement and its first reduced window has no rank: `run` executes
 * a probe (the same statement counting the points of that window). `typesOf` gives the field's
 * type in each source: over a string or boolean field the statement's type error comes first.
 */
export async function leadPercentileMissing(
  stmt: SelectStatement,
  typesOf: (field: string) => readonly (FieldType | undefined)[],
  run: (probe: SelectStatement) => Promise<ResultSeries[]>,
): Promise<boolean> {
  const lone = lonePercentile(stmt, (name) => typesOf(name).some((t) => t !== undefined));
  if (!lone) return false;
  if (typesOf(lone.arg.name).some((t) => t === FieldType.String || t === FieldType.Boolean)) return false;
  const probe: SelectStatement = {
    ...stmt,
    fields: [{ kind: 'Field', expr: call('count', [lone.arg]), alias: null }],
    target: null,
    fill: { mode: 'none' },
    limit: 1,
    offset: 0,
  };
  const first = (await run(probe))[0]?.values[0];
  if (!first) return false;
  return percentileIndex(Number(first[1]), lone.rank) < 0;
}
