/**
 * The in-memory cache of one shard: series key → field → CacheEntry. Two levels so the
 * write path never concatenates key strings per field. A write is visible to reads as soon
 * as it is applied here (right after its WAL fsync). `bytes` is an O(1) running estimate
 * that drives snapshots.
 */
import type { FieldType } from '../point.js';
import { CacheEntry } from './entry.js';
import { ColumnArena, SLAB_BYTES } from './column-arena.js';

/** Separator between series key and field name in TSM keys (as InfluxDB's tsm1). */
export const FIELD_KEY_SEPARATOR = '#!~#';

export function fieldKey(seriesKey: string, field: string): string {
  return seriesKey + FIELD_KEY_SEPARATOR + field;
}

export function splitFieldKey(key: string): { seriesKey: string; field: string } {
  const i = key.lastIndexOf(FIELD_KEY_SEPARATOR);
  return { seriesKey: key.slice(0, i), field: key.slice(i + FIELD_KEY_SEPARATOR.length) };
}

/** Compare strings by their UTF-8 bytes (the order TSM files keep keys in). */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Largest initial entry capacity taken from a previous cache (rows). */
const MAX_CAPACITY_HINT = 1 << 16;

export class Cache {
  readonly series = new Map<string, Map<string, CacheEntry>>();
  bytes = 0;
  values = 0;
  /** Highest WAL sequence applied to this cache (0n when none). */
  maxSeq = 0n;
  /** Initial rows of a new entry; see `successor`. */
  private readonly entryCapacity: number;
  private entries = 0;
  /** The entries' columns (column-arena.ts): reused by a later cache once this one is released and unpinned. */
  private readonly arena = new ColumnArena();
  private pins = 0;
  private released = false;

  /** Told of each series-field this cache starts holding (its shard keeps the measurement's field set). */
  onNewField: ((measurement: string, field: string) => void) | undefined;

  constructor(entryCapacity = 0, onNewField?: (measurement: string, field: string) => void) {
    this.entryCapacity = entryCapacity;
    this.onNewField = onNewField;
  }

  /** Column memory this cache's arena holds (whole slabs), for the service_cache_column_bytes gauge. */
  get columnBytes(): number {
    return this.arena.slabCount * SLAB_BYTES;
  }

  /**
   * The empty cache that takes over when this one is frozen. Its entries start at this
   * cache's average entry length (plus a quarter): under steady ingest each snapshot holds
   * about as many rows per entry as the one before, so entries are allocated once at about
   * their final size instead of doubling from 8 rows (each doubling allocates and copies both
   * columns; that was ~6 % of the event loop on the cpu bench).
   */
  successor(): Cache {
    const avg = this.entries > 0 ? this.values / this.entries : 0;
    return new Cache(Math.min(MAX_CAPACITY_HINT, Math.ceil(avg * 1.25)), this.onNewField);
  }

  fields(seriesKey: string): Map<string, CacheEntry> {
    let f = this.series.get(seriesKey);
    if (!f) {
      f = new Map();
      this.series.set(seriesKey, f);
      this.bytes += seriesKey.length * 2 + 96;
    }
    return f;
  }

  entry(fields: Map<string, CacheEntry>, field: string, type: FieldType, measurement = ''): CacheEntry {
    let e = fields.get(field);
    if (!e) {
      e = new CacheEntry(type, this.entryCapacity, this.arena);
      this.entries++;
      fields.set(field, e);
      this.bytes += field.length * 2 + 160;
      this.onNewField?.(measurement, field);
    }
    return e;
  }

  /** A reader (a cursor) holds views of this cache's columns until `unpin`. */
  pin(): void {
    this.pins++;
  }

  unpin(): void {
    if (--this.pins === 0 && this.released) this.arena.recycle();
  }

  /**
   * The cache was flushed and dropped from its shard: its columns' memory goes to the next
   * caches as soon as no reader holds it. Nothing may append to or read it afterwards except
   * readers that pinned it before.
   */
  release(): void {
    this.released = true;
    if (this.pins === 0) this.arena.recycle();
  }

  get(seriesKey: string, field: string): CacheEntry | undefined {
    return this.series.get(seriesKey)?.get(field);
  }

  noteAppend(bytes: number): void {
    this.bytes += bytes;
    this.values++;
  }

  /** noteAppend for `values` appends of `bytes` in all. */
  noteAppends(bytes: number, values: number): void {
    this.bytes += bytes;
    this.values += values;
  }

  get isEmpty(): boolean {
    return this.series.size === 0;
  }

  /**
   * Every (TSM key, entry) in TSM key order (UTF-8 byte order of `series#!~#field`). Runs on the
   * event loop at each snapshot: with a UTF-8 copy of every key compared by Buffer.compare it
   * held the loop 30-110 ms per flush of 10,000 series-fields (perf/README.md 27). Keys of
   * ASCII only, the usual case, compare as strings: UTF-16 order is byte order there.
   */
  sortedEntries(): { key: string; entry: CacheEntry }[] {
    const out: { key: string; entry: CacheEntry }[] = [];
    let ascii = true;
    for (const [s, fields] of this.series) {
      for (const [f, entry] of fields) {
        if (entry.length === 0) continue;
        const key = fieldKey(s, f);
        if (ascii && NOT_ASCII.test(key)) ascii = false;
        out.push({ key, entry });
      }
    }
    if (ascii) return out.sort(byCodeUnits);
    const withBytes = out.map((e) => ({ ...e, bytes: Buffer.from(e.key, 'utf8') }));
    withBytes.sort(byBytes);
    return withBytes.map(({ key, entry }) => ({ key, entry }));
  }
}

const NOT_ASCII = /[^\x00-\x7f]/;

function byCodeUnits(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Module-level: a comparator made per call was optimised anew for every snapshot. */
function byBytes(a: { bytes: Buffer }, b: { bytes: Buffer }): number {
  return Buffer.compare(a.bytes, b.bytes);
}
