/**
 * Where a cache's columns live: carved out of 1 MiB slabs that are reused from one cache to the
 * next once a frozen cache has been flushed and nothing reads it any more.
 *
 * Why: every ArrayBuffer the event loop allocates is counted by V8 as external memory, and that
 * count eats into the old generation's allocation limit. Under steady ingest the caches'
 * columns were most of it (~55 bytes per sensor line, allocated afresh for every snapshot),
 * and each time the count crossed the limit V8 marked the whole heap: a mark-compact every few
 * hundred milliseconds, a fifth of the server's CPU (perf/README.md, session 7). Slabs taken
 * from the pool are not allocations, so they count nothing.
 *
 * Safety: a slab goes back to the pool only through `recycle`, which the cache calls when it
 * was released after its flush and no cursor holds it (Cache.pin). Memory carved from a slab is
 * never zeroed: entries write each row before they read it. Columns too large for a slab get
 * their own buffer and are left to the GC.
 *
 * Slabs are SharedArrayBuffers so that the flush worker (flush/flush-worker-pool.ts) reads a
 * frozen cache's columns where they are instead of getting copies: the cache is released, and
 * its slabs reused, only after the worker answered. The pool keeps at most POOL_SLABS (what one
 * snapshot of the default size needs) and is emptied by `trimColumnPool` when ingest goes quiet,
 * so an idle edge device does not hold it.
 */
import { objectArray } from '../object-array.js';

export const SLAB_BYTES = 1 << 20;
/** A column larger than this gets its own buffer (a slab would waste too much around it). */
const LARGEST_CARVED = SLAB_BYTES >> 2;
const POOL_SLABS = 16;

const pool: SharedArrayBuffer[] = objectArray();

export interface ColumnMemory {
  float64(n: number): Float64Array;
  bytes(n: number): Uint8Array;
  int64(n: number): BigInt64Array;
  uint64(n: number): BigUint64Array;
}

/** Plain allocation (tests, and anything without a cache around it). */
export const OWN_BUFFERS: ColumnMemory = {
  float64: (n) => new Float64Array(n),
  bytes: (n) => new Uint8Array(n),
  int64: (n) => new BigInt64Array(n),
  uint64: (n) => new BigUint64Array(n),
};

export class ColumnArena implements ColumnMemory {
  private readonly slabs: SharedArrayBuffer[] = objectArray();
  private slab: SharedArrayBuffer | undefined;
  private used = 0;

  float64(n: number): Float64Array {
    return this.carve(Float64Array, n);
  }

  bytes(n: number): Uint8Array {
    return this.carve(Uint8Array, n);
  }

  int64(n: number): BigInt64Array {
    return this.carve(BigInt64Array, n);
  }

  uint64(n: number): BigUint64Array {
    return this.carve(BigUint64Array, n);
  }

  /** Slabs in use (for tests and stats). */
  get slabCount(): number {
    return this.slabs.length;
  }

  /**
   * Give every slab back to the pool. Only when no view into this arena is read again: the
   * next cache overwrites the memory.
   */
  recycle(): void {
    for (const s of this.slabs) if (pool.length < POOL_SLABS) pool.push(s);
    this.slabs.length = 0;
    this.slab = undefined;
    this.used = 0;
  }

  /** `n` elements carved from the current slab (a new one when it is full), or a buffer of their own when large. */
  private carve<T>(Ctor: { new (n: number): T; new (b: ArrayBufferLike, offset: number, n: number): T; readonly BYTES_PER_ELEMENT: number }, n: number): T {
    const bytes = n * Ctor.BYTES_PER_ELEMENT;
    if (bytes > LARGEST_CARVED) return new Ctor(n);
    const size = (bytes + 7) & ~7;
    if (!this.slab || this.used + size > SLAB_BYTES) {
      this.slab = pool.pop() ?? new SharedArrayBuffer(SLAB_BYTES);
      this.slabs.push(this.slab);
      this.used = 0;
    }
    const offset = this.used;
    this.used += size;
    return new Ctor(this.slab, offset, n);
  }
}

/** Let the pooled slabs go (the flush service calls this when a flush found nothing to do). */
export function trimColumnPool(): void {
  pool.length = 0;
}

/** Slabs waiting in the pool (for tests). */
export function pooledSlabs(): number {
  return pool.length;
}
