/**
 * Configuration sub-schemas owned by the HTTP layer: [server], [auth], [rate_limit] and
 * [statement_summary] (service-spec "Configuration keys and defaults", "Limits", "Authentication").
 * cli/config.ts composes them into the one root schema; every key carries its spec default.
 * Objects are strict so an unknown key fails start-up instead of being silently ignored.
 */
import { z } from 'zod';

const int = () => z.number().int();

export const serverSectionSchema = z.strictObject({
  bind_address: z.string().min(1).default('0.0.0.0'),
  port: int().min(0).max(65535).default(8086),
  /** Client write body cap, compressed and decompressed; feeds cluster.replicate_body_limit_bytes. */
  max_body_size_bytes: int().positive().default(26_214_400),
  /** A request whose body has not fully arrived within this many seconds gets 408. */
  request_timeout_secs: int().positive().default(30),
  query_timeout_secs: int().positive().default(30),
  /** 0 means unlimited. */
  max_concurrent_queries: int().nonnegative().default(0),
  /**
   * Not in the spec. Compress 200 answers of 1 KiB or more (/query JSON, CSV and chunked
   * streams, /metrics, ...) with gzip when the request's Accept-Encoding allows it, as 1.x does
   * (server/http/gzip-response.ts). Off: every answer goes out uncompressed.
   */
  gzip_responses: z.boolean().default(true),
  tls_enabled: z.boolean().default(false),
  tls_cert_path: z.string().default(''),
  tls_key_path: z.string().default(''),
  /**
   * Not in the spec. Prime the JIT before listening: run the write path over generic synthetic
   * data through a scratch engine (engine/write/warmup.ts) and the query path on a scratch
   * server (cli/jit-warmup.ts), both in temporary directories. Off by default: it costs 2-5 s of
   * start-up and 35-60 MiB of resident memory for faster first seconds (perf/README.md 12).
   */
  jit_warmup: z.boolean().default(false),
  /**
   * Not in the spec. From the moment the server listens, V8 compiles each function to baseline
   * machine code on its first call (cli/baseline-jit.ts): the first queries after a start run
   * ~30-40 % faster.
   */
  baseline_jit: z.boolean().default(true),
});

export const authSectionSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** `u`/`p` query parameters are honoured only when true (spec default false). */
  allow_query_param_credentials: z.boolean().default(false),
});

export const rateLimitSectionSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Token-bucket capacity and refill per second for /write and /query each; 0 = unlimited. */
  max_requests_per_second: int().nonnegative().default(0),
});

export const statementSummarySectionSchema = z.strictObject({
  enabled: z.boolean().default(true),
  max_entries: int().positive().default(1000),
  require_auth: z.boolean().default(true),
});

/** The root-schema sections this layer owns, keyed by TOML section name. */
export const serverConfigSections = {
  server: serverSectionSchema.prefault({}),
  auth: authSectionSchema.prefault({}),
  rate_limit: rateLimitSectionSchema.prefault({}),
  statement_summary: statementSummarySectionSchema.prefault({}),
};

export type ServerSection = z.output<typeof serverSectionSchema>;
export type AuthSection = z.output<typeof authSectionSchema>;
export type RateLimitSection = z.output<typeof rateLimitSectionSchema>;
export type StatementSummarySection = z.output<typeof statementSummarySectionSchema>;

/** What startServer() needs from the effective configuration. */
export interface ServerOptions {
  readonly server: ServerSection;
  readonly auth: AuthSection;
  readonly rate_limit: RateLimitSection;
  readonly statement_summary: StatementSummarySection;
}

/** Defaults for every server section (tests and library use). */
export function defaultServerOptions(overrides: { server?: Partial<ServerSection> } = {}): ServerOptions {
  return {
    server: serverSectionSchema.parse(overrides.server ?? {}),
    auth: authSectionSchema.parse({}),
    rate_limit: rateLimitSectionSchema.parse({}),
    statement_summary: statementSummarySectionSchema.parse({}),
  };
}
