/**
 * A point the index refuses (a field type conflict, a cardinality limit): 1.x's reason for the
 * answer, and its series kept in the index without data when 1.x would have created it.
 */
import type { Database } from '../database.js';
import { CardinalityLimitError } from '../errors.js';
import type { Point } from '../point.js';
import type { Rejection } from './partial.js';

/** Whether the index refuses `p`; if so its rejection and (series indexed) its time are recorded. */
export function refused(db: Database, p: Point, rejected: Rejection[], indexedOnly: number[]): boolean {
  const err = db.index.check(p);
  if (!err) return false;
  const cardinality = err instanceof CardinalityLimitError;
  rejected.push({ reason: err.message, cardinality });
  if (!cardinality && indexSeriesOnly(db, p)) indexedOnly.push(p.sec);
  return true;
}

/** The series of a point that is not stored (yet), when the index has room for it. */
export function indexSeriesOnly(db: Database, s: Pick<Point, 'seriesKey' | 'measurement' | 'tags'>): boolean {
  const bare: Point = { seriesKey: s.seriesKey, measurement: s.measurement, tags: s.tags, fields: [], sec: 0, nsec: 0 };
  if (db.index.check(bare) !== undefined) return false;
  db.register(bare);
  return true;
}
