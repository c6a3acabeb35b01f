/**
 * Write one frozen cache of a shard as a level-0 TSM file (snapshot-file.ts), in the flush
 * worker when there is one, else on the event loop. The file is published atomically and only
 * then added to the shard's file set, so readers see the cache or the file, never neither.
 */
import type { Cache } from '../cache/cache.js';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import type { BlockCache } from '../tsm/block-cache.js';
import type { FlushWorker } from './flush-worker-pool.js';
import { writeSnapshotFile, type SnapshotColumn } from './snapshot-file.js';

export interface FlushStats {
  readonly values: number;
  readonly bytes: number;
}

export async function writeCacheToTsm(
  shard: Shard,
  cache: Cache,
  maxPointsPerBlock: number,
  logger: EngineLogger,
  blockCache: BlockCache | undefined,
  worker?: FlushWorker,
): Promise<FlushStats> {
  const files = await shard.ensureFiles(logger, blockCache);
  const path = files.pathFor({ generation: files.nextGeneration(), sequence: 1 });
  const columns: SnapshotColumn[] = cache.sortedEntries().map(({ key, entry }) => ({ key, type: entry.type, ...entry.view() }));
  const inWorker = await worker?.write(path, shard.baseNs, columns, maxPointsPerBlock);
  const written = inWorker ?? (await writeSnapshotFile(path, shard.baseNs, columns, maxPointsPerBlock));
  if (!written.info) return { values: 0, bytes: 0 };
  await (inWorker?.index ? files.addParsed(written.info.path, inWorker.index) : files.add(written.info.path));
  return { values: written.values, bytes: written.info.size };
}
