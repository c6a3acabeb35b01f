/**
 * SHOW SERIES / MEASUREMENT / TAG KEY / TAG VALUES / FIELD KEY [EXACT] CARDINALITY, 1.x shapes:
 * - SERIES and MEASUREMENT without EXACT, FROM, WHERE and GROUP BY: the index's estimate, one
 *   unnamed series `cardinality estimation` (0 for a database without data);
 * - SERIES otherwise: one series per measurement (`count`), split by GROUP BY tags;
 * - MEASUREMENT otherwise: one unnamed series `count`;
 * - TAG KEY / TAG VALUES / FIELD KEY: one series per measurement (`count`), EXACT or not.
 * Those other than the estimates count only series in the shards of the policy read (the
 * request's `rp` or the default), as 1.x's rewritten SELECTs do; SERIES counts a series once
 * per shard holding it (data-probe.ts seriesShardRows).
 * LIMIT or OFFSET also make SERIES and MEASUREMENT exact. Counts of 0 give no series. LIMIT/OFFSET apply to the rows of each series (1.x rewrites these
 * statements into SELECT count(...)), so any OFFSET leaves nothing.
 */
import type { MeasurementIndex, SeriesIndex } from '../../../engine/index.js';
import type { ShowCardinalityStatement } from '../../ast/statements.js';
import type { Cell, ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { byteOrder, databaseName, defaultPolicy, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { sourceContext } from './source-scope.js';
import { matchingSeries, seriesInPolicy, seriesShardRows, withinScope } from './data-probe.js';
import { MetaError, RewriteError } from './errors.js';
import { measurementsWithPolicy, fieldsOf } from './show-field-keys.js';
import { tagKeysOf } from './show-tag-keys.js';
import { keyFilter, tagValuesOf } from './show-tag-values.js';
import { mentionsTime, type TagCondition } from './tag-cond.js';
import { selectLikeCondition } from './select-like-condition.js';
import { compileRegex } from '../../ast/regex.js';

const WHAT: Record<ShowCardinalityStatement['of'], string> = {
  series: 'SERIES',
  measurement: 'MEASUREMENT',
  tagKey: 'TAG KEY',
  tagValues: 'TAG VALUES',
  fieldKey: 'FIELD KEY',
};

function countSeries(name: string | undefined, n: number, stmt: ShowCardinalityStatement, tags?: Record<string, string>): ResultSeries[] {
  const rows: Cell[][] = page([[n]], stmt.limit, stmt.offset);
  return n > 0 && rows.length > 0 ? [series(name, ['count'], rows, tags)] : [];
}

function groupTagKeys(stmt: ShowCardinalityStatement): string[] {
  const keys: string[] = [];
  for (const d of stmt.dimensions) {
    if (d.kind === 'VarRef') keys.push(d.name);
    else throw new MetaError('only tag keys are supported in GROUP BY of SHOW SERIES CARDINALITY', 'unsupported');
  }
  return keys;
}

function seriesCounts(index: SeriesIndex, m: MeasurementIndex, ids: readonly number[], keys: readonly string[], stmt: ShowCardinalityStatement): ResultSeries[] {
  if (keys.length === 0) return countSeries(m.name, ids.length, stmt);
  const groups = new Map<string, { tags: Record<string, string>; n: number }>();
  for (const id of ids) {
    const info = index.seriesById(id);
    if (!info) continue;
    const tags: Record<string, string> = {};
    for (const k of keys) tags[k] = info.tags.find((t) => t.key === k)?.value ?? '';
    const gk = keys.map((k) => tags[k]).join('\u0000');
    const g = groups.get(gk);
    if (g) g.n++;
    else groups.set(gk, { tags, n: 1 });
  }
  const sorted = [...groups.entries()].sort((a, b) => byteOrder(a[0], b[0]));
  return sorted.flatMap(([, g]) => countSeries(m.name, g.n, stmt, g.tags));
}

/** How many of FROM's sources name or match measurement `name` (at least 1: no FROM reads each once). */
function sourcesNaming(name: string, sources: ShowCardinalityStatement['sources']): number {
  let n = 0;
  for (const s of sources) if (s.kind !== 'SubQuery' && (s.regex ? compileRegex(s.regex.source).test(name) : s.name === name)) n++;
  return Math.max(n, 1);
}

/** Whether 1.6.7 answers from its index sketches (one unnamed series) rather than a rewritten SELECT. */
export function isCardinalityEstimate(stmt: ShowCardinalityStatement): boolean {
  const filtered = stmt.exact || stmt.sources.length > 0 || stmt.condition !== null || stmt.dimensions.length > 0 || stmt.limit > 0 || stmt.offset > 0;
  return (stmt.of === 'series' || stmt.of === 'measurement') && !filtered;
}

export async function showCardinality(stmt: ShowCardinalityStatement, ctx: QueryContext): Promise<StatementOutput> {
  let db = databaseName(stmt.database, ctx);
  if (isCardinalityEstimate(stmt)) {
    const index = ctx.engine.catalog.database(db) ? seriesIndex(ctx, db) : undefined;
    const n = !index ? 0 : stmt.of === 'series' ? index.seriesCount : index.measurementNames().length;
    return output([series(undefined, ['cardinality estimation'], [[n]])]);
  }
  // 1.6.7: TAG VALUES takes time as the range of its rewritten SELECT (below); the others
  // refuse, FIELD KEY naming itself without EXACT.
  if (stmt.of !== 'tagValues' && stmt.condition && mentionsTime(stmt.condition)) {
    const what = stmt.of === 'fieldKey' ? 'FIELD KEY' : `${WHAT[stmt.of]} EXACT`;
    throw new RewriteError(`SHOW ${what} CARDINALITY doesn't support time in WHERE clause`, 'time_not_supported');
  }
  // 1.6.7 reads these as SELECTs over FROM: its database and policy (source-scope.ts)
  ({ db, ctx } = sourceContext(ctx, stmt.database, stmt.sources));
  const info = requireDatabase(ctx, db);
  const rp = defaultPolicy(ctx, info);
  const index = seriesIndex(ctx, db);
  if (!index) return output([]);
  // WHERE read as 1.6.7's rewritten SELECT does (select-like-condition.ts), not by the index
  // rules of the plain SHOW statements.
  const cond: TagCondition | null = stmt.condition
    ? selectLikeCondition(stmt.condition, ctx.nowNs, selectMeasurements(index, stmt.sources), stmt.of === 'tagValues')
    : null;
  // TAG VALUES: its SELECT's rows lie at time 0 and need a shard in the range (observed on 1.6.7).
  const outOfRange = cond !== null && cond.timed && (cond.empty || cond.minNs > 0n || cond.maxNs < 0n || !ctx.engine.hasShardOverlapping(db, rp, cond.minNs, cond.maxNs));
  if (stmt.of === 'tagValues' && outOfRange) return output([]);
  const out: ResultSeries[] = [];
  // 1.x rewrites these into SELECTs over the shards of the policy read: only its series count.
  const inPolicy = async (m: MeasurementIndex) => seriesInPolicy(ctx, db, m);
  switch (stmt.of) {
    case 'series': {
      const keys = groupTagKeys(stmt);
      for (const m of selectMeasurements(index, stmt.sources)) {
        const ids = await seriesShardRows(ctx, db, m, cond ? await matchingSeries(ctx, db, m, cond) : m.seriesIds);
        // 1.x's SELECT reads the measurement once per source naming it (`FROM events, /ev/`): each adds its rows
        const times = sourcesNaming(m.name, stmt.sources);
        out.push(...seriesCounts(index, m, times > 1 ? Array.from({ length: times }, () => ids).flat() : ids, keys, stmt));
      }
      return output(out);
    }
    case 'measurement': {
      // Measurements are picked by their tags only: a field key in WHERE does not widen to
      // every series here (1.6.7).
      let n = 0;
      for (const m of selectMeasurements(index, stmt.sources)) {
        if (withinScope(cond ? await matchingSeries(ctx, db, m, cond) : m.seriesIds, await inPolicy(m)).length > 0) n++;
      }
      return output(countSeries(undefined, n, stmt));
    }
    case 'tagKey':
      for (const m of selectMeasurements(index, stmt.sources)) out.push(...countSeries(m.name, (await tagKeysOf(ctx, db, m, cond, await inPolicy(m))).length, stmt));
      return output(out);
    case 'tagValues': {
      const keep = stmt.tagKey ? keyFilter(stmt.tagKey) : () => true;
      for (const m of selectMeasurements(index, stmt.sources)) {
        out.push(...countSeries(m.name, (await tagValuesOf(ctx, db, m, keep, cond, await inPolicy(m))).length, stmt));
      }
      return output(out);
    }
    case 'fieldKey':
      // A WHERE keeps the measurements with a matching series; their fields all count (1.6.7).
      for (const { m, rp } of measurementsWithPolicy(ctx, info, stmt.sources)) {
        if (cond && (await matchingSeries(ctx, db, m, cond)).length === 0) continue;
        out.push(...countSeries(m.name, fieldsOf(ctx, db, rp, m).length, stmt));
      }
      return output(out);
  }
}
