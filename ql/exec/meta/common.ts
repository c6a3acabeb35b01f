/**
 * Shared helpers of the metadata statements: database resolution with the 1.x error texts,
 * FROM sources → measurement names, LIMIT/OFFSET, result series.
 */
import { DatabaseNotFoundError, RetentionPolicyNotFoundError } from '../../../engine/index.js';
import type { DatabaseInfo, MeasurementIndex, SeriesIndex } from '../../../engine/index.js';
import type { Source } from '../../ast/nodes.js';
import { compileRegex } from '../../ast/regex.js';
import type { Cell, ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { databaseRequired, MetaError } from './errors.js';

/** `ON db` or the request's database; `database name required` when neither is given. */
export function databaseName(stmtDb: string, ctx: QueryContext): string {
  const name = stmtDb || ctx.database;
  if (!name) throw databaseRequired();
  return name;
}

/** The catalog entry of `name`; `database not found: name` when missing. */
export function requireDatabase(ctx: QueryContext, name: string): DatabaseInfo {
  const info = ctx.engine.catalog.database(name);
  if (!info) throw new DatabaseNotFoundError(name);
  return info;
}

/**
 * The policy statements read by default: the request's `rp` (for its own database), else the
 * database default. 1.x answers `retention policy not found: x` for SHOW SERIES, SHOW FIELD KEYS
 * and exact cardinalities once the default policy was dropped.
 */
export function defaultPolicy(ctx: QueryContext, info: DatabaseInfo): string {
  const rp = (info.name === ctx.database ? ctx.retentionPolicy : '') || info.defaultRp || '';
  if (!info.rps.some((r) => r.name === rp)) throw new RetentionPolicyNotFoundError(rp);
  return rp;
}

/** The series index of a database (undefined when it has no storage yet, i.e. no data). */
export function seriesIndex(ctx: QueryContext, db: string): SeriesIndex | undefined {
  return ctx.engine.openedDatabase(db)?.index;
}

/**
 * Byte order (1.x sorts names as Go strings, i.e. by UTF-8 bytes), which is code point order:
 * UTF-16 code units agree with it below the surrogates; from the first difference on, code
 * points decide.
 */
export function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x - y;
    const prev = i > 0 ? a.charCodeAt(i - 1) : 0;
    const j = prev >= 0xd800 && prev < 0xdc00 ? i - 1 : i;
    return (a.codePointAt(j) ?? 0) - (b.codePointAt(j) ?? 0);
  }
  return a.length - b.length;
}

/**
 * Measurement names selected by FROM (names and regexes; database / retention policy
 * qualifiers do not change the per-database index). Empty sources: every measurement.
 * Sorted by byte order, without duplicates.
 */
export function selectMeasurements(index: SeriesIndex, sources: readonly Source[]): MeasurementIndex[] {
  const all = index.measurementNames();
  let names: string[];
  if (sources.length === 0) names = all;
  else {
    const wanted = new Set<string>();
    for (const s of sources) {
      if (s.kind === 'SubQuery') throw new MetaError('subqueries are not supported in this statement', 'unsupported');
      if (s.regex) {
        const re = compileRegex(s.regex.source);
        for (const n of all) if (re.test(n)) wanted.add(n);
      } else if (index.measurement(s.name)) wanted.add(s.name);
    }
    names = [...wanted];
  }
  names.sort(byteOrder);
  const out: MeasurementIndex[] = [];
  for (const n of names) {
    const m = index.measurement(n);
    if (m) out.push(m);
  }
  return out;
}

/** 1.x OFFSET then LIMIT (LIMIT 0 = no limit). */
export function page<T>(items: readonly T[], limit: number, offset: number): T[] {
  const start = Math.max(0, offset);
  return limit > 0 ? items.slice(start, start + limit) : items.slice(start);
}

export function series(name: string | undefined, columns: readonly string[], values: readonly (readonly Cell[])[], tags?: Readonly<Record<string, string>>): ResultSeries {
  const s: { name?: string; tags?: Readonly<Record<string, string>>; columns: readonly string[]; values: readonly (readonly Cell[])[] } = { columns, values };
  if (name !== undefined) s.name = name;
  if (tags !== undefined) s.tags = tags;
  return s;
}

export function output(list: readonly ResultSeries[]): StatementOutput {
  return { series: list };
}

/** Seconds from a bigint ns duration (truncating, as 1.x stores whole durations). */
export function nsToSec(ns: bigint): number {
  return Number(ns / 1_000_000_000n);
}
