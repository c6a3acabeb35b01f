/**
 * SHOW TAG KEYS [ON db] [FROM ...] [WHERE tags/time] [LIMIT] [OFFSET]: one series per
 * measurement (`tagKey`), keys of the series matching WHERE, byte order; LIMIT/OFFSET per
 * measurement; measurements without tag keys are left out (1.x). SLIMIT/SOFFSET are ignored,
 * as in 1.6.
 */
import type { MeasurementIndex } from '../../../engine/index.js';
import type { ShowTagKeysStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { byteOrder, databaseName, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { anyPolicyHasShardIn, matchingSeries, withinScope } from './data-probe.js';
import { SHOW_OPTIONS, tagCondition, type TagCondition } from './tag-cond.js';
import type { ResultSeries } from '../../result.js';

/** Tag keys of the series of `m` that match `cond` and (when given) are among `scope`. */
export async function tagKeysOf(ctx: QueryContext, db: string, m: MeasurementIndex, cond: TagCondition | null, scope?: readonly number[]): Promise<string[]> {
  const filtered = cond && !(cond.expr.op === 'true' && !cond.timed);
  if (!filtered && !scope) return m.tagKeys().sort(byteOrder);
  const ids = new Set(withinScope(filtered ? await matchingSeries(ctx, db, m, cond) : m.seriesIds, scope));
  if (ids.size === 0) return [];
  const keys: string[] = [];
  for (const [key, values] of m.tags) {
    let hit = false;
    for (const list of values.values()) {
      if (list.some((id) => ids.has(id))) {
        hit = true;
        break;
      }
    }
    if (hit) keys.push(key);
  }
  return keys.sort(byteOrder);
}

export async function showTagKeys(stmt: ShowTagKeysStatement, ctx: QueryContext): Promise<StatementOutput> {
  const db = databaseName(stmt.database, ctx);
  const info = requireDatabase(ctx, db);
  const index = seriesIndex(ctx, db);
  if (!index) return output([]);
  const cond = stmt.condition ? tagCondition(stmt.condition, ctx.nowNs, SHOW_OPTIONS) : null;
  // As SHOW TAG VALUES (show-tag-values.ts): 1.6.7 answers from its database-wide index once a
  // shard of any policy lies in the time range, whichever series have data there.
  if (cond?.timed && (cond.empty || !anyPolicyHasShardIn(ctx, info, cond.minNs, cond.maxNs))) return output([]);
  const untimed = cond && { ...cond, timed: false };
  const out: ResultSeries[] = [];
  for (const m of selectMeasurements(index, stmt.sources)) {
    const keys = page(await tagKeysOf(ctx, db, m, untimed), stmt.limit, stmt.offset);
    if (keys.length > 0) out.push(series(m.name, ['tagKey'], keys.map((k) => [k])));
  }
  return output(out);
}
