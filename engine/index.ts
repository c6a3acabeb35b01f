/** Public surface of the storage engine. Other layers import only from here. */
export * from './errors.js';
export * from './point.js';
export * from './logger.js';
export { Engine, type WriteRequest, type EngineState } from './engine.js';
export { cacheMemory, type CacheMemory } from './cache/cache-memory.js';
export type { DeleteRequest } from './write/delete.js';
export { engineOptions, type EngineOptions } from './options.js';
export { BufferRecycler } from './buffer-recycler.js';
export type { FlushObserver } from './flush/flusher.js';
export { Catalog, CatalogError, DEFAULT_RP_NAME, type RetentionPolicySpec } from './meta/catalog.js';
export type {
  CatalogData,
  ContinuousQueryInfo,
  DatabaseInfo,
  MaterializedViewInfo,
  Privilege,
  RetentionPolicyInfo,
  UserInfo,
} from './meta/model.js';
export { addCost, NO_COST, type ReadCost } from './query/read-cost.js';
export type { Shard } from './shard/shard.js';
export { EMPTY_CURSOR, BATCH_SIZE, nextBatch, type Batch, type BatchStats, type Cursor, type CursorRequest } from './query/cursor.js';
export { type TagExpr, TRUE_EXPR, matchesTags, selectSeries, compilePattern } from './series/tag-expr.js';
export { linearMatcher, mayBacktrack, type Matcher } from './series/linear-regex.js';
export type { SeriesIndex, SeriesInfo, CardinalityLimits } from './series/index.js';
export type { MeasurementIndex } from './series/measurement.js';
export type { Database } from './database.js';
export {
  MIN_TIME_NS,
  MAX_TIME_NS,
  NS_PER_SEC,
  defaultShardGroupDurationSec,
  formatGoDuration,
  formatRfc3339,
  fromNs,
  nowTime,
  toNs,
} from './time.js';
export {
  LineProtocolError,
  parseLineProtocol,
  parseToColumns,
  clearKeyCache,
  formatPoint,
  formatFloat,
  escapeFieldKey,
  escapeMeasurement,
  escapeTag,
  makeSeriesKey,
  parseSeriesKey,
  pointName,
  compareBytes,
  type LineError,
  type ParseOptions,
  type ParseResult,
} from './lineprotocol/index.js';
export * from './wal/wal.js';
export { lockDirectory, DirectoryLockedError } from './fs/lock.js';
export type { DirectoryLock } from './fs/lock.js';
/** Block encodings (TSM value formats), exposed for perf/ benchmarks and format tools. */
export * as encoding from './encoding/index.js';
// [ops] disk protection
export { DiskMonitor, diskThresholds, statfsFreeBytes, type DiskMonitorOptions, type FreeSpaceSource } from './disk/monitor.js';
/** Retention enforcement service (`[retention]`): see retention/service.ts. */
export { RetentionService, type RetentionOptions, type RetentionCounters } from './retention/service.js';
/** DROP SHARD: remove one shard as 1.x deletes it (retention/remove-shards.ts). */
export { dropShard } from './retention/remove-shards.js';
/** Whether a shard holds a series, from its indexes (SLIMIT's per-shard tag sets). */
export { shardHoldsSeries } from './shard/shard-holds.js';
export type { WriteListener, WrittenRange } from './write/listeners.js';
export type { WarmupReport } from './write/warmup.js';
export { PartialWriteError } from './write/partial.js';
/** Backup / restore / inspect tools (cli/backup.ts, cli/restore.ts, cli/inspect.ts). */
export * from './backup/index.js';
export { CoalescingRun } from './coalescing-run.js';
export { LruMap } from './lru-map.js';
export { mulberry32 } from './random.js';
