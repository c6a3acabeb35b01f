/**
 * SHOW SERIES [ON db] [FROM ...] [WHERE tags/time] [LIMIT] [OFFSET]: one unnamed series with
 * column `key` (the canonical series key, line-protocol escaped), measurements in byte order
 * and series in tag order within each (byTags); under a time condition all keys in byte order; with a time condition only series with data in range,
 * without one every series, or none when the policy read (FROM's, the request `rp` or default)
 * has no shard. A time condition with LIMIT or OFFSET pages fewer series (show-series-capped.ts). A database named in FROM is read instead of the statement's (source-scope.ts).
 */
import type { ShowSeriesStatement } from '../../ast/statements.js';
import { selectSeries, type SeriesInfo } from '../../../engine/index.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { byteOrder, defaultPolicy, output, page, requireDatabase, selectMeasurements, series, seriesIndex } from './common.js';
import { matchingSeries, readPolicyHasShards } from './data-probe.js';
import { firstSeriesPerShard } from './show-series-capped.js';
import { SHOW_OPTIONS, tagCondition } from './tag-cond.js';
import { sourceContext } from './source-scope.js';

/**
 * 1.x's index lists a measurement's series by their tags, pair by pair (key, then value, in byte
 * order; a tag set that is a prefix of another comes first), not by the escaped key text:
 * `m,t=a,u=b` comes before `m,t=a"b` although `"` sorts before `,`.
 */
function byTags(a: SeriesInfo, b: SeriesInfo): number {
  const n = Math.min(a.tags.length, b.tags.length);
  for (let i = 0; i < n; i++) {
    const x = a.tags[i]!;
    const y = b.tags[i]!;
    const c = byteOrder(x.key, y.key) || byteOrder(x.value, y.value);
    if (c !== 0) return c;
  }
  return a.tags.length - b.tags.length;
}

export async function showSeries(stmt: ShowSeriesStatement, requestCtx: QueryContext): Promise<StatementOutput> {
  const { db, ctx } = sourceContext(requestCtx, stmt.database, stmt.sources);
  defaultPolicy(ctx, requireDatabase(ctx, db));
  const index = seriesIndex(ctx, db);
  if (!index) return EMPTY_OUTPUT;
  const cond = tagCondition(stmt.condition, ctx.nowNs, SHOW_OPTIONS);
  // 1.6.7 lists the database-wide index through a shard of the policy it reads: none, nothing.
  if (!cond.timed && !readPolicyHasShards(ctx, db)) return EMPTY_OUTPUT;
  const keys: string[] = [];
  // 1.6.7's engine reads only the first OFFSET + LIMIT + 1 points of each measurement's shard then.
  const cap = cond.timed && (stmt.limit > 0 || stmt.offset > 0) ? stmt.offset + stmt.limit + 1 : 0;
  for (const m of selectMeasurements(index, stmt.sources)) {
    if (cap > 0) {
      if (!cond.empty) keys.push(...(await firstSeriesPerShard(ctx, db, m, selectSeries(m, cond.exprFor(m)), cap, cond.minNs, cond.maxNs)));
      continue;
    }
    const own: SeriesInfo[] = [];
    for (const id of await matchingSeries(ctx, db, m, cond)) {
      const info = index.seriesById(id);
      if (info) own.push(info);
    }
    own.sort(byTags);
    for (const info of own) keys.push(info.key);
  }
  // With a time condition 1.6.7 runs a SELECT over the series keys, which meets them in key
  // order across measurements (`m!` before `m,t=a`).
  if (cond.timed) keys.sort(byteOrder);
  const rows = page(keys, stmt.limit, stmt.offset);
  if (rows.length === 0) return EMPTY_OUTPUT;
  return output([series(undefined, ['key'], rows.map((k) => [k]))]);
}
