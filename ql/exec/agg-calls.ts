/**
 * Find the aggregate calls of a projection (the innermost calls over a field) and the
 * transforms applied to them, with their reducer arguments.
 */
import { FieldType } from '../../engine/index.js';
import type { Call, Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';
import { AGGREGATES, FORECASTS, TRANSFORMS } from '../plan/functions.js';
import type { Column } from '../plan/projection.js';
import { callKey } from './eval.js';
import type { ReducerArgs } from './reducers/index.js';

export interface AggCall {
  readonly key: string;
  /** Reducer name (`count_distinct` for count(distinct(x))). */
  readonly reducer: string;
  readonly field: string;
  readonly args: ReducerArgs;
  readonly expr: Call;
  /** top/bottom tag arguments: one result per distinct combination of these tags. */
  readonly tagArgs: readonly string[];
  /**
   * Read from one interval before the range (the inner call of derivative & co): kept apart from
   * the same call outside the transform, which 1.x reads over the query's own range only.
   */
  readonly extended?: boolean;
}

export interface AggTransform {
  readonly key: string;
  readonly name: string;
  readonly inner: AggCall;
  readonly expr: Call;
}

function numberArg(e: Expr | undefined): number | undefined {
  if (!e) return undefined;
  if (e.kind === 'Integer') return Number(e.value);
  if (e.kind === 'Number') return e.value;
  return undefined;
}

function toAggCall(c: Call, interval: bigint | undefined): AggCall {
  const name = c.name.toLowerCase();
  const arg = c.args[0];
  let reducer = name;
  let field: string;
  if (name === 'count' && arg?.kind === 'Call' && arg.name.toLowerCase() === 'distinct' && arg.args[0]?.kind === 'VarRef') {
    reducer = 'count_distinct';
    field = arg.args[0].name;
  } else if (name === 'count' && arg?.kind === 'Distinct') {
    reducer = 'count_distinct'; // count(distinct x), the keyword form
    field = arg.name;
  } else if (arg?.kind === 'VarRef') field = arg.name;
  else throw new QueryError(`expected field argument in ${name}()`);
  const args: ReducerArgs = {};
  if (name === 'percentile') {
    const p = numberArg(c.args[1]);
    if (p === undefined) throw new QueryError('expected float argument in percentile()');
    args.percentile = p;
  }
  if (name === 'top' || name === 'bottom' || name === 'sample') {
    const n = numberArg(c.args[c.args.length - 1]);
    if (n === undefined || n <= 0) throw new QueryError(`${name}() requires a positive integer`);
    args.n = n;
  }
  if (name === 'integral') {
    const u = c.args[1];
    args.integral = { unitNs: u?.kind === 'Duration' ? u.ns : undefined };
    if (interval !== undefined) args.integral = { ...args.integral };
  }
  const tagArgs = (name === 'top' || name === 'bottom') && c.args.length > 2 ? c.args.slice(1, -1).flatMap((a) => (a.kind === 'VarRef' ? [a.name] : [])) : [];
  return { key: callKey(c), reducer, field, args, expr: c, tagArgs };
}

export function collectAggregates(columns: readonly Column[], interval: bigint | undefined): { calls: AggCall[]; transforms: AggTransform[] } {
  const calls = new Map<string, AggCall>();
  const transforms = new Map<string, AggTransform>();
  const walk = (e: Expr): void => {
    if (e.kind === 'Binary') {
      walk(e.lhs);
      walk(e.rhs);
    } else if (e.kind === 'Unary') walk(e.expr);
    else if (e.kind === 'Call') {
      const name = e.name.toLowerCase();
      if (AGGREGATES.has(name)) {
        const a = toAggCall(e, interval);
        if (!calls.has(a.key)) calls.set(a.key, a);
      } else if (TRANSFORMS.has(name) && e.args[0]?.kind === 'Call' && AGGREGATES.has(e.args[0].name.toLowerCase())) {
        const plain = toAggCall(e.args[0], interval);
        const inner = name === 'cumulative_sum' || FORECASTS.has(name) ? plain : { ...plain, key: `${plain.key}\u0000extended`, extended: true };
        if (!calls.has(inner.key)) calls.set(inner.key, inner);
        const key = callKey(e);
        if (!transforms.has(key)) transforms.set(key, { key, name, inner: calls.get(inner.key)!, expr: e });
      } else e.args.forEach(walk);
    }
  };
  for (const c of columns) walk(c.expr);
  return { calls: [...calls.values()], transforms: [...transforms.values()] };
}

export function isIntegerOutput(t: FieldType): boolean {
  return t === FieldType.Integer || t === FieldType.Unsigned;
}
