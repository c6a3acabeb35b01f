/**
 * DROP SHARD id: the shard's rows are hidden by a tombstone over its time span and policy (the
 * engine has no shard removal API yet; compaction / retention reclaim the files). An unknown id
 * is a no-op, as in 1.x.
 */
import { TRUE_EXPR } from '../../../engine/index.js';
import type { DropShardStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { shardsOf } from './show-shards.js';

const NS = 1_000_000_000n;

export async function dropShard(stmt: DropShardStatement, ctx: QueryContext): Promise<StatementOutput> {
  for (const db of ctx.engine.catalog.databases()) {
    const shard = shardsOf(ctx, db).find((s) => BigInt(s.id) === stmt.id);
    if (!shard) continue;
    await ctx.engine.delete({
      db: db.name,
      rp: shard.retentionPolicy,
      measurements: null,
      expr: TRUE_EXPR,
      minNs: BigInt(shard.startSec) * NS,
      maxNs: BigInt(shard.endSec) * NS - 1n,
      dropSeries: false,
    });
    return EMPTY_OUTPUT;
  }
  return EMPTY_OUTPUT;
}
