/**
 * Where a FROM measurement (a name or a regex) reads: its database and retention policy as 1.x
 * resolves them, and the measurement names it stands for in that database's index.
 */
import { DatabaseNotFoundError, RetentionPolicyNotFoundError } from '../../engine/index.js';
import type { Measurement } from '../ast/nodes.js';
import { compileRegex } from '../ast/regex.js';
import { QueryError } from '../errors.js';
import type { QueryContext } from './context.js';

export interface MeasurementTarget {
  readonly db: string;
  readonly rp: string;
}

/** The source's database and policy; the errors 1.x gives when either is missing. */
export function measurementTarget(src: Measurement, ctx: QueryContext): MeasurementTarget {
  if (!src.regex && src.name === '') throw new QueryError('invalid measurement');
  const db = src.database || ctx.database;
  if (!db) throw new QueryError('database name required');
  const info = ctx.engine.catalog.database(db);
  if (!info) throw new DatabaseNotFoundError(db);
  // 1.x's normalizeMeasurement: the request's `rp` applies to every source naming no policy, in any database
  const rp = src.retentionPolicy || ctx.retentionPolicy || info.defaultRp || '';
  if (!info.rps.some((r) => r.name === rp)) throw new RetentionPolicyNotFoundError(rp);
  return { db, rp };
}

/** The measurement names the source stands for in `db`'s index (a regex: those it matches). */
export function measurementNames(src: Measurement, db: string, ctx: QueryContext): string[] {
  const index = ctx.engine.openedDatabase(db)?.index;
  if (!index) return [];
  return src.regex ? index.measurementNames().filter((n) => compileRegex(src.regex!.source).test(n)) : [src.name];
}
