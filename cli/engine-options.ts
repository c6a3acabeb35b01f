/** Map the configuration's engine sections onto EngineOptions (read once, passed down). */
import { availableParallelism } from 'node:os';
import { engineOptions, type EngineOptions } from '../engine/index.js';
import type { Config } from './config.js';
import { parseDurationMs } from './duration.js';
import type { Logger } from './logger.js';

export function engineOptionsFromConfig(config: Config, logger: Logger): EngineOptions {
  return engineOptions({
    walDir: config.storage.wal_dir,
    metaDir: config.storage.meta_dir,
    dataDir: config.chdb.session_data_path,
    wal: { segmentSizeBytes: 16 * 1024 * 1024, batchSize: config.flush.wal_batch_size, batchDelayUs: config.flush.wal_batch_delay_us },
    flushIntervalSec: config.flush.interval_secs,
    cardinality: {
      maxTagValuesPerMeasurement: config.cardinality.max_tag_values_per_measurement,
      maxMeasurementsPerDatabase: config.cardinality.max_measurements_per_database,
    },
    logger,
    rejectWritesBeyondRetention: true,
    // The event loop keeps a core (WAL, cache, HTTP); parse threads beyond the rest only switch.
    parseWorkers: Math.min(config.chdb.write_pool_size, Math.max(1, availableParallelism() - 1)),
    // Snapshot encoding in a thread of its own: the worker reads the frozen cache in its shared
    // slabs (no snapshot copies), so on two cores it costs little memory and uses the time the
    // parse worker and the event loop leave idle while requests wait for fsync (perf/README.md,
    // session 7). On one core it would only compete with the event loop.
    flushWorker: availableParallelism() > 1,
    // [flush] cache_snapshot_bytes (8 MiB default, config-schema-engine.ts) and [storage] block_cache_bytes.
    cacheSnapshotBytes: config.flush.cache_snapshot_bytes,
    blockCacheBytes: config.storage.block_cache_bytes,
    // [storage] compact_full_write_cold_duration (validated positive by the schema).
    compaction: {
      intervalMs: 1000,
      coldAfterMs: parseDurationMs(config.storage.compact_full_write_cold_duration) ?? 4 * 3600 * 1000,
      maxFileBytes: 256 * 1024 * 1024,
    },
  });
}
