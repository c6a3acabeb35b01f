/**
 * The in-memory cache of one shard: series-field key → CacheEntry. A write is visible to
 * reads as soon as it is applied here (right after its WAL fsync). `bytes` is an O(1)
 * running estimate that drives snapshots.
 */
import type { FieldType } from '../point.js';
import { CacheEntry } from './entry.js';

/** Separator between series key and field name in cache and TSM keys (as InfluxDB's tsm1). */
export const FIELD_KEY_SEPARATOR = '#!~#';

export function fieldKey(seriesKey: string, field: string): string {
  return seriesKey + FIELD_KEY_SEPARATOR + field;
}

export function splitFieldKey(key: string): { seriesKey: string; field: string } {
  const i = key.lastIndexOf(FIELD_KEY_SEPARATOR);
  return { seriesKey: key.slice(0, i), field: key.slice(i + FIELD_KEY_SEPARATOR.length) };
}

export class Cache {
  readonly entries = new Map<string, CacheEntry>();
  bytes = 0;
  values = 0;
  /** Highest WAL sequence applied to this cache (0n when none). */
  maxSeq = 0n;

  entry(key: string, type: FieldType): CacheEntry {
    let e = this.entries.get(key);
    if (!e) {
      e = new CacheEntry(type);
      this.entries.set(key, e);
      this.bytes += key.length * 2 + 96;
    }
    return e;
  }

  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  noteAppend(bytes: number): void {
    this.bytes += bytes;
    this.values++;
  }

  get isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** Keys in byte order, as TSM files need them. */
  sortedKeys(): string[] {
    return [...this.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
