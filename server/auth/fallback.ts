/**
 * The gate for routes without a body to stream (GET/DELETE handlers, fallbacks): `guarded`
 * runs `next` once the request passed rate limiting and authentication, else answers the
 * 429/401/403 itself.
 *
 * Guards for the protected route families that have no handler (yet) in this process:
 * /internal/*, /cluster/*, /api/v1/chdb and /api/v1/sql (uWS refuses a second `any` for a
 * path, so a family gets its real routes here removed from the list). A request passes
 * the gate first (401/403 as for a real route, so an unauthenticated caller learns nothing
 * about which routes exist) and only then gets the 404. Routes registered for these paths
 * take precedence in uWS (a specific pattern beats a wildcard, a method beats `any`) and must
 * pass the gate themselves (`guarded`, or `ctx.gate.check(req)` for routes with a body).
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { sendError } from '../http/errors.js';
import type { Reply } from '../http/respond.js';
import type { RouteContext } from '../routes/context.js';
import type { Access } from './gate.js';

export function guarded(ctx: RouteContext, reply: Reply, req: HttpRequest, next: (access: Access) => void): void {
  let access;
  try {
    access = ctx.gate.check(req);
  } catch (err) {
    sendError(reply, err, ctx.log);
    return;
  }
  access.then(next, (err: unknown) => sendError(reply, err, ctx.log));
}

const GUARDED = ['/internal/*', '/cluster/*', '/internal', '/cluster', '/api/v1/chdb', '/api/v1/sql'];

export function registerGuardedFallbacks(app: TemplatedApp, ctx: RouteContext): void {
  const notFound = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    guarded(ctx, reply, req, () => reply.error(404, 'not found'));
  };
  for (const pattern of GUARDED) app.any(pattern, notFound);
}
