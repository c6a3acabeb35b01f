/**
 * How 1.x's handler builds a buffered answer from the results its executor sends: a result with
 * the id of the one before it is merged into it, and an error replaces it. Only an error can
 * share an id here: a statement 1.x refuses while rewriting it answers as statement 0
 * (ql RewriteError), so `SELECT ...; SHOW MEASUREMENTS WHERE time > 0` answers that error alone.
 */
import type { StatementResult } from '../../ql/index.js';

export function mergeResults(results: readonly StatementResult[], statementCount: number): StatementResult[] {
  const out: StatementResult[] = [];
  for (const r of results) {
    const last = out[out.length - 1];
    if (last !== undefined && last.statementId === r.statementId && r.error !== undefined) out[out.length - 1] = r;
    else out.push(r);
  }
  const extra = notExecutedAfter(results[results.length - 1], results.length - 1, statementCount);
  if (extra) out.push(extra);
  return out;
}

/**
 * After a failure 1.x sends `not executed` for each later statement with the failing
 * statement's place as id; merged, that replaces the error (Strata keeps the error: README),
 * unless the error answered as statement 0, when one `not executed` follows it. `last` is the
 * batch's last result and `failedAt` its place; undefined when nothing follows.
 */
export function notExecutedAfter(last: StatementResult | undefined, failedAt: number, statementCount: number): StatementResult | undefined {
  if (last?.error === undefined || last.statementId === failedAt || failedAt >= statementCount - 1) return undefined;
  return { statementId: failedAt, error: 'not executed' };
}
