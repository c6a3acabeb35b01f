/**
 * Removing whole shards: retention's expired shards and DROP SHARD. 1.x deletes the shard
 * (store.DeleteShard): its rows, its field set and the series only it held go with it, so SHOW
 * FIELD KEYS, `SELECT *`, SHOW SERIES and SHOW SHARDS no longer list them.
 *
 * The caller first writes a tombstone over the shard's span: it hides the rows at once, and
 * keeps WAL replay from bringing them back should the process stop before the directory is
 * gone. Then the shards leave their ShardSet (no new flush, compaction or query picks them
 * up), the in-flight flush and compaction are waited out, and each shard is closed and its
 * directory removed durably (drop-dir.ts: a crash leaves the whole shard, hidden by the
 * tombstone, or none).
 */
import type { Engine } from '../engine.js';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import type { ShardSet } from '../shard/shard-set.js';
import { TRUE_EXPR } from '../series/tag-expr.js';
import { dropShardDir } from './drop-dir.js';
import { dropOrphanSeries, seriesKeysOf } from './orphan-series.js';

/**
 * Removes `shards` of `set` in database `db` (each already hidden by a tombstone), and the
 * series no shard holds any more (orphan-series.ts); answers how many directories were deleted.
 */
export async function removeShards(engine: Engine, db: string, set: ShardSet, shards: readonly Shard[], logger: EngineLogger): Promise<number> {
  if (shards.length === 0) return 0;
  for (const s of shards) set.remove(s);
  await quiesce(engine, logger);
  const database = engine.openedDatabase(db);
  if (database) {
    dropOrphanSeries(database, seriesKeysOf(shards));
    // Durable before any directory goes: a crash in between left series no shard holds, and
    // nothing looks for them again (cli/clients/drop-crash.test.ts).
    await database.syncIndex();
  }
  let dropped = 0;
  for (const shard of shards) {
    await shard.close();
    // A write into the span during this call re-created the shard: the new one owns the
    // directory now (the tombstone hides the old rows).
    if (set.shards.some((s) => s.dir === shard.dir)) continue;
    await dropShardDir(shard.dir);
    dropped++;
  }
  return dropped;
}

/**
 * DROP SHARD: the shard of db.rp starting at `startSec`. A missing shard is a no-op, as in
 * 1.x. Answers once the shard is gone.
 */
export async function dropShard(engine: Engine, db: string, rp: string, startSec: number, logger: EngineLogger): Promise<void> {
  const set = engine.openedDatabase(db)?.shardSets.get(rp);
  const shard = set?.shards.find((s) => s.startSec === startSec);
  if (!set || !shard) return;
  await engine.delete({ db, rp, measurements: null, expr: TRUE_EXPR, minNs: shard.baseNs, maxNs: shard.endNs - 1n, dropSeries: false });
  await removeShards(engine, db, set, [shard], logger);
}

/**
 * Wait until neither the flusher nor the compactor still holds a shard just removed from its
 * set: both only pick shards from the sets, so after one more flush round and a compactor
 * stop/start nothing references them.
 */
async function quiesce(engine: Engine, logger: EngineLogger): Promise<void> {
  await engine.compactor.stop();
  try {
    await engine.flush();
  } catch (err) {
    logger.warn({ err }, 'flush before dropping shards failed; dropping anyway');
  } finally {
    const ms = engine.options.compaction.intervalMs;
    if (!engine.state.stopping && ms > 0) engine.compactor.start(ms);
  }
}
