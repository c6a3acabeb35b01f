/**
 * Open the shards of a database found on disk: `<db>/<rp>/<start>_<span>/`. Directories of
 * retention policies no longer in the catalog are removed (a DROP RETENTION POLICY that was
 * interrupted; a catalog older than the data has adopted them before: orphan-storage.ts);
 * unrecognised entries are left alone and logged.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../database.js';
import { decodedName, subdirectories } from '../orphan-storage.js';
import { SERIES_LOG_QUARANTINE_DIR } from '../series/log.js';
import type { EngineLogger } from '../logger.js';
import type { BlockCache } from '../tsm/block-cache.js';
import { TsmFileSet } from '../tsm/file-set.js';
import { Shard } from './shard.js';
import { ShardFields } from './shard-fields.js';
import { parseShardDirName } from './shard-set.js';

export async function loadShards(db: Database, rps: readonly string[], logger: EngineLogger, blockCache: BlockCache): Promise<void> {
  const live = new Set(rps);
  for (const rpDir of await subdirectories(db.dir)) {
    const rp = decodedName(rpDir);
    if (rp === undefined) {
      if (rpDir === SERIES_LOG_QUARANTINE_DIR) continue;
      logger.warn({ db: db.name, dir: join(db.dir, rpDir) }, 'ignoring a directory whose name encodes no retention policy');
      continue;
    }
    if (!live.has(rp)) {
      logger.warn({ db: db.name, rp }, 'removing data of a retention policy that is not in the catalog');
      await rm(join(db.dir, rpDir), { recursive: true, force: true });
      continue;
    }
    const set = db.shardSet(rp);
    await warnAboutShardFiles(join(db.dir, rpDir), logger);
    for (const name of await subdirectories(join(db.dir, rpDir))) {
      const span = parseShardDirName(name);
      if (!span) {
        logger.warn({ db: db.name, rp, dir: name }, 'ignoring unrecognised directory in a retention policy');
        continue;
      }
      const shard = new Shard(db.name, rp, span.startSec, span.spanSec, join(set.dir, name));
      shard.files = await TsmFileSet.open(shard.dir, { logger, blockCache });
      shard.fields = await ShardFields.load(shard.dir, shard.files.files(), logger);
      set.add(shard);
    }
  }
}

/** A file named like a shard directory (a copy gone wrong) holds no shard: say so instead of skipping it silently. */
async function warnAboutShardFiles(rpDir: string, logger: EngineLogger): Promise<void> {
  const entries = await readdir(rpDir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (!e.isDirectory() && parseShardDirName(e.name)) logger.error({ file: join(rpDir, e.name) }, 'a shard directory is a file; its data cannot be served');
}
