/**
 * Shared by the continuous query scheduler and the materialized view maintainer: a stored
 * SELECT ... INTO definition parsed once, its GROUP BY time interval and offset, and the
 * statement restricted to a time range (1.x SelectStatement.SetTimeRange: top-level time
 * comparisons of the stored WHERE are replaced, the rest of the condition is kept).
 */
import type { Expr, SelectStatement } from '../../ast/nodes.js';
import { binary, integer, varRef } from '../../ast/nodes.js';
import { parseStatement } from '../../parser/query.js';
import { splitTimeRange } from '../../plan/time-range.js';
import { NoIntervalError, ServiceError } from './errors.js';
import { normaliseOffset } from './cq-window.js';

export interface WindowedSelect {
  readonly text: string;
  readonly stmt: SelectStatement;
  /** GROUP BY time interval, ns. */
  readonly intervalNs: bigint;
  /** GROUP BY time offset normalised to [0, interval), ns. */
  readonly offsetNs: bigint;
  /** The stored WHERE without its top-level time comparisons. */
  readonly rest: Expr | null;
}

/** Parse a stored definition; throws a ServiceError when it has no SELECT ... INTO ... GROUP BY time(). */
export function parseWindowedSelect(text: string): WindowedSelect {
  const stmt = parseStatement(text);
  if (stmt.kind !== 'Select' || !stmt.target) throw new ServiceError(`not a SELECT ... INTO statement: ${text}`);
  let intervalNs = 0n;
  let offsetNs = 0n;
  for (const d of stmt.dimensions) {
    if (d.kind !== 'Call' || d.name.toLowerCase() !== 'time') continue;
    const [interval, offset] = d.args;
    if (interval?.kind === 'Duration') intervalNs = interval.ns;
    if (offset?.kind === 'Duration') offsetNs = offset.ns;
    else if (offset?.kind === 'Unary' && offset.op === '-' && offset.expr.kind === 'Duration') offsetNs = -offset.expr.ns;
  }
  if (intervalNs <= 0n) throw new NoIntervalError(`missing GROUP BY time interval: ${text}`);
  const rest = splitTimeRange(stmt.condition, 0n, true).rest;
  return { text, stmt, intervalNs, offsetNs: normaliseOffset(offsetNs, intervalNs), rest };
}

/** The statement over [startNs, endNs). */
export function withTimeRange(w: WindowedSelect, startNs: bigint, endNs: bigint): SelectStatement {
  const time = varRef('time');
  const range = binary('AND', binary('>=', time, integer(startNs)), binary('<', time, integer(endNs)));
  return { ...w.stmt, condition: w.rest ? binary('AND', w.rest, range) : range };
}

/** The start of the GROUP BY window holding `tNs` (epoch aligned, as the query engine buckets). */
export function windowStart(w: Pick<WindowedSelect, 'intervalNs' | 'offsetNs'>, tNs: bigint): bigint {
  let r = (tNs - w.offsetNs) % w.intervalNs;
  if (r < 0n) r += w.intervalNs;
  return tNs - r;
}
