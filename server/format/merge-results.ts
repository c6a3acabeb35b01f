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
  // After a failure 1.x sends `not executed` for each later statement with the failing
  // statement's place as id; merged, that replaces the error (Strata keeps the error: README),
  // unless the error answered as statement 0, when one `not executed` follows it.
  const failedAt = results.length - 1;
  const failed = results[failedAt];
  if (failed?.error !== undefined && failed.statementId !== failedAt && failedAt < statementCount - 1) {
    out.push({ statementId: failedAt, error: 'not executed' });
  }
  return out;
}
