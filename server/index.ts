/** Public surface of the HTTP layer. */
export { startServer, type ServerHandle, type ServerRuntime } from './app.js';
export { RateLimiter, type Clock } from './rate-limit.js';
export type { ServerDeps, WriteRequest, NodeState, Precision } from './deps.js';
export {
  serverConfigSections,
  serverSectionSchema,
  authSectionSchema,
  rateLimitSectionSchema,
  statementSummarySectionSchema,
  defaultServerOptions,
  type ServerOptions,
  type ServerSection,
  type AuthSection,
  type RateLimitSection,
  type StatementSummarySection,
} from './options.js';
export { ListenError, TlsConfigError } from './errors.js';
export { SERVICE_VERSION, SERVICE_VERSION_HEADER } from './version.js';
// [ops] metrics registry and statement summaries
export { ServiceMetrics, type ServiceMetricsOptions, type MetricSources, type FlushReport, type ReplicationMode } from './metrics/registry.js';
export { serverStatsModules, HttpdCounters, PointsWriterCounters } from './metrics/module-counters.js';
export { StatementSummaries, type StatementSummaryEntry } from './statements/summary.js';
