/**
 * DROP SHARD id: the shard is removed as 1.x deletes it (its rows, field set and SHOW SHARDS
 * row go; engine retention/remove-shards.ts). An unknown id is a no-op, as in 1.x.
 */
import { dropShard as removeShard } from '../../../engine/index.js';
import type { DropShardStatement } from '../../ast/statements.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { EMPTY_OUTPUT } from '../context.js';
import { shardsOf } from './show-shards.js';

export async function dropShard(stmt: DropShardStatement, ctx: QueryContext): Promise<StatementOutput> {
  for (const db of ctx.engine.catalog.databases()) {
    const shard = shardsOf(ctx, db).find((s) => BigInt(s.id) === stmt.id);
    if (!shard) continue;
    await removeShard(ctx.engine, db.name, shard.retentionPolicy, shard.startSec, ctx.engine.options.logger);
    return EMPTY_OUTPUT;
  }
  return EMPTY_OUTPUT;
}
