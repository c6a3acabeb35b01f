/** MeasurementSource over stored data: the database's series index and engine cursors. */
import { selectSeries, type Cursor, type Database, type Engine, type FieldType, type MeasurementIndex, type TagExpr } from '../../engine/index.js';
import type { MeasurementSource, SeriesRef } from './source.js';

/**
 * The fields of `m` written into retention policy `rp` (1.x keeps a field set per shard: it
 * outlives DELETE and DROP SERIES while the measurement has series, as the record does here).
 * A source with a time range narrows them to the fields of the shards it meets.
 */
export function policyFields(db: Database | undefined, rp: string, m: MeasurementIndex): ReadonlyMap<string, FieldType> {
  const inRp = db?.fieldsInRp(rp, m.name);
  // No record for this policy: it holds no data of the measurement, unless the database
  // predates per-policy field records (none at all), where every field is assumed.
  if (!inRp) return db && db.rpFields.size > 0 ? new Map() : m.fields;
  const out = new Map<string, FieldType>();
  for (const [k, t] of m.fields) if (inRp.has(k)) out.set(k, t);
  return out;
}

export class EngineSource implements MeasurementSource {
  constructor(
    private readonly engine: Engine,
    readonly db: string,
    readonly rp: string,
    private readonly m: MeasurementIndex,
    /** The statement's time range: only fields with data in its shards are the measurement's (1.x). */
    private readonly range?: { readonly min: bigint; readonly max: bigint },
  ) {}

  get name(): string {
    return this.m.name;
  }

  /** The measurement's fields that have data in this retention policy (1.x: per shard). */
  private fields: ReadonlyMap<string, FieldType> | undefined;

  fieldTypes(): ReadonlyMap<string, FieldType> {
    return (this.fields ??= this.computeFields());
  }

  private computeFields(): ReadonlyMap<string, FieldType> {
    const inRp = policyFields(this.engine.openedDatabase(this.db), this.rp, this.m);
    const inRange = this.range && this.engine.fieldsInRange(this.db, this.rp, this.m.name, this.range.min, this.range.max);
    if (!inRange) return inRp;
    const out = new Map<string, FieldType>();
    for (const [k, t] of inRp) if (inRange.has(k)) out.set(k, t);
    return out;
  }

  tagKeys(): readonly string[] {
    return this.m.tagKeys();
  }

  series(expr: TagExpr): readonly SeriesRef[] {
    const index = this.engine.openedDatabase(this.db)?.index;
    if (!index) return [];
    const out: SeriesRef[] = [];
    for (const id of selectSeries(this.m, expr)) {
      const s = index.seriesById(id);
      if (!s) continue;
      const tags: Record<string, string> = {};
      for (const t of s.tags) tags[t.key] = t.value;
      out.push({ key: s.key, tags });
    }
    out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return out;
  }

  shardRanges(minNs: bigint, maxNs: bigint): { min: bigint; max: bigint }[] {
    const shards = this.engine.shardsOverlapping(this.db, this.rp, minNs, maxNs);
    const out = shards.map((s) => ({ min: s.baseNs > minNs ? s.baseNs : minNs, max: s.endNs - 1n < maxNs ? s.endNs - 1n : maxNs }));
    return out.sort((a, b) => (a.min < b.min ? -1 : a.min > b.min ? 1 : 0));
  }

  cursor(series: SeriesRef, field: string, minNs: bigint, maxNs: bigint, ascending: boolean): Cursor {
    return this.engine.cursor({
      db: this.db,
      rp: this.rp,
      measurement: this.m.name,
      seriesKey: series.key,
      field,
      startNs: minNs,
      endNs: maxNs,
      ascending,
      ...(series.shardStarts && { shardStarts: series.shardStarts }),
    });
  }
}
