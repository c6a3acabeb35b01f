/**
 * SHOW TAG VALUES [ON db] [FROM ...] WITH KEY = k | != k | =~ /re/ | !~ /re/ | IN (k1, k2)
 * [WHERE tags/time] [LIMIT] [OFFSET]: one series per measurement with columns `key,value`,
 * rows sorted by key then value (byte order), values of the series matching WHERE only;
 * LIMIT/OFFSET per measurement.
 */
import type { MeasurementIndex } from '../../../engine/index.js';
import { compileRegex } from '../../ast/regex.js';
import type { ShowTagValuesStatement, TagKeyFilter } from '../../ast/statements.js';
import type { ResultSeries } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { byteOrder, databaseName, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { anyPolicyHasShardIn, matchingSeries, withinScope } from './data-probe.js';
import { SHOW_OPTIONS, tagCondition, type TagCondition } from './tag-cond.js';

export function keyFilter(f: TagKeyFilter): (key: string) => boolean {
  switch (f.op) {
    case '=':
      return (k) => k === f.key;
    case '!=':
      return (k) => k !== f.key;
    case '=~': {
      const re = compileRegex(f.regex.source);
      return (k) => re.test(k);
    }
    case '!~': {
      const re = compileRegex(f.regex.source);
      return (k) => !re.test(k);
    }
    case 'IN': {
      const set = new Set(f.keys);
      return (k) => set.has(k);
    }
  }
}

/**
 * Membership test over a set of series ids. Dense sets (the usual WHERE result: ids are
 * allocated from 0 and never reused) get a byte map indexed by id, several times faster to
 * build and probe than a Set at 100k+ ids; sparse ones (max id far above the count) a Set, so
 * a few ids after heavy churn never allocate a map of the whole id space.
 */
export function idMembership(ids: readonly number[]): (id: number) => boolean {
  let max = -1;
  for (const id of ids) if (id > max) max = id;
  if (max >= 64 * ids.length + 4096) {
    const set = new Set(ids);
    return (id) => set.has(id);
  }
  const map = new Uint8Array(max + 1);
  for (const id of ids) map[id] = 1;
  return (id) => map[id] === 1;
}

/** `[key, value]` pairs of `m` whose key passes `keep`, present in series matching `cond`; sorted. */
export async function tagValuesOf(
  ctx: QueryContext,
  db: string,
  m: MeasurementIndex,
  keep: (key: string) => boolean,
  cond: TagCondition | null,
  /** Only values of these series (undefined: of every series). */
  scope?: readonly number[],
): Promise<[string, string][]> {
  const keys = [...m.tags.keys()].filter(keep).sort(byteOrder);
  if (keys.length === 0) return [];
  const filtered = cond && !(cond.expr.op === 'true' && !cond.timed);
  const has = filtered || scope ? idMembership(withinScope(filtered ? await matchingSeries(ctx, db, m, cond) : m.seriesIds, scope)) : null;
  const rows: [string, string][] = [];
  for (const key of keys) {
    const values: string[] = [];
    for (const [value, list] of m.tags.get(key) ?? []) {
      if (!has || list.some(has)) values.push(value);
    }
    values.sort(byteOrder);
    for (const v of values) rows.push([key, v]);
  }
  return rows;
}

export async function showTagValues(stmt: ShowTagValuesStatement, ctx: QueryContext): Promise<StatementOutput> {
  const db = databaseName(stmt.database, ctx);
  const info = requireDatabase(ctx, db);
  const index = seriesIndex(ctx, db);
  if (!index) return output([]);
  const cond = stmt.condition ? tagCondition(stmt.condition, ctx.nowNs, SHOW_OPTIONS) : null;
  // 1.6.7 reads tag values from its database-wide index: time only decides whether a shard of
  // any policy is in range at all, not which series count (SHOW TAG VALUES CARDINALITY does
  // count by shard).
  if (cond?.timed && (cond.empty || !anyPolicyHasShardIn(ctx, info, cond.minNs, cond.maxNs))) return output([]);
  const untimed = cond && { ...cond, timed: false };
  const keep = keyFilter(stmt.tagKey);
  const out: ResultSeries[] = [];
  for (const m of selectMeasurements(index, stmt.sources)) {
    const rows = page(await tagValuesOf(ctx, db, m, keep, untimed), stmt.limit, stmt.offset);
    if (rows.length > 0) out.push(series(m.name, ['key', 'value'], rows));
  }
  return output(out);
}
