/**
 * Liveness and health (spec "GET or HEAD /ping", "/health", "/health/ready"). All public:
 * never rate limited, never authenticated.
 *
 * - /ping: 204, no body (clients require exactly 204 and read X-Influxdb-Version), also
 *   with `?verbose=true` (checked against 1.6.7); /status is the same (1.x's older name).
 * - /health: 1.x shape `{name, message, status, checks, version}`; 200 `pass`, or 503 `fail`
 *   while the node is read-only (disk protection) or stopping.
 * - /health/ready: 200 when the composition root's readiness check succeeds in time, else 503.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { SERVICE_VERSION } from '../version.js';
import { methodNotAllowed, type RouteContext } from './context.js';

/** Upper bound for one readiness check; a probe must not hang on a wedged engine. */
const READY_TIMEOUT_MS = 5_000;

function unhealthyReason(ctx: RouteContext): string | undefined {
  if (ctx.stopping() || ctx.deps.state.stopping) return 'server is shutting down';
  if (ctx.deps.state.readOnly) return 'node is in read-only mode: insufficient disk space';
  return undefined;
}

async function checkReady(ctx: RouteContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ctx.deps.ready(), timeout]);
  } catch (err) {
    ctx.log.warn({ err }, 'readiness check failed');
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerPingRoutes(app: TemplatedApp, ctx: RouteContext): void {
  // 1.6.7 answers 204 whatever the query string says (`verbose` is a later addition).
  const ping = (name: 'pingReq' | 'statusReq') => (res: HttpResponse, req: HttpRequest) => {
    ctx.metrics.httpd[name]++;
    ctx.begin(res, req).noContent();
  };

  const health = (head: boolean) => (res: HttpResponse, req: HttpRequest) => {
    const reply = ctx.begin(res, req);
    const reason = unhealthyReason(ctx);
    const body = {
      name: 'strata',
      message: reason ?? 'ready for queries and writes',
      status: reason ? 'fail' : 'pass',
      checks: [],
      version: SERVICE_VERSION,
    };
    reply.json(reason ? 503 : 200, body, { head });
  };

  const ready = (head: boolean) => (res: HttpResponse, req: HttpRequest) => {
    const reply = ctx.begin(res, req);
    const reason = unhealthyReason(ctx);
    if (reason) return reply.json(503, { status: 'fail', message: reason }, { head });
    void checkReady(ctx).then((ok) =>
      ok
        ? reply.json(200, { status: 'pass', message: 'ready for queries' }, { head })
        : reply.json(503, { status: 'fail', message: 'query engine not ready' }, { head }),
    );
  };

  const notAllowed = (allow: string) => (res: HttpResponse, req: HttpRequest) => methodNotAllowed(ctx.begin(res, req), allow);

  app.get('/ping', ping('pingReq')).head('/ping', ping('pingReq')).any('/ping', notAllowed('GET, HEAD'));
  // 1.x's older name for /ping, still routed by 1.6.7 (GET and HEAD).
  app.get('/status', ping('statusReq')).head('/status', ping('statusReq')).any('/status', notAllowed('GET, HEAD'));
  app.get('/health', health(false)).head('/health', health(true)).any('/health', notAllowed('GET, HEAD'));
  app
    .get('/health/ready', ready(false))
    .head('/health/ready', ready(true))
    .any('/health/ready', notAllowed('GET, HEAD'));
}
