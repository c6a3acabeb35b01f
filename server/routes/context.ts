/** What every route handler gets from the app (server/app.ts builds it). */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { EngineLogger } from '../../engine/index.js';
import type { ServerDeps } from '../deps.js';
import type { ServerOptions } from '../options.js';
import type { Reply } from '../http/respond.js';
import type { QueryRegistry } from '../../ql/index.js';
import type { AccessGate } from '../auth/gate.js';
import type { ServiceMetrics } from '../metrics/registry.js';
import type { StatementSummaries } from '../statements/summary.js';

export interface RouteContext {
  readonly deps: ServerDeps;
  readonly options: ServerOptions;
  readonly log: EngineLogger;
  /** [ops] Prometheus metrics (GET /metrics); e.g. the rate limiter calls `metrics.rateLimitDenied.inc()`. */
  readonly metrics: ServiceMetrics;
  /** [ops] Statement summaries recorded by /query, served by /api/v1/statements. */
  readonly statements: StatementSummaries;
  /** True once ServerHandle.close() began: the node takes no new writes and reports unhealthy. */
  stopping(): boolean;
  /**
   * Start answering a request: call first, synchronously, in every handler. It registers
   * onAborted and counts the request as in flight until it is answered or aborted.
   */
  begin(res: HttpResponse, req: HttpRequest): Reply;
  /** Rate limiting and authentication (server/auth/gate.ts); call `gate.check(req)` synchronously. */
  readonly gate: AccessGate;
  /** Running queries: deps.queries, or the server's own when the deps have none. */
  readonly queries: QueryRegistry;
}

/** 405 as 1.x (Go's pat router) answers it: plain text and an Allow header. */
export function methodNotAllowed(reply: Reply, allow: string): void {
  reply.text(405, 'Method Not Allowed\n', { headers: { Allow: allow } });
}
