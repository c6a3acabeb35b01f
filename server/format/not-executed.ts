/**
 * The chunks 1.x sends after a failing statement of a chunked batch: the error itself, then one
 * `not executed` chunk for each statement after it, every one labelled with the failing
 * statement's id (1.x's executor sends them with the id it stopped at; the influx CLI, which asks
 * for chunks, prints each of them). A buffered answer merges results of one id, so there 1.x
 * shows only `not executed`; Strata keeps the real error there (README, known differences).
 */
import { chunkToJson, type JsonOptions } from './json.js';

export function notExecutedChunks(failedId: number, statementCount: number, opts: JsonOptions): string[] {
  const line = chunkToJson({ statementId: failedId, error: 'not executed' }, opts);
  return Array.from({ length: Math.max(0, statementCount - 1 - failedId) }, () => line);
}
