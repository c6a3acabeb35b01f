/**
 * Guards for the protected route families that have no handler (yet) in this process:
 * /internal/*, /cluster/*, /api/v1/chdb, /api/v1/sql and /api/v1/statements. A request passes
 * the gate first (401/403 as for a real route, so an unauthenticated caller learns nothing
 * about which routes exist) and only then gets the 404. Routes registered for these paths
 * take precedence in uWS (a specific pattern beats a wildcard, a method beats `any`) and must
 * call `ctx.gate.check(req)` themselves.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { sendError } from '../http/errors.js';
import type { RouteContext } from '../routes/context.js';

const GUARDED = ['/internal/*', '/cluster/*', '/internal', '/cluster', '/api/v1/chdb', '/api/v1/sql', '/api/v1/statements'];

export function registerGuardedFallbacks(app: TemplatedApp, ctx: RouteContext): void {
  const notFound = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    let access;
    try {
      access = ctx.gate.check(req);
    } catch (err) {
      sendError(reply, err, ctx.log);
      return;
    }
    access.then(
      () => reply.error(404, 'not found'),
      (err: unknown) => sendError(reply, err, ctx.log),
    );
  };
  for (const pattern of GUARDED) app.any(pattern, notFound);
}
