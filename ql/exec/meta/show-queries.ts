/**
 * SHOW QUERIES, KILL QUERY, SHOW SUBSCRIPTIONS. Strata has no running-query registry yet, so
 * SHOW QUERIES lists none (the 1.x columns without rows) and KILL QUERY answers 1.x's
 * `no such query id: N`. Subscriptions are unsupported (spec): none are listed.
 */
import type { KillQueryStatement, ShowQueriesStatement, ShowSubscriptionsStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { output, series } from './common.js';
import { MetaError } from './errors.js';

export function showQueries(_stmt: ShowQueriesStatement, _ctx: QueryContext): StatementOutput {
  return output([series(undefined, ['qid', 'query', 'database', 'duration', 'status'], [])]);
}

export function killQuery(stmt: KillQueryStatement, _ctx: QueryContext): StatementOutput {
  throw new MetaError(`no such query id: ${stmt.queryId}`, 'query_not_found');
}

export function showSubscriptions(_stmt: ShowSubscriptionsStatement, _ctx: QueryContext): StatementOutput {
  return EMPTY_OUTPUT;
}
