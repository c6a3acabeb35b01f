/**
 * SHOW SERIES [ON db] [FROM ...] [WHERE tags/time] [LIMIT] [OFFSET]: one unnamed series with
 * column `key` (the canonical series key, line-protocol escaped), measurements in byte order
 * and keys in byte order within each; with a time condition only series with data in range,
 * without one every series, or none when the policy read (FROM's, the request `rp` or default)
 * has no shard. A database named in FROM is read instead of the statement's (source-scope.ts).
 */
import type { ShowSeriesStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { byteOrder, defaultPolicy, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { matchingSeries, readPolicyHasShards } from './data-probe.js';
import { SHOW_OPTIONS, tagCondition } from './tag-cond.js';
import { sourceContext } from './source-scope.js';

export async function showSeries(stmt: ShowSeriesStatement, requestCtx: QueryContext): Promise<StatementOutput> {
  const { db, ctx } = sourceContext(requestCtx, stmt.database, stmt.sources);
  defaultPolicy(ctx, requireDatabase(ctx, db));
  const index = seriesIndex(ctx, db);
  if (!index) return EMPTY_OUTPUT;
  const cond = tagCondition(stmt.condition, ctx.nowNs, SHOW_OPTIONS);
  // 1.6.7 lists the database-wide index through a shard of the policy it reads: none, nothing.
  if (!cond.timed && !readPolicyHasShards(ctx, db)) return EMPTY_OUTPUT;
  const keys: string[] = [];
  for (const m of selectMeasurements(index, stmt.sources)) {
    const own: string[] = [];
    for (const id of await matchingSeries(ctx, db, m, cond)) {
      const info = index.seriesById(id);
      if (info) own.push(info.key);
    }
    own.sort(byteOrder);
    keys.push(...own);
  }
  const rows = page(keys, stmt.limit, stmt.offset);
  if (rows.length === 0) return EMPTY_OUTPUT;
  return output([series(undefined, ['key'], rows.map((k) => [k]))]);
}
