/**
 * The one place that turns errors into HTTP responses (style.md item 13).
 *
 * A StrataError (engine, ql or server) answers with its own `status` and `{"error": message}`;
 * 500s are logged with their stack, other 5xx (node states) as warnings. Anything else is a bug: 500 with a generic text, and the stack goes to
 * the log with the request id that the client also received. Routes that need a 1.x-specific
 * wording (e.g. /write's quoted database name) adjust the error before calling here.
 */
import type { EngineLogger } from '../../engine/index.js';
import { StrataError } from '../../engine/index.js';
import { ClientAbortedError } from '../errors.js';
import type { Reply, SendOptions } from './respond.js';

/** Statuses after which the request body may be partly unread: the connection must not be reused. */
const CLOSE_AFTER = new Set([408, 413]);

export function sendError(reply: Reply, err: unknown, log: EngineLogger, opts: SendOptions = {}): void {
  if (err instanceof ClientAbortedError || reply.aborted) return;
  if (err instanceof StrataError) {
    if (err.status === 500) {
      log.error({ requestId: reply.requestId, code: err.code, err }, err.message);
    } else if (err.status > 500) {
      // 503/504/507: an expected node condition, not a bug; no stack.
      log.warn({ requestId: reply.requestId, code: err.code, status: err.status }, err.message);
    }
    reply.error(err.status, err.message, { ...opts, close: opts.close ?? CLOSE_AFTER.has(err.status) });
    return;
  }
  log.error({ requestId: reply.requestId, err }, 'unhandled error');
  reply.error(500, `internal error (request id ${reply.requestId})`, opts);
}
