/**
 * One database's storage: its series index (with the persistent series log) and the shard
 * sets of its retention policies. Directory: `<data>/<db>/series.log`, `<data>/<db>/<rp>/<shard>/`.
 */
import { join } from 'node:path';
import type { EngineLogger } from './logger.js';
import { FieldType, type Field, type Point } from './point.js';
import { parseSeriesKey } from './lineprotocol/series-key.js';
import { splitCompositeKey } from './tsm/format.js';
import { SeriesIndex, type CardinalityLimits, type IndexDelta } from './series/index.js';
import { SeriesLog, SERIES_LOG_FILE } from './series/log.js';
import { ShardSet } from './shard/shard-set.js';
import { schemaChanged } from './meta/schema-version.js';

export class Database {
  readonly shardSets = new Map<string, ShardSet>();
  /**
   * Fields with data per retention policy and measurement (1.x keeps field sets per shard, so
   * `SELECT * FROM db.rp.m` only sees that policy's fields). Absent for data written before
   * this was recorded: readers then fall back to the database-wide field set.
   */
  readonly rpFields = new Map<string, Map<string, Set<string>>>();

  private constructor(
    readonly name: string,
    readonly dir: string,
    readonly index: SeriesIndex,
    private readonly log: SeriesLog,
    /**
     * True when the series log was damaged, missing or empty: the index must be completed from
     * the TSM keys (completeFromFiles) once the shards are loaded.
     */
    readonly indexDamaged: boolean,
  ) {}

  static async open(dataDir: string, name: string, limits: CardinalityLimits, logger: EngineLogger): Promise<Database> {
    const dir = join(dataDir, encodeName(name));
    const { log, records, damaged } = await SeriesLog.open(join(dir, SERIES_LOG_FILE), logger);
    const index = new SeriesIndex(limits);
    // In log order, as the live index changed: a series dropped and written again is back
    // (also under its old id, which logs written before ids stopped being reused hold), and a
    // measurement whose last series was dropped loses its fields, as it does live.
    // Logs of those versions also re-add a series to an emptied measurement without its field
    // records (their replay kept the fields): such a series brings back the fields last logged.
    const lastFields = new Map<string, Map<string, FieldType>>();
    for (const r of records) {
      if (r.t === 's') {
        const tags = [];
        for (let i = 0; i + 1 < r.g.length; i += 2) tags.push({ key: r.g[i]!, value: r.g[i + 1]! });
        index.restoreSeries({ id: r.id, key: r.k, measurement: r.m, tags });
        if (index.measurement(r.m)?.fields.size === 0) for (const [f, y] of lastFields.get(r.m) ?? []) index.restoreField(r.m, f, y);
      } else if (r.t === 'f') {
        index.restoreField(r.m, r.f, r.y);
        let fields = lastFields.get(r.m);
        if (!fields) lastFields.set(r.m, (fields = new Map()));
        fields.set(r.f, r.y);
      } else if (r.t === 'd') {
        index.dropSeries(r.ids);
      }
    }
    const db = new Database(name, dir, index, log, damaged || records.length === 0);
    for (const r of records) if (r.t === 'r') db.fieldSet(r.r, r.m).add(r.f);
    return db;
  }

  shardSet(rp: string): ShardSet {
    let s = this.shardSets.get(rp);
    if (!s) {
      s = new ShardSet(this.name, rp, join(this.dir, encodeName(rp)));
      this.shardSets.set(rp, s);
      schemaChanged();
    }
    return s;
  }

  /** Register a point in the index, logging what is new. Call `check` first. */
  register(p: Point): void {
    const delta: IndexDelta = { series: [], fields: [] };
    this.index.register(p, delta);
    this.record(delta);
  }

  private fieldSet(rp: string, measurement: string): Set<string> {
    let byM = this.rpFields.get(rp);
    if (!byM) this.rpFields.set(rp, (byM = new Map()));
    let set = byM.get(measurement);
    if (!set) byM.set(measurement, (set = new Set()));
    return set;
  }

  /**
   * Note the fields a point brings to a retention policy (logged the first time only), and to
   * its shard when that exists already: 1.x creates a point's fields in its shard before it
   * may refuse the point, so a refused point's field is still listed there (shard-fields.ts;
   * accepted points reach the shard's set through its cache as well).
   */
  registerRpFields(rp: string, p: Point): void {
    const shard = this.shardSets.get(rp)?.find(p.sec);
    if (shard) for (const f of p.fields) shard.fields.note(p.measurement, f.key);
    else this.unplacedFields.push({ rp, p });
    const set = this.fieldSet(rp, p.measurement);
    for (const f of p.fields) {
      if (set.has(f.key)) continue;
      set.add(f.key);
      schemaChanged();
      this.log.append({ t: 'r', r: rp, m: p.measurement, f: f.key });
    }
  }

  /**
   * Fields registered for points whose shard did not exist yet. The write creates the shards of
   * its refused points after admission (1.x keeps them) and then calls placeFields; an accepted
   * point's fields reach its new shard through the shard's cache.
   */
  private unplacedFields: { rp: string; p: Point }[] = [];

  placeFields(): void {
    const pending = this.unplacedFields;
    if (pending.length === 0) return;
    this.unplacedFields = [];
    for (const { rp, p } of pending) {
      const shard = this.shardSets.get(rp)?.find(p.sec);
      if (shard) for (const f of p.fields) shard.fields.note(p.measurement, f.key);
    }
  }

  /** Fields of `measurement` with data in `rp`, or undefined when not recorded. */
  fieldsInRp(rp: string, measurement: string): ReadonlySet<string> | undefined {
    return this.rpFields.get(rp)?.get(measurement);
  }

  record(delta: IndexDelta): void {
    for (const f of delta.fields) this.log.append({ t: 'f', m: f.measurement, f: f.field, y: f.type });
    for (const s of delta.series) {
      const g: string[] = [];
      for (const t of s.tags) g.push(t.key, t.value);
      this.log.append({ t: 's', id: s.id, k: s.key, m: s.measurement, g });
    }
  }

  /**
   * Registers (and logs) the series and fields the TSM files hold that the index lacks. A
   * series log cut at a flipped byte otherwise hid every point of the series it lost: queries
   * find series through the index only (seen: one bit flip in series.log after a clean
   * shutdown, and SELECT, SHOW SERIES and SHOW FIELD KEYS answered nothing). A field stored
   * with two types in different shards keeps the first type met; DROP SERIES records the
   * damage took come back for series whose rows the files still hold. Returns the series added.
   */
  async completeFromFiles(): Promise<number> {
    const before = this.index.seriesCount;
    for (const [rp, set] of this.shardSets) {
      for (const shard of set.shards) {
        for (const reader of shard.files?.files() ?? []) {
          for (const key of reader.keys()) {
            const p = pointOfKey(key, reader.type(key));
            if (!p) continue;
            const seriesOnly = { ...p, fields: [] };
            const ok = this.index.check(p) === undefined ? p : this.index.check(seriesOnly) === undefined ? seriesOnly : undefined;
            if (!ok) continue;
            this.register(ok);
            this.registerRpFields(rp, ok);
          }
        }
      }
    }
    await this.syncIndex();
    return this.index.seriesCount - before;
  }

  dropSeries(ids: number[]): void {
    if (ids.length === 0) return;
    this.index.dropSeries(ids);
    this.log.append({ t: 'd', ids });
  }

  /** Make index changes durable (before the WAL that also carries them is truncated). */
  syncIndex(): Promise<void> {
    return this.log.sync();
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

/** A point that carries only a TSM key's series and field (its value is never read). */
function pointOfKey(key: string, type: FieldType | undefined): Point | undefined {
  const split = splitCompositeKey(key);
  if (!split || type === undefined) return undefined;
  let parsed;
  try {
    parsed = parseSeriesKey(split.seriesKey);
  } catch {
    return undefined;
  }
  return { seriesKey: split.seriesKey, measurement: parsed.measurement, tags: parsed.tags, fields: [placeholderField(split.field, type)], sec: 0, nsec: 0 };
}

function placeholderField(key: string, type: FieldType): Field {
  switch (type) {
    case FieldType.Float:
      return { key, type, value: 0 };
    case FieldType.Integer:
    case FieldType.Unsigned:
      return { key, type, value: 0 };
    case FieldType.Boolean:
      return { key, type, value: false };
    case FieldType.String:
      return { key, type, value: '' };
  }
}

/**
 * Database and RP names become directory names: keep them readable but safe (no path
 * separators, no `.`/`..`, no control characters), reversibly.
 */
export function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/\./g, '%2E').replace(/\*/g, '%2A');
}

export function decodeName(dirName: string): string {
  return decodeURIComponent(dirName);
}
