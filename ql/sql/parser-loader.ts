/**
 * node-sql-parser, evaluated on the first SQL request instead of at start-up. Why: its
 * grammars (every dialect) take ~6 MB of V8 heap once evaluated, a quarter of an idle
 * server's live heap. Every mark-compact walks the live heap again (under write load they run
 * every few hundred ms, on V8's helper threads that share the cores with ingest), and an edge
 * device that never calls /api/v1/sql should not carry it at all.
 */
import { InvariantError } from '../../engine/index.js';

interface SqlAstParser {
  astify(text: string, opts: { database: string }): unknown;
}

let parser: SqlAstParser | undefined;
let loading: Promise<void> | undefined;

/** Loads the parser once; parseSql may run after this resolves. */
export function loadSqlParser(): Promise<void> {
  return (loading ??= import('node-sql-parser').then((mod) => {
    parser = new mod.default.Parser();
  }));
}

export function sqlParser(): SqlAstParser {
  if (!parser) throw new InvariantError('parseSql before loadSqlParser()');
  return parser;
}
