/**
 * Bounded cache of verified block payloads, shared by all TSM readers of an engine. Eviction is
 * CLOCK (second chance, engine/clock-map.ts).
 *
 * Only payloads whose checksum matched are inserted (TsmReader does that), so a hit never
 * needs re-verification. The bound is in bytes: payload length plus a fixed per-entry
 * overhead for the map entry and key string, so many tiny blocks cannot exceed it either.
 * A payload larger than the whole bound is not cached.
 *
 * Returned payloads are shared between all callers: treat them as read-only.
 * Entries are keyed by a reader's unique `fileId` (not its path: a path can be reused by a new
 * file) and the block offset; `evictFile` drops a closed reader's entries.
 */
import { ClockMap } from '../clock-map.js';

export interface BlockCacheOptions {
  /** Upper bound of `bytes` (default 32 MiB). */
  readonly maxBytes?: number;
}

export interface BlockCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

/** Estimated bytes of a Map entry, its key string and the Uint8Array wrapper. */
export const BLOCK_CACHE_ENTRY_OVERHEAD = 128;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

let nextFileId = 1;

/** A process-unique id for a reader, used as the cache key prefix. */
export function allocateFileId(): number {
  return nextFileId++;
}

export class BlockCache {
  readonly maxBytes: number;
  private readonly map: ClockMap<number | string, Uint8Array>;
  private hits = 0;
  private misses = 0;

  constructor(options: BlockCacheOptions = {}) {
    this.maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_MAX_BYTES);
    this.map = new ClockMap(this.maxBytes);
  }

  get(fileId: number, offset: number): Uint8Array | undefined {
    const hit = this.map.get(cacheKey(fileId, offset));
    if (hit === undefined) this.misses++;
    else this.hits++;
    return hit;
  }

  set(fileId: number, offset: number, payload: Uint8Array): void {
    this.map.set(cacheKey(fileId, offset), payload, payload.length + BLOCK_CACHE_ENTRY_OVERHEAD);
  }

  /** Drops every entry of one file (O(entries); called when a reader closes). */
  evictFile(fileId: number): void {
    const prefix = `${fileId}:`;
    this.map.deleteWhere((key) => (typeof key === 'number' ? Math.floor(key / OFFSET_RANGE) === fileId : key.startsWith(prefix)));
  }

  stats(): BlockCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      evictions: this.map.evictions,
      entries: this.map.size,
      bytes: this.map.usedBytes,
      maxBytes: this.maxBytes,
    };
  }
}

/** Offsets below this share a number key with their file id; the id's bound keeps the key exact. */
const OFFSET_RANGE = 2 ** 32;
const MAX_NUMBER_KEY_FILE_ID = 2 ** 21;

/**
 * A number (file id and offset packed into one exact double) for every block of files under
 * 4 GiB in a process that has opened fewer than two million readers, else a string: hashing a
 * template string built per lookup cost more than the rest of a block cache hit, and a query
 * like lastpoint makes one lookup per series-field.
 */
function cacheKey(fileId: number, offset: number): number | string {
  return offset < OFFSET_RANGE && fileId < MAX_NUMBER_KEY_FILE_ID ? fileId * OFFSET_RANGE + offset : `${fileId}:${offset}`;
}
