/**
 * Admission of parsed points into a database's index before they are logged: field types,
 * cardinality limits, retention cut-off, with 1.x's rules for what a batch keeps and refuses.
 */
import type { Database } from '../database.js';
import type { RetentionPolicyInfo } from '../meta/model.js';
import type { FieldType, Point } from '../point.js';
import { admitByShard, type ShardAdmission, type ShardOf } from './shard-write.js';
import { indexRefusedSeries, refused } from './refuse.js';
import type { Rejection } from './partial.js';
import type { LineError, RefusedSeries } from '../lineprotocol/parse.js';

export interface Admission {
  readonly accepted: Point[];
  readonly rejected: Rejection[];
  /** Times (s) of the series indexed without a point: their shards exist in 1.x. */
  readonly indexedOnly: number[];
  /** Lines whose fields no statement reads that 1.x counts as written (their series indexed). */
  readonly unlistedWritten: number;
}

/** A line refused after parsing whose series 1.x still creates; `unlisted`: 1.x writes it without error. */
export interface SeriesOfLine {
  readonly series: RefusedSeries;
  readonly unlisted: boolean;
}

/**
 * Register what is new and keep the points the index accepts; refused ones carry their 1.x
 * reason. `refusedSeries` are the series of lines the parser refused for having only fields
 * named `time`, or whose fields no statement reads: 1.x indexes every series of a batch before
 * it checks the fields, so those series, and those of points refused for a field type
 * conflict, stay in the index (SHOW SERIES, tag keys and values) without data. Their series
 * obey the cardinality limits as any other line's (a refused one names the answer).
 *
 * A batch that gives a field the index does not know two types is admitted shard by shard as
 * 1.6.7 does (shard-write.ts: the later points of the second type are refused, or the shard's
 * points fail together). Any other batch comes to the same outcome by checking and
 * registering the points one after another, in the order the columnar admission
 * (admit-columns.ts) registers them too; that is all the common case pays.
 */
export function admitPoints(
  db: Database,
  rpName: string,
  points: readonly Point[],
  refusedSeries: readonly SeriesOfLine[],
  shardOf: ShardOf,
): Admission {
  const admitted = newFieldWithTwoTypes(db, points) ? admitByShard(db, rpName, points, shardOf) : admitInOrder(db, rpName, points);
  const rejected = admitted.rejected;
  const indexedOnly = admitted.indexedOnly;
  // After the points: Strata counts a batch's own new tag values against a limit (1.x only the
  // ones before the batch), and a point brings data where these lines bring only a series.
  let unlistedWritten = 0;
  for (const { series, unlisted } of refusedSeries) {
    if (!indexRefusedSeries(db, series, rejected)) continue;
    indexedOnly.push(series.sec);
    if (unlisted) unlistedWritten++;
  }
  return { accepted: admitted.accepted, rejected, indexedOnly, unlistedWritten };
}

/** Check and register the points one after another. */
function admitInOrder(db: Database, rpName: string, points: readonly Point[]): ShardAdmission {
  const accepted: Point[] = [];
  const rejected: Rejection[] = [];
  const indexedOnly: number[] = [];
  for (const p of points) {
    if (refused(db, p, rejected, indexedOnly)) continue;
    db.register(p);
    db.registerRpFields(rpName, p);
    accepted.push(p);
  }
  return { accepted, rejected, indexedOnly };
}

/** A field the index does not know comes with two types (in one line or across lines). */
function newFieldWithTwoTypes(db: Database, points: readonly Point[]): boolean {
  let seen: Map<string, FieldType> | undefined;
  for (const p of points) {
    for (const f of p.fields) {
      if (db.index.fieldType(p.measurement, f.key) !== undefined) continue;
      seen ??= new Map();
      const key = `${p.measurement}\u0000${f.key}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, f.type);
      else if (first !== f.type) return true;
    }
  }
  return false;
}

/**
 * The lines the parser refused (a `time` tag, only `time` fields) as the rejections 1.x's
 * shard makes of them, and the series 1.x still indexes (also of lines whose fields no
 * statement reads, which 1.x accepts). A line older than the policy keeps (`cutoff`:
 * keptFromSec's answer) never reaches 1.x's shard: it is refused for that alone, whatever
 * else the shard would have said of it, and leaves neither series nor shard.
 */
export function refusalsOf(errors: readonly LineError[], cutoff: number): { rejected: Rejection[]; series: SeriesOfLine[]; shardSecs: number[] } {
  const rejected: Rejection[] = [];
  const series: SeriesOfLine[] = [];
  const shardSecs: number[] = [];
  for (const e of errors) {
    if (e.refused === undefined) continue;
    const sec = e.sec ?? e.series?.sec;
    if (sec !== undefined && sec < cutoff) {
      rejected.push(BEYOND_RETENTION);
      continue;
    }
    if (e.refused === 'time-tag') rejected.push({ reason: e.reason, cardinality: false, stage: 'time-tag' });
    else if (e.refused === 'time-field') rejected.push({ reason: e.reason, cardinality: false });
    if (e.series !== undefined) series.push({ series: e.series, unlisted: e.refused === 'unlisted-fields' });
    if (e.sec !== undefined) shardSecs.push(e.sec);
  }
  return { rejected, series, shardSecs };
}

const BEYOND_RETENTION: Rejection = { reason: 'points beyond retention policy', cardinality: false, stage: 'retention' };

/**
 * The oldest second a write into `rp` may store at `nowSec` when writes beyond retention are
 * refused (`enforced`); -Infinity when nothing is refused for its age.
 */
export function keptFromSec(rp: RetentionPolicyInfo, nowSec: number, enforced: boolean): number {
  return enforced && rp.durationSec !== 0 ? nowSec - rp.durationSec : -Infinity;
}

/**
 * 1.x refuses points older than the retention policy keeps (`points beyond retention policy`):
 * they would be deleted by the next retention pass anyway. `cutoff`: keptFromSec's answer.
 */
export function dropExpired(points: readonly Point[], cutoff: number): { points: readonly Point[]; rejected: Rejection[] } {
  if (cutoff === -Infinity || !points.some((p) => p.sec < cutoff)) return { points, rejected: [] };
  const kept: Point[] = [];
  const rejected: Rejection[] = [];
  for (const p of points) {
    if (p.sec < cutoff) rejected.push(BEYOND_RETENTION);
    else kept.push(p);
  }
  return { points: kept, rejected };
}
