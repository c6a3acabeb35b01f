/**
 * SHOW QUERIES, KILL QUERY, SHOW SUBSCRIPTIONS. SHOW QUERIES lists the running-query registry
 * (ql/exec/queries/registry.ts) with the 1.x columns `qid, query, database, duration, status`,
 * itself included as in 1.x; without a registry (library use) it lists none. KILL QUERY aborts a
 * registered query or answers 1.x's `no such query id: N` (`ON host` is accepted and ignored:
 * single process). Subscriptions are unsupported (spec): none are listed.
 */
import type { KillQueryStatement, ShowQueriesStatement, ShowSubscriptionsStatement } from '../../ast/statements.js';
import { goDurationString } from '../../ast/duration.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { showQueriesDuration } from '../queries/registry.js';
import { output, series } from './common.js';
import { MetaError } from './errors.js';

export function showQueries(_stmt: ShowQueriesStatement, ctx: QueryContext): StatementOutput {
  const registry = ctx.queries;
  const now = registry?.now() ?? 0;
  const rows = (registry?.list() ?? []).map((q) => [q.id, q.text, q.database, goDurationString(showQueriesDuration(now - q.startedMs)), q.status]);
  return output([series(undefined, ['qid', 'query', 'database', 'duration', 'status'], rows)]);
}

export function killQuery(stmt: KillQueryStatement, ctx: QueryContext): StatementOutput {
  const id = stmt.queryId;
  if (id <= BigInt(Number.MAX_SAFE_INTEGER) && ctx.queries?.kill(Number(id))) return EMPTY_OUTPUT;
  throw new MetaError(`no such query id: ${id}`, 'query_not_found');
}

export function showSubscriptions(_stmt: ShowSubscriptionsStatement, _ctx: QueryContext): StatementOutput {
  return EMPTY_OUTPUT;
}
