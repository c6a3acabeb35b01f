/**
 * Open the shards of a database found on disk: `<db>/<rp>/<start>_<span>/`. Directories of
 * retention policies no longer in the catalog are removed (a DROP RETENTION POLICY that was
 * interrupted); unrecognised entries are left alone and logged.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../database.js';
import { decodeName } from '../database.js';
import type { EngineLogger } from '../logger.js';
import type { BlockCache } from '../tsm/block-cache.js';
import { TsmFileSet } from '../tsm/file-set.js';
import { Shard } from './shard.js';
import { ShardFields } from './shard-fields.js';
import { parseShardDirName } from './shard-set.js';

async function dirs(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

export async function loadShards(db: Database, rps: readonly string[], logger: EngineLogger, blockCache: BlockCache): Promise<void> {
  const live = new Set(rps);
  for (const rpDir of await dirs(db.dir)) {
    const rp = decodeName(rpDir);
    if (!live.has(rp)) {
      logger.warn({ db: db.name, rp }, 'removing data of a retention policy that is not in the catalog');
      await rm(join(db.dir, rpDir), { recursive: true, force: true });
      continue;
    }
    const set = db.shardSet(rp);
    for (const name of await dirs(join(db.dir, rpDir))) {
      const span = parseShardDirName(name);
      if (!span) {
        logger.warn({ db: db.name, rp, dir: name }, 'ignoring unrecognised directory in a retention policy');
        continue;
      }
      const shard = new Shard(db.name, rp, span.startSec, span.spanSec, join(set.dir, name));
      shard.files = await TsmFileSet.open(shard.dir, { logger, blockCache });
      shard.fields = await ShardFields.load(shard.dir, shard.files.files().length > 0, logger);
      set.add(shard);
    }
  }
}
