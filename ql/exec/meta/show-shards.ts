/**
 * SHOW SHARDS (one series per database, creation order, columns as 1.x) and SHOW SHARD GROUPS
 * (one series `shard groups`). Strata's shards are per (database, policy, time span), so a shard
 * is its own shard group. Ids are a stable hash of (database, policy, start) so they survive
 * restarts and do not move when other shards come and go. `owners` is empty (single node).
 */
import { formatRfc3339 } from '../../../engine/index.js';
import type { DatabaseInfo } from '../../../engine/index.js';
import type { ShowShardGroupsStatement, ShowShardsStatement } from '../../ast/statements.js';
import type { Cell } from '../../result.js';
import type { QueryContext, StatementOutput } from '../context.js';
import { output, series } from './common.js';

export interface ShardRow {
  readonly id: number;
  readonly database: string;
  readonly retentionPolicy: string;
  readonly startSec: number;
  readonly endSec: number;
  readonly expirySec: number;
}

/** FNV-1a 32-bit over the shard identity, kept positive and below 2^31. */
export function shardId(db: string, rp: string, startSec: number): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(`${db}\u0000${rp}\u0000${startSec}`, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h & 0x7fffffff) || 1;
}

export function shardsOf(ctx: QueryContext, info: DatabaseInfo): ShardRow[] {
  const opened = ctx.engine.openedDatabase(info.name);
  if (!opened) return [];
  const rows: ShardRow[] = [];
  for (const rp of info.rps) {
    const set = opened.shardSets.get(rp.name);
    if (!set) continue;
    for (const s of set.shards) {
      const endSec = s.startSec + s.spanSec;
      rows.push({ id: shardId(info.name, rp.name, s.startSec), database: info.name, retentionPolicy: rp.name, startSec: s.startSec, endSec, expirySec: endSec + rp.durationSec });
    }
  }
  return rows;
}

const time = (sec: number): string => formatRfc3339(sec, 0);
const SHARD_COLUMNS = ['id', 'database', 'retention_policy', 'shard_group', 'start_time', 'end_time', 'expiry_time', 'owners'];

export function showShards(_stmt: ShowShardsStatement, ctx: QueryContext): StatementOutput {
  return output(
    ctx.engine.catalog.databases().map((db) => {
      const rows: Cell[][] = shardsOf(ctx, db).map((r) => [r.id, r.database, r.retentionPolicy, r.id, time(r.startSec), time(r.endSec), time(r.expirySec), '']);
      return series(db.name, SHARD_COLUMNS, rows);
    }),
  );
}

export function showShardGroups(_stmt: ShowShardGroupsStatement, ctx: QueryContext): StatementOutput {
  const rows: Cell[][] = [];
  for (const db of ctx.engine.catalog.databases()) {
    for (const r of shardsOf(ctx, db)) rows.push([r.id, r.database, r.retentionPolicy, time(r.startSec), time(r.endSec), time(r.expirySec)]);
  }
  return output([series('shard groups', ['id', 'database', 'retention_policy', 'start_time', 'end_time', 'expiry_time'], rows)]);
}
