/**
 * Run the statements of one /query request in order. Each statement gets a StatementResult;
 * the first failing statement reports its error and stops the batch (as 1.x), except a WHERE
 * that SHOW MEASUREMENTS / TAG KEYS / TAG VALUES refuse (`host > 'a'`): 1.x's statement
 * executor sends that error as the statement's result and runs the next one.
 */
import type { Statement } from '../ast/statements.js';
import type { StatementResult } from '../result.js';
import { QueryError } from '../errors.js';
import { StorageIoError } from '../../engine/index.js';
import { checkAborted, statementsEnded, type QueryContext, type SeriesSink, type StatementOutput } from './context.js';
import { executeSelect } from './select.js';
import { hasFunctionCall } from '../plan/functions.js';
import { writeInto } from './into.js';
import { MetaError, RewriteError } from './meta/errors.js';
import { explain, explainAnalyze } from './explain/explain.js';

/** Non-SELECT statements (SHOW, DDL, users, CQs): provided by ql/exec/meta. */
export type MetaExecutor = (stmt: Statement, ctx: QueryContext) => Promise<StatementOutput>;

/** The TZ() zone a statement's row times are printed in (a SELECT's, unless it writes INTO). */
export function statementTimeZone(stmt: Statement | undefined): string | undefined {
  return stmt?.kind === 'Select' && !stmt.target ? (stmt.location ?? undefined) : undefined;
}

async function runStatement(stmt: Statement, ctx: QueryContext, meta: MetaExecutor | undefined, sink?: SeriesSink): Promise<StatementOutput> {
  if (stmt.kind === 'Select') {
    if (stmt.target) {
      // 1.x writes no row for an empty window under fill(null), count()'s 0 included.
      const select = stmt.fill.mode === 'null' && hasFunctionCall(stmt.fields) ? { ...stmt, fill: { mode: 'none' as const } } : stmt;
      return { series: [await writeInto(stmt.target, await executeSelect(select, ctx), ctx)] };
    }
    return { series: await executeSelect(stmt, ctx, sink), timeZone: statementTimeZone(stmt) };
  }
  if (stmt.kind === 'Explain') return { series: await (stmt.analyze ? explainAnalyze(stmt.statement, ctx) : explain(stmt.statement, ctx)) };
  if (!meta) throw new QueryError(`statement not supported: ${stmt.kind}`);
  return meta(stmt, ctx);
}

const SENT_AS_RESULT: ReadonlySet<Statement['kind']> = new Set(['ShowMeasurements', 'ShowTagKeys', 'ShowTagValues']);

/** Whether 1.x answers this statement's error as its result and runs the rest of the batch. */
function continuesBatch(stmt: Statement, err: Error): boolean {
  return SENT_AS_RESULT.has(stmt.kind) && err instanceof MetaError && err.code === 'invalid_tag_comparison';
}

export async function executeStatements(
  statements: readonly Statement[],
  ctx: QueryContext,
  meta?: MetaExecutor,
  onResult?: (r: StatementResult) => void | Promise<void>,
  /** Chunked responses: where each statement streams its series (see SeriesSink). */
  sinkFor?: (statementId: number) => SeriesSink,
): Promise<StatementResult[]> {
  try {
    return await runAll(statements, ctx, meta, onResult, sinkFor);
  } finally {
    statementsEnded(ctx);
  }
}

async function runAll(
  statements: readonly Statement[],
  ctx: QueryContext,
  meta: MetaExecutor | undefined,
  onResult: ((r: StatementResult) => void | Promise<void>) | undefined,
  sinkFor: ((statementId: number) => SeriesSink) | undefined,
): Promise<StatementResult[]> {
  const results: StatementResult[] = [];
  for (let i = 0; i < statements.length; i++) {
    let result: StatementResult;
    let failed = false;
    try {
      checkAborted(ctx); // [auth] a timed-out or killed batch runs no further statement
      const stmt = statements[i]!;
      if (stmt.kind === 'Select' && !stmt.target) {
        // The common case without runStatement's frame and await in between.
        result = { statementId: i, series: await executeSelect(stmt, ctx, sinkFor?.(i)), messages: undefined, timeZone: statementTimeZone(stmt) };
      } else {
        const out = await runStatement(stmt, ctx, meta, sinkFor?.(i));
        result = { statementId: i, series: out.series, messages: out.messages, timeZone: out.timeZone };
      }
    } catch (err) {
      if (ctx.signal?.aborted && err === ctx.signal.reason) throw err;
      if (!(err instanceof Error) || !('status' in err)) throw err;
      // The disk failed (spec Errors: storage or metadata error → 500): the whole request fails
      // with the cause, so a client retries it instead of reading a 200 as "done" or "refused".
      if (err instanceof StorageIoError) throw err;
      // 1.x's rewrite errors carry no statement id (0): see RewriteError
      result = { statementId: err instanceof RewriteError ? 0 : i, error: err.message };
      failed = !continuesBatch(statements[i]!, err);
    }
    results.push(result);
    const pending = onResult?.(result);
    if (pending) await pending; // most callers record synchronously: no turn per statement
    if (failed) break;
  }
  return results;
}
