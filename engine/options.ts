/**
 * Engine options with defaults. The configuration layer (cli/config.ts) maps the spec's
 * [storage], [flush], [chdb] and [cardinality] keys onto this and passes it in once.
 */
import type { EngineLogger } from './logger.js';
import { silentLogger } from './logger.js';
import type { CardinalityLimits } from './series/index.js';

export interface EngineOptions {
  readonly walDir: string;
  readonly metaDir: string;
  /** The engine's data directory (TSM files, series logs, tombstones): `[chdb] session_data_path`. */
  readonly dataDir: string;
  readonly wal: {
    readonly segmentSizeBytes: number;
    /** flush.wal_batch_size: entries per group commit; 0 = one fdatasync per append. */
    readonly batchSize: number;
    /** flush.wal_batch_delay_us */
    readonly batchDelayUs: number;
  };
  /** A shard cache is frozen and written to TSM once it holds this many bytes. */
  readonly cacheSnapshotBytes: number;
  /** flush.interval_secs: every cache is flushed and the WAL truncated this often (0 = only by size). */
  readonly flushIntervalSec: number;
  /** Values per TSM block. */
  readonly maxPointsPerBlock: number;
  readonly blockCacheBytes: number;
  /** Compaction service: round interval, when a shard counts as cold, output file size cap. */
  readonly compaction: { readonly intervalMs: number; readonly coldAfterMs: number; readonly maxFileBytes: number };
  readonly cardinality: CardinalityLimits;
  /**
   * Refuse points older than their retention policy keeps, as 1.x does (`points beyond
   * retention policy`). The server enables it; off by default for tools and tests that load
   * historical data into finite policies.
   */
  readonly rejectWritesBeyondRetention: boolean;
  readonly logger: EngineLogger;
  /** Worker threads parsing write bodies beside the event loop; 0 = parse on it (the default for tools and tests). */
  readonly parseWorkers: number;
  /** Encode flushed snapshots into TSM files in a worker thread (off for tools and tests: on the event loop). */
  readonly flushWorker: boolean;
}

export function engineOptions(o: Partial<EngineOptions> & Pick<EngineOptions, 'walDir' | 'metaDir' | 'dataDir'>): EngineOptions {
  return {
    wal: { segmentSizeBytes: 16 * 1024 * 1024, batchSize: 64, batchDelayUs: 200 },
    cacheSnapshotBytes: 64 * 1024 * 1024,
    flushIntervalSec: 10,
    maxPointsPerBlock: 1000,
    blockCacheBytes: 32 * 1024 * 1024,
    compaction: { intervalMs: 1000, coldAfterMs: 4 * 3600 * 1000, maxFileBytes: 256 * 1024 * 1024 },
    cardinality: { maxTagValuesPerMeasurement: 100_000, maxMeasurementsPerDatabase: 10_000 },
    logger: silentLogger,
    rejectWritesBeyondRetention: false,
    parseWorkers: 0,
    flushWorker: false,
    ...o,
  };
}
