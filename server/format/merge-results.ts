/**
 * How 1.x's handler builds a buffered answer from the results its executor sends: a result with
 * the id of the one before it is merged into it, and an error replaces it. Only an error can
 * share an id here: a statement 1.x refuses while rewriting it answers as statement 0
 * (ql RewriteError), so `SELECT ...; SHOW MEASUREMENTS WHERE time > 0` answers that error alone.
 */
import type { StatementResult } from '../../ql/index.js';

export function mergeResults(results: readonly StatementResult[]): StatementResult[] {
  const out: StatementResult[] = [];
  for (const r of results) {
    const last = out[out.length - 1];
    if (last !== undefined && last.statementId === r.statementId && r.error !== undefined) out[out.length - 1] = r;
    else out.push(r);
  }
  return out;
}
