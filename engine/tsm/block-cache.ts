/**
 * Bounded cache of verified block payloads, shared by all TSM readers of an engine. Eviction is
 * CLOCK (second chance), an approximation of LRU: a hit only marks its entry used; eviction
 * walks from the oldest entry, moves used ones to the back with the mark cleared and drops the
 * first unused one. A true LRU moved the entry on every hit (Map delete + set), which once the
 * map held every block of the data set (after one scan) cost ~5 % of a small query's CPU.
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
  /** Map iteration order is insertion order: the first entry is the next the clock hand looks at. */
  private readonly map = new Map<string, { readonly payload: Uint8Array; used: boolean }>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(options: BlockCacheOptions = {}) {
    this.maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_MAX_BYTES);
  }

  get(fileId: number, offset: number): Uint8Array | undefined {
    const key = cacheKey(fileId, offset);
    const hit = this.map.get(key);
    if (hit === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    hit.used = true;
    return hit.payload;
  }

  set(fileId: number, offset: number, payload: Uint8Array): void {
    const key = cacheKey(fileId, offset);
    const cost = payload.length + BLOCK_CACHE_ENTRY_OVERHEAD;
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.bytes -= old.payload.length + BLOCK_CACHE_ENTRY_OVERHEAD;
    }
    if (cost > this.maxBytes) return;
    while (this.bytes + cost > this.maxBytes) this.evictOne();
    this.map.set(key, { payload, used: false });
    this.bytes += cost;
  }

  /** Drops every entry of one file (O(entries); called when a reader closes). */
  evictFile(fileId: number): void {
    const prefix = `${fileId}:`;
    for (const [key, entry] of this.map) {
      if (key.startsWith(prefix)) {
        this.map.delete(key);
        this.bytes -= entry.payload.length + BLOCK_CACHE_ENTRY_OVERHEAD;
      }
    }
  }

  stats(): BlockCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      entries: this.map.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
    };
  }

  /** Drops the first entry not used since the clock hand last passed it (ends within two rounds). */
  private evictOne(): void {
    for (;;) {
      const oldest = this.map.entries().next();
      if (oldest.done) return;
      const [key, entry] = oldest.value;
      this.map.delete(key);
      if (entry.used) {
        entry.used = false;
        this.map.set(key, entry);
        continue;
      }
      this.bytes -= entry.payload.length + BLOCK_CACHE_ENTRY_OVERHEAD;
      this.evictions++;
      return;
    }
  }
}

function cacheKey(fileId: number, offset: number): string {
  return `${fileId}:${offset}`;
}
