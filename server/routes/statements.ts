/**
 * GET and DELETE /api/v1/statements (spec "GET or DELETE /api/v1/statements").
 *
 * - GET: 200, a JSON array of summaries, most recently seen first (fields: summary.ts
 *   StatementSummaryEntry). With `statement_summary.enabled` false the route still exists
 *   and answers 200 `[]`: monitoring that polls it keeps working, and nothing is recorded.
 * - DELETE: clears the buffer, 204.
 * Access control (`statement_summary.require_auth`) belongs to the auth layer's route classes.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { methodNotAllowed, type RouteContext } from './context.js';
import { guarded } from '../auth/fallback.js'; // [auth]

export const STATEMENTS_PATH = '/api/v1/statements';

export function registerStatementRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const list = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    guarded(ctx, reply, req, () => reply.json(200, ctx.statements.list())); // [auth]
  };
  const clear = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    guarded(ctx, reply, req, () => {
      ctx.statements.clear();
      reply.empty(204);
    }); // [auth]
  };
  app
    .get(STATEMENTS_PATH, list)
    .del(STATEMENTS_PATH, clear)
    .any(STATEMENTS_PATH, (res, req) => methodNotAllowed(ctx.begin(res, req), 'GET, DELETE'));
}
