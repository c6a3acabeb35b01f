/**
 * Everything a statement needs to run: the engine, the request's default database and
 * retention policy, the query's fixed `now()`, cancellation, and the user (when auth is on).
 */
import type { Engine } from '../../engine/index.js';
import type { QueryRegistry } from './queries/registry.js';
import type { StopSignal } from './queries/stop.js';
import type { StatsModule } from './meta/stats-module.js';
import { park, sliceEnds, sliceStarts, sliceUsedUp } from './slices.js';

export interface QueryUser {
  readonly name: string;
  readonly admin: boolean;
}

export interface QueryContext {
  readonly engine: Engine;
  /** `db` request parameter ('' when absent). */
  readonly database: string;
  /** `rp` request parameter ('' when absent). */
  readonly retentionPolicy: string;
  /** now() for the whole request, ns. */
  readonly nowNs: bigint;
  /** Aborted on query timeout, KILL QUERY or client disconnect. */
  readonly signal?: StopSignal;
  /** Undefined when authentication is disabled. */
  readonly user?: QueryUser;
  /** Hash a password (argon2id PHC); injected so ql/ does not depend on a hashing policy. */
  readonly hashPassword?: (password: string) => Promise<string>;
  /** Running queries, for SHOW QUERIES and KILL QUERY (absent: none listed, none killable). */
  readonly queries?: QueryRegistry;
  /**
   * Inside a subquery: the time range of the outermost statement. 1.x maps its shards for that
   * range and clamps every read of the inner statements to it (LocalShardMapping), also where
   * an inner transform would start an interval earlier.
   */
  readonly outermostRange?: { readonly min: bigint; readonly max: bigint };
  /**
   * Hold every subquery's inner result whole instead of streaming it (subquery-stream.ts): the
   * reference the streamed answers are tested against. Not a setting: answers are the same.
   */
  readonly holdSubqueries?: boolean;
  /** The product's semver, for SHOW DIAGNOSTICS' build module (absent: `unknown`). */
  readonly version?: string;
  /** SHOW STATS modules counted above the executor (the server's httpd and write); absent: none. */
  readonly statsModules?: () => readonly StatsModule[];
}

/** What one statement produces: series (or nothing) and optional messages. */
export interface StatementOutput {
  readonly series: readonly import('../result.js').ResultSeries[];
  readonly messages?: readonly import('../result.js').ResultMessage[];
  readonly timeZone?: string;
}

export const EMPTY_OUTPUT: StatementOutput = { series: [] };

/** Throw the abort reason when the query was cancelled (checked between batches). */
export function checkAborted(ctx: QueryContext): void {
  if (ctx.signal?.aborted) throw ctx.signal.reason;
}

/**
 * The caller runs in a fresh event-loop turn (an HTTP request handler) and is about to start
 * a statement: timers and I/O just had their chance, so its first slice starts now. Without
 * this a query arriving after an idle spell paid a setImmediate hop at its first checkpoint.
 */
export function eventLoopTurned(): void {
  sliceStarts();
}

/**
 * checkAborted, plus a turn of the event loop once the statement's slice is used up
 * (slices.ts: which parked statement runs next is decided there, least attained service).
 * Cursor reads resolve as microtasks, so without it a long SELECT starves the event loop:
 * the query timeout timer never fires, KILL QUERY, /ping and light queries from other
 * connections wait until the query is done. [auth]
 */
export function checkpoint(ctx: QueryContext): Promise<void> | undefined {
  checkAborted(ctx);
  const owner = ctx.signal ?? ctx; // a request's statements share its signal; subqueries copy ctx
  if (!sliceUsedUp(owner)) return undefined; // no promise: most checkpoints need no turn
  return yieldTurn(ctx, owner);
}

/** The request's statements are over: it awaits nothing more (slices.ts shortens others' slices while it does). */
export function statementsEnded(ctx: QueryContext): void {
  sliceEnds(ctx.signal ?? ctx);
}

async function yieldTurn(ctx: QueryContext, owner: object): Promise<void> {
  await park(owner);
  checkAborted(ctx);
}

/**
 * Streaming output of a statement (chunked responses): series arrive in pieces of at most
 * `chunkSize` rows; `more` says whether further rows of the same series follow. The
 * executor awaits each push, so a slow consumer applies backpressure to the scan.
 */
export interface SeriesSink {
  readonly chunkSize: number;
  /** A buffering sink answers at once (undefined); a writing one may make the producer wait. */
  push(series: import('../result.js').ResultSeries, more: boolean): void | Promise<void>;
}
