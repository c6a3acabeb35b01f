/**
 * The caches' memory, for operators sizing the snapshot size (`cacheSnapshotBytes`,
 * `[flush] cache_snapshot_bytes`; perf/README.md, section 25c), read at scrape time.
 */
import type { Shard } from '../shard/shard.js';
import { pooledSlabs, SLAB_BYTES } from './column-arena.js';

export interface CacheMemory {
  /** Active and frozen caches, as the snapshot size counts them (16 bytes a numeric value, plus keys). */
  readonly cachedBytes: number;
  /** Shared column slabs the caches hold or keep for the next ones (column-arena.ts). */
  readonly columnBytes: number;
}

export function cacheMemory(shards: Iterable<Shard>): CacheMemory {
  let cachedBytes = 0;
  let columnBytes = pooledSlabs() * SLAB_BYTES;
  for (const shard of shards) {
    cachedBytes += shard.cacheBytes;
    for (const cache of shard.caches()) columnBytes += cache.columnBytes;
  }
  return { cachedBytes, columnBytes };
}
