/**
 * Admission of parsed points into a database's index before they are logged: field types,
 * cardinality limits, retention cut-off, with 1.x's rules for what a batch keeps and refuses.
 */
import type { Database } from '../database.js';
import { BatchFieldTypeConflictError, CardinalityLimitError } from '../errors.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { FieldType, Point } from '../point.js';
import type { Rejection } from './partial.js';
import type { LineError, RefusedSeries } from '../lineprotocol/parse.js';

export interface Admission {
  readonly accepted: Point[];
  readonly rejected: Rejection[];
  /** Times (s) of the series indexed without a point: their shards exist in 1.x. */
  readonly indexedOnly: number[];
}

/**
 * Register what is new and keep the points the index accepts; refused ones carry their 1.x
 * reason. `refusedSeries` are the series of lines the parser refused for having only fields
 * named `time`: 1.x indexes every series of a batch before it checks the fields, so those
 * series, and those of points refused for a field type conflict, stay in the index (SHOW
 * SERIES, tag keys and values) without data.
 */
export function admitPoints(db: Database, rpName: string, points: readonly Point[], refusedSeries: readonly RefusedSeries[] = []): Admission {
  const indexedOnly: number[] = [];
  for (const s of refusedSeries) if (indexSeriesOnly(db, s)) indexedOnly.push(s.sec);
  checkNewFieldTypes(db, points);
  const accepted: Point[] = [];
  const rejected: Rejection[] = [];
  for (const p of points) {
    const err = db.index.check(p);
    if (err) {
      const cardinality = err instanceof CardinalityLimitError;
      rejected.push({ reason: err.message, cardinality });
      if (!cardinality && indexSeriesOnly(db, p)) indexedOnly.push(p.sec);
    } else {
      db.register(p);
      db.registerRpFields(rpName, p);
      accepted.push(p);
    }
  }
  return { accepted, rejected, indexedOnly };
}

/**
 * The lines the parser refused (a `time` tag, only `time` fields) as the rejections 1.x's
 * shard makes of them, and the series 1.x still indexes.
 */
export function refusalsOf(errors: readonly LineError[]): { rejected: Rejection[]; series: RefusedSeries[] } {
  const rejected: Rejection[] = [];
  const series: RefusedSeries[] = [];
  for (const e of errors) {
    if (e.refused === undefined) continue;
    rejected.push(e.refused === 'time-tag' ? { reason: e.reason, cardinality: false, stage: 'time-tag' } : { reason: e.reason, cardinality: false });
    if (e.series !== undefined) series.push(e.series);
  }
  return { rejected, series };
}

/** The series of a point that is not stored, when the index has room for it. */
function indexSeriesOnly(db: Database, s: Omit<RefusedSeries, 'sec'>): boolean {
  const bare: Point = { seriesKey: s.seriesKey, measurement: s.measurement, tags: s.tags, fields: [], sec: 0, nsec: 0 };
  if (db.index.check(bare) !== undefined) return false;
  db.register(bare);
  return true;
}

/**
 * 1.x refuses points older than the retention policy keeps (`points beyond retention policy`):
 * they would be deleted by the next retention pass anyway.
 */
export function dropExpired(rp: RetentionPolicyInfo, points: readonly Point[], nowSec: number): { points: readonly Point[]; rejected: Rejection[] } {
  if (rp.durationSec === 0) return { points, rejected: [] };
  const cutoff = nowSec - rp.durationSec;
  if (!points.some((p) => p.sec < cutoff)) return { points, rejected: [] };
  const kept: Point[] = [];
  const rejected: Rejection[] = [];
  for (const p of points) {
    if (p.sec < cutoff) rejected.push({ reason: 'points beyond retention policy', cardinality: false, stage: 'retention' });
    else kept.push(p);
  }
  return { points: kept, rejected };
}

/**
 * 1.x creates a batch's series and new fields before writing its points, field by field in
 * point order: when a new field shows up with a second type, the fields created before it and
 * every series stay in the index, and the whole batch fails with nothing stored.
 */
function checkNewFieldTypes(db: Database, points: readonly Point[]): void {
  let seen: Map<string, FieldType> | undefined;
  for (const [i, p] of points.entries()) {
    for (const [j, f] of p.fields.entries()) {
      if (db.index.fieldType(p.measurement, f.key) !== undefined) continue;
      seen ??= new Map();
      const key = `${p.measurement}\u0000${f.key}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, f.type);
      else if (first !== f.type) {
        registerUpTo(db, points, i, j);
        throw new BatchFieldTypeConflictError();
      }
    }
  }
}

/** Every series of the batch, with the new fields met before field `j` of point `i`. */
function registerUpTo(db: Database, points: readonly Point[], i: number, j: number): void {
  const created = new Set<string>();
  points.forEach((p, pi) => {
    const fields = p.fields.filter((f, fi) => {
      const key = `${p.measurement}\u0000${f.key}`;
      if (pi > i || (pi === i && fi >= j)) return created.has(key) && db.index.fieldType(p.measurement, f.key) === f.type;
      created.add(key);
      return db.index.fieldType(p.measurement, f.key) === undefined || db.index.fieldType(p.measurement, f.key) === f.type;
    });
    const point = { ...p, fields };
    if (db.index.check(point) === undefined) db.register(point);
  });
}
