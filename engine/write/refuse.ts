/**
 * A point the index refuses (a field type conflict, a cardinality limit): 1.x's reason for the
 * answer, and its series kept in the index without data when 1.x would have created it.
 */
import type { Database } from '../database.js';
import { CardinalityLimitError } from '../errors.js';
import type { Point } from '../point.js';
import type { SeriesShape } from '../series/index.js';
import type { RefusedSeries } from '../lineprotocol/parse.js';
import type { Rejection } from './partial.js';

/** Whether the index refuses `p`; if so its rejection and (series indexed) its time are recorded. */
export function refused(db: Database, p: Point, rejected: Rejection[], indexedOnly: number[]): boolean {
  const err = db.index.check(p);
  if (!err) return false;
  const cardinality = err instanceof CardinalityLimitError;
  rejected.push({ reason: err.message, cardinality });
  // A cardinality error comes before the field checks (SeriesIndex.check): the series passed them.
  if (!cardinality) {
    indexSeries(db, p);
    indexedOnly.push(p.sec);
  }
  return true;
}

/**
 * The series of a line refused after parsing, as 1.x's shard creates it before checking the
 * fields; false (and the limit's rejection recorded) when a cardinality limit refuses it.
 */
export function indexRefusedSeries(db: Database, s: RefusedSeries, rejected: Rejection[]): boolean {
  const err = db.index.checkSeries(s, s.fieldMeasurement);
  if (err) {
    rejected.push({ reason: err.message, cardinality: true });
    return false;
  }
  indexSeries(db, s);
  return true;
}

/** Index the series of a point that is not stored (yet); its limits are checked already. */
export function indexSeries(db: Database, s: SeriesShape): void {
  db.register({ seriesKey: s.seriesKey, measurement: s.measurement, tags: s.tags, fields: [], sec: 0, nsec: 0 });
}
