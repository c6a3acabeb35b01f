/**
 * The fields each measurement has data for in one shard: 1.x keeps a field set per shard, so
 * `SELECT *`, `count(*)` and the like list only the fields of the shards their time range
 * meets (a field dropped from a schema last month is not a column of today's rows).
 *
 * The set grows as the shard's caches take their first value of a series-field (Cache
 * onNewField), including during WAL replay, and is written to `fields.json` in the shard's
 * directory before each flush writes TSM files, so a published file's fields are always in it.
 * A shard whose files predate this record (TSM files, no `fields.json`) or whose record cannot
 * be read rebuilds its set at load from its TSM files' keys (`series#!~#field`: the index is in
 * memory already) and writes the record, once (perf/README.md section 25: ~0.7 µs per key).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptionError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import type { EngineLogger } from '../logger.js';
import { schemaChanged } from '../meta/schema-version.js';
import { escapedMeasurementOf, measurementOfEscaped } from '../lineprotocol/series-key.js';
import { splitCompositeKey } from '../tsm/format.js';

/** What a rebuild reads of a shard's TSM files: their keys, in key order. */
export interface KeyedFile {
  keys(): Iterable<string>;
}

export const SHARD_FIELDS_FILE = 'fields.json';

interface FieldsFile {
  readonly version: 1;
  readonly measurements: Record<string, string[]>;
}

export class ShardFields {
  private readonly byMeasurement = new Map<string, Set<string>>();
  private dirty = false;

  /** A series-field took its first value in this shard's cache. */
  note(measurement: string, field: string): void {
    let set = this.byMeasurement.get(measurement);
    if (!set) this.byMeasurement.set(measurement, (set = new Set()));
    if (set.has(field)) return;
    set.add(field);
    this.dirty = true;
    // Compiled plans listed the shard's fields without this one.
    schemaChanged();
  }

  /** The measurement's fields with data here. */
  of(measurement: string): ReadonlySet<string> {
    return this.byMeasurement.get(measurement) ?? EMPTY;
  }

  /** DROP MEASUREMENT: its fields go with it (1.x drops the shard's measurement fields). */
  drop(measurement: string): void {
    if (this.byMeasurement.delete(measurement)) {
      this.dirty = true;
      schemaChanged();
    }
  }

  /** Write `fields.json` when the set changed since the last save. */
  async save(dir: string): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const file: FieldsFile = { version: 1, measurements: Object.fromEntries([...this.byMeasurement].map(([m, s]) => [m, [...s].sort()])) };
    try {
      await writeFileAtomic(join(dir, SHARD_FIELDS_FILE), JSON.stringify(file));
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /** The set of a shard opened from disk, holding TSM `files`. */
  static async load(dir: string, files: readonly KeyedFile[], logger: EngineLogger): Promise<ShardFields> {
    let text: string;
    try {
      text = await readFile(join(dir, SHARD_FIELDS_FILE), 'utf8');
    } catch (err) {
      // No record: a shard without files starts empty; one with files predates the record.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn({ dir, err }, 'shard field set unreadable; rebuilding it from the TSM files');
      return ShardFields.rebuilt(dir, files, logger);
    }
    try {
      const parsed = JSON.parse(text) as FieldsFile;
      if (parsed.version !== 1 || typeof parsed.measurements !== 'object' || parsed.measurements === null) throw new CorruptionError(SHARD_FIELDS_FILE, 0, 'unknown layout');
      const out = new ShardFields();
      for (const [m, fields] of Object.entries(parsed.measurements)) {
        if (!Array.isArray(fields)) throw new CorruptionError(SHARD_FIELDS_FILE, 0, `fields of ${m} are not a list`);
        out.byMeasurement.set(m, new Set(fields.map(String)));
      }
      return out;
    } catch (err) {
      logger.warn({ dir, err }, 'shard field set damaged; rebuilding it from the TSM files');
      return ShardFields.rebuilt(dir, files, logger);
    }
  }

  /**
   * The set of the measurements and fields keyed in `files`, written to the shard's record. A
   * file's keys come sorted, so the keys of one series, and mostly of one measurement, are
   * neighbours: the measurement is unescaped once per run of keys that share it.
   */
  private static async rebuilt(dir: string, files: readonly KeyedFile[], logger: EngineLogger): Promise<ShardFields> {
    const out = new ShardFields();
    if (files.length === 0) return out;
    for (const file of files) {
      let escaped = '';
      let set: Set<string> | undefined;
      for (const key of file.keys()) {
        const split = splitCompositeKey(key);
        if (!split) continue;
        const head = escapedMeasurementOf(split.seriesKey);
        if (!set || head !== escaped) {
          escaped = head;
          const m = measurementOfEscaped(escaped);
          set = out.byMeasurement.get(m);
          if (!set) out.byMeasurement.set(m, (set = new Set()));
        }
        set.add(split.field);
      }
    }
    out.dirty = true;
    try {
      await out.save(dir);
    } catch (err) {
      // Still right in memory; the next start rebuilds it again.
      logger.warn({ dir, err }, 'cannot write the rebuilt shard field set');
    }
    return out;
  }
}

const EMPTY: ReadonlySet<string> = new Set();
