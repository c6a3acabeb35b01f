/**
 * The uWebSockets.js application: route table, listen, graceful close.
 *
 * Shutdown (ServerHandle.close): stop accepting connections, refuse new writes with 503 on
 * connections that stay open, wait for in-flight requests (bounded), then close every
 * remaining connection. The caller (cli/serve.ts) runs the engine's final flush afterwards.
 */
import { readFileSync } from 'node:fs';
import uWS from 'uWebSockets.js';
import type { EngineLogger } from '../engine/index.js';
import { silentLogger } from '../engine/index.js';
import type { ServerDeps } from './deps.js';
import { ListenError, TlsConfigError } from './errors.js';
import type { ServerOptions } from './options.js';
import { Reply } from './http/respond.js';
import { acceptsGzip } from './http/accept-encoding.js';
import type { RouteContext } from './routes/context.js';
import { registerPingRoutes } from './routes/ping.js';
import { registerWriteRoutes } from './routes/write.js';
import { registerQueryRoutes } from './routes/query.js';
import { registerSqlRoutes } from './routes/sql.js';
import { QueryRegistry } from '../ql/index.js';
import { AccessGate } from './auth/gate.js';
import { AuthSetupError } from './auth/errors.js';
import { registerGuardedFallbacks } from './auth/fallback.js';
import { PasswordVerifier } from './auth/verifier.js';
import { monotonicClock, RateLimiter, type Clock } from './rate-limit.js';
// [ops] metrics and statement summaries
import { ServiceMetrics } from './metrics/registry.js';
import { registerMetricsRoutes } from './routes/metrics.js';
import { registerDebugVarsRoutes } from './routes/debug-vars.js';
import { registerStatementRoutes } from './routes/statements.js';
import { StatementSummaries } from './statements/summary.js';

/** uWS ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT (the v20.30 typings lack the 4-argument listen). */
const EXCLUSIVE_PORT = 1;

export interface ServerHandle {
  /** The port actually bound (differs from the configured one when that was 0). */
  readonly port: number;
  /** Requests accepted and not yet answered or aborted. */
  readonly inFlight: number;
  /** Rate limiter; `deniedTotal` is service_rate_limit_denied_total. [auth] */
  readonly rateLimiter: RateLimiter;
  /** Graceful stop; resolves once every connection is closed. Idempotent. */
  close(opts?: { drainTimeoutMs?: number }): Promise<void>;
}

/** uWS v20.30 has App.close() (closes all sockets) but its typings lack it. */
type ClosableApp = uWS.TemplatedApp & { close?: () => void };

function readPem(key: 'tls_cert_path' | 'tls_key_path', path: string): void {
  if (path === '') throw new TlsConfigError(`server.tls_enabled is true but server.${key} is empty`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TlsConfigError(`cannot read server.${key} "${path}": ${(err as Error).message}`, { cause: err });
  }
  if (!text.includes('-----BEGIN ')) throw new TlsConfigError(`server.${key} "${path}" is not a PEM file`);
}

function createApp(options: ServerOptions): ClosableApp {
  const { server } = options;
  if (!server.tls_enabled) return uWS.App();
  readPem('tls_cert_path', server.tls_cert_path);
  readPem('tls_key_path', server.tls_key_path);
  try {
    return uWS.SSLApp({ cert_file_name: server.tls_cert_path, key_file_name: server.tls_key_path });
  } catch (err) {
    // uWS only says "App construction failed": the PEM did not parse or key and cert differ.
    throw new TlsConfigError(
      `cannot load TLS certificate "${server.tls_cert_path}" with key "${server.tls_key_path}": ` +
        'invalid PEM, or the key does not match the certificate',
      { cause: err },
    );
  }
}

/** Whether `log` writes debug lines: pino says so; a logger that cannot say is taken to write them. */
function logsDebug(log: EngineLogger): boolean {
  const levels = log as EngineLogger & { isLevelEnabled?: (level: string) => boolean };
  return log !== silentLogger && (levels.isLevelEnabled?.('debug') ?? true);
}

/** Test seams: the clock of the rate limiter and the verification cache (ms, monotonic). */
export interface ServerRuntime {
  readonly clock?: Clock;
}

/** [auth] Rate limiter, credential verifier and the gate every route passes first. */
async function createGate(deps: ServerDeps, options: ServerOptions, clock: Clock, metrics: ServiceMetrics): Promise<AccessGate> {
  const limiter = new RateLimiter(options.rate_limit, clock, () => metrics.rateLimitDenied.inc());
  if (!options.auth.enabled) return new AccessGate(options, limiter, undefined, undefined);
  if (!deps.users) throw new AuthSetupError('auth.enabled is true but the server has no user directory');
  const verifier = new PasswordVerifier(deps.users, clock);
  await verifier.prepare();
  return new AccessGate(options, limiter, deps.users, verifier);
}

export async function startServer(
  deps: ServerDeps,
  options: ServerOptions,
  log: EngineLogger = silentLogger,
  runtime: ServerRuntime = {},
): Promise<ServerHandle> {
  const metrics = deps.metrics ?? new ServiceMetrics();
  const gate = await createGate(deps, options, runtime.clock ?? monotonicClock, metrics);
  const app = createApp(options);
  let inFlight = 0;
  let stopping = false;
  // The access log's line, its clock reads and its closure only when debug lines are written.
  const accessLog = logsDebug(log);
  const httpd = metrics.httpd;
  const requestDone = (status: number | undefined, started: number): void => {
    inFlight--;
    httpd.finished(status, started);
  };
  // While stopping, tell keep-alive clients to reconnect (to a live node).
  const closeConnections = () => stopping;
  const gzipResponses = options.server.gzip_responses;
  const ctx: RouteContext = {
    deps,
    options,
    log,
    metrics,
    statements: new StatementSummaries(options.statement_summary),
    stopping: () => stopping,
    gate,
    queries: deps.queries ?? new QueryRegistry(options.server.max_concurrent_queries),
    begin(res, req) {
      inFlight++;
      httpd.req++;
      httpd.reqActive++;
      const started = performance.now();
      const origin = req.getHeader('origin');
      const gzip = gzipResponses && acceptsGzip(req.getHeader('accept-encoding'));
      if (!accessLog) return new Reply(res, { origin, gzip, onFinish: (status) => requestDone(status, started), closeConnections });
      const method = req.getMethod();
      const url = req.getUrl();
      return new Reply(res, {
        origin,
        gzip,
        onFinish(status) {
          requestDone(status, started);
          const ms = Math.round((performance.now() - started) * 10) / 10;
          log.debug({ method, url, status: status ?? 'aborted', ms }, 'request');
        },
        closeConnections,
      });
    },
  };

  registerPingRoutes(app, ctx);
  registerWriteRoutes(app, ctx);
  registerQueryRoutes(app, ctx);
  registerSqlRoutes(app, ctx); // POST /api/v1/chdb, /api/v1/sql
  registerMetricsRoutes(app, ctx); // [ops]
  registerDebugVarsRoutes(app, ctx); // [ops] 1.x's expvar document (Telegraf inputs.influxdb)
  registerStatementRoutes(app, ctx); // [ops]
  registerGuardedFallbacks(app, ctx); // [auth]
  app.any('/*', (res, req) => ctx.begin(res, req).error(404, 'not found'));

  const { bind_address: host, port } = options.server;
  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    // Exclusive: without it uWS sets SO_REUSEPORT and a second server on the same port would
    // silently share the traffic (two nodes, two data directories, one address).
    const listen = app.listen as unknown as (h: string, p: number, o: number, cb: (s: uWS.us_listen_socket | false) => void) => void;
    listen.call(app, host, port, EXCLUSIVE_PORT, (socket) => {
      if (socket) return resolve(socket);
      app.close?.();
      reject(new ListenError(host, port));
    });
  });

  let closing: Promise<void> | undefined;
  const close = async (drainTimeoutMs: number): Promise<void> => {
    stopping = true;
    uWS.us_listen_socket_close(listenSocket);
    const deadline = Date.now() + drainTimeoutMs;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (inFlight > 0) log.warn({ inFlight }, 'closing with requests still in flight');
    app.close?.();
  };

  return {
    port: uWS.us_socket_local_port(listenSocket as unknown as uWS.us_socket),
    rateLimiter: gate.limiter,
    get inFlight() {
      return inFlight;
    },
    close(opts = {}) {
      closing ??= close(opts.drainTimeoutMs ?? options.server.request_timeout_secs * 1000);
      return closing;
    },
  };
}
