/**
 * GET /metrics (spec "GET /metrics"): the Prometheus text exposition of the service's
 * registry (server/metrics/registry.ts). Public, never rate limited (spec "Rate limiting").
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { sendError } from '../http/errors.js';
import { methodNotAllowed, type RouteContext } from './context.js';

export function registerMetricsRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const scrape = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    ctx.metrics.exposition().then(
      ({ text, contentType }) => reply.send(200, text, contentType),
      (err: unknown) => sendError(reply, err, ctx.log),
    );
  };
  app.get('/metrics', scrape).any('/metrics', (res, req) => methodNotAllowed(ctx.begin(res, req), 'GET'));
}
