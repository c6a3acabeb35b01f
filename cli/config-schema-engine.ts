/**
 * Engine-side configuration sections: [storage], [flush], [chdb], [cardinality], [retention],
 * [disk] (service-spec "Configuration keys and defaults"; decisions.md "[chdb] section").
 * Kept in cli/ until the engine exports its own sub-schema from engine/index.ts; then this file
 * shrinks to a re-export. Clamps and derived values are applied in config-resolve.ts, so the
 * schema itself only validates and fills spec defaults.
 */
import { z } from 'zod';
import { parseDurationMs } from './duration.js';

const int = () => z.number().int();

export const storageSectionSchema = z.strictObject({
  wal_dir: z.string().min(1).default('./wal'),
  meta_dir: z.string().min(1).default('./meta'),
  wal_format: z.enum(['bincode', 'arrow_ipc']).default('bincode'),
  /** Not a spec key: decoded TSM blocks kept for queries (0 = none). */
  block_cache_bytes: int().nonnegative().default(32 * 1024 * 1024),
  /**
   * Not a spec key: a shard with no flush for this long is cold and gets a full compaction,
   * which also purges deleted rows (influxd's compact-full-write-cold-duration).
   */
  compact_full_write_cold_duration: z
    .string()
    .default('4h')
    .refine((text) => (parseDurationMs(text) ?? 0) > 0, {
      message: 'expected a positive duration such as "30s", "5m" or "4h"',
    }),
});

export const flushSectionSchema = z.strictObject({
  interval_secs: int().positive().default(10),
  /** Clamped to 10,000..500,000; 0 means the default (config-resolve.ts). */
  max_points_per_batch: int().nonnegative().default(50_000),
  /** Group-commit entries; 0 disables group commit. */
  wal_batch_size: int().nonnegative().default(64),
  wal_batch_delay_us: int().nonnegative().default(200),
  /** In-memory columnar WAL cache (our memtable). */
  arrow_wal_enabled: z.boolean().default(true),
  /**
   * Not a spec key: the caches are frozen and written to TSM once they hold this many bytes
   * (influxd's cache-snapshot-memory-size). Below influxd's 25 MB and the engine's own default
   * (64 MiB): a writer's peak RSS is mostly the active cache plus the snapshot being written.
   */
  cache_snapshot_bytes: int()
    .min(1024 * 1024)
    .default(8 * 1024 * 1024),
});

export const chdbSectionSchema = z.strictObject({
  /** The engine's data directory (TSM files, index, tombstones). */
  session_data_path: z.string().min(1).default('./chdb_data'),
  /** Clamped 1..128 (config-resolve.ts). */
  query_pool_size: int().default(4),
  write_pool_size: int().default(4),
  /** Deprecated: applies to both pools when non-zero and they are not set explicitly. */
  pool_size: int().nonnegative().default(0),
  schema_cache_max_entries: int().positive().default(10_000),
  insert_max_threads: int().positive().default(4),
  insert_min_insert_block_size_rows: int().nonnegative().default(0),
  insert_max_insert_block_size: int().nonnegative().default(0),
  /** Absent = linked to cardinality.max_tag_values_per_measurement (config-resolve.ts). */
  tag_low_cardinality_max: int().nonnegative().optional(),
});

export const cardinalitySectionSchema = z.strictObject({
  max_tag_values_per_measurement: int().positive().default(100_000),
  max_measurements_per_database: int().positive().default(10_000),
});

export const retentionSectionSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Duration text (`5m`, `1h`, `12h`); the loop period. */
  interval: z
    .string()
    .default('12h')
    .refine((text) => (parseDurationMs(text) ?? 0) > 0, {
      message: 'expected a positive duration such as "5m", "1h" or "12h"',
    }),
});

export const diskSectionSchema = z.strictObject({
  enabled: z.boolean().default(true),
  check_interval_secs: int().positive().default(60),
  warn_threshold_mb: int().nonnegative().default(1024),
  readonly_threshold_mb: int().nonnegative().default(256),
});

export const engineConfigSections = {
  storage: storageSectionSchema.prefault({}),
  flush: flushSectionSchema.prefault({}),
  chdb: chdbSectionSchema.prefault({}),
  cardinality: cardinalitySectionSchema.prefault({}),
  retention: retentionSectionSchema.prefault({}),
  disk: diskSectionSchema.prefault({}),
};
