/**
 * Derived and clamped configuration values (service-spec "Configuration keys and defaults"),
 * applied after schema validation because they depend on other keys or on whether a key was
 * set at all:
 * - flush.max_points_per_batch: 0 → 50,000; otherwise clamped to 10,000..500,000;
 * - chdb.query_pool_size / write_pool_size: legacy chdb.pool_size fills the ones not set
 *   explicitly when it is non-zero; both clamped to 1..128;
 * - chdb.tag_low_cardinality_max: absent → cardinality.max_tag_values_per_measurement;
 * - cluster.replicate_body_limit_bytes: 0 → max(4 × coalesce cap, server.max_body_size_bytes),
 *   an explicit value below the coalesce cap is an error;
 * - consistency checks: TLS files named when TLS is on; sharding needs cluster mode.
 * Clamping warns, so a surprising effective value is visible in the start-up log.
 */
import type { ParsedConfig, ResolvedConfig } from './config-schema.js';

export interface Resolution {
  readonly config: ResolvedConfig;
  readonly warnings: string[];
  readonly problems: string[];
}

const MAX_POINTS_DEFAULT = 50_000;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function resolveConfig(parsed: ParsedConfig, describe: (path: string) => string | undefined): Resolution {
  const warnings: string[] = [];
  const problems: string[] = [];
  const from = (path: string): string => {
    const source = describe(path);
    return source ? ` (from ${source})` : '';
  };
  const clamped = (path: string, value: number, min: number, max: number): number => {
    const result = clamp(value, min, max);
    if (result !== value) warnings.push(`${path} = ${value}${from(path)} is outside ${min}..${max}; using ${result}`);
    return result;
  };

  const { flush, chdb, cluster, server, cardinality } = parsed;
  const maxPoints =
    flush.max_points_per_batch === 0
      ? MAX_POINTS_DEFAULT
      : clamped('flush.max_points_per_batch', flush.max_points_per_batch, 10_000, 500_000);

  let queryPool = chdb.query_pool_size;
  let writePool = chdb.write_pool_size;
  if (chdb.pool_size !== 0) {
    if (describe('chdb.query_pool_size') === undefined) queryPool = chdb.pool_size;
    if (describe('chdb.write_pool_size') === undefined) writePool = chdb.pool_size;
  }
  const poolPath = (key: string) => (describe(`chdb.${key}`) === undefined && chdb.pool_size !== 0 ? 'chdb.pool_size' : `chdb.${key}`);
  queryPool = clamped(poolPath('query_pool_size'), queryPool, 1, 128);
  writePool = clamped(poolPath('write_pool_size'), writePool, 1, 128);

  const coalesce = cluster.replication_max_coalesce_body_bytes;
  let replicateLimit = cluster.replicate_body_limit_bytes;
  if (replicateLimit === 0) {
    replicateLimit = Math.max(4 * coalesce, server.max_body_size_bytes);
  } else if (replicateLimit < coalesce) {
    problems.push(
      `cluster.replicate_body_limit_bytes = ${replicateLimit}${from('cluster.replicate_body_limit_bytes')} ` +
        `must be at least cluster.replication_max_coalesce_body_bytes (${coalesce})`,
    );
  }

  if (server.tls_enabled) {
    for (const key of ['tls_cert_path', 'tls_key_path'] as const) {
      if (server[key] === '') problems.push(`server.tls_enabled is true${from('server.tls_enabled')} but server.${key} is empty`);
    }
  }
  if (parsed.sharding.enabled && !cluster.enabled) {
    problems.push(`sharding.enabled${from('sharding.enabled')} requires cluster.enabled = true`);
  }

  const config: ResolvedConfig = {
    ...parsed,
    flush: { ...flush, max_points_per_batch: maxPoints },
    chdb: {
      ...chdb,
      query_pool_size: queryPool,
      write_pool_size: writePool,
      tag_low_cardinality_max: chdb.tag_low_cardinality_max ?? cardinality.max_tag_values_per_measurement,
    },
    cluster: { ...cluster, replicate_body_limit_bytes: replicateLimit },
  };
  return { config, warnings, problems };
}
