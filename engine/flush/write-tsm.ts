/**
 * Write one frozen cache of a shard as a level-0 TSM file: every series-field in TSM key
 * order, cut into blocks of at most `maxPointsPerBlock` values, encoded with the best
 * encoding per block. The file is published atomically by TsmWriter and only then added to
 * the shard's file set, so readers see the cache or the file, never neither.
 */
import { encodeBlock } from '../encoding/block.js';
import type { Cache } from '../cache/cache.js';
import type { EngineLogger } from '../logger.js';
import type { Shard } from '../shard/shard.js';
import type { BlockCache } from '../tsm/block-cache.js';
import { TsmWriter } from '../tsm/writer.js';
import { columnStats } from '../tsm/block-stats.js';

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
): Promise<FlushStats> {
  const files = await shard.ensureFiles(logger, blockCache);
  const path = files.pathFor({ generation: files.nextGeneration(), sequence: 1 });
  const writer = await TsmWriter.create(path, { level: 0 });
  let values = 0;
  try {
    for (const { key, entry } of cache.sortedEntries()) {
      const { offsets, column } = entry.view();
      for (let s = 0; s < offsets.length; s += maxPointsPerBlock) {
        const e = Math.min(offsets.length, s + maxPointsPerBlock);
        const payload = encodeBlock(shard.baseNs, offsets, column, s, e);
        const minTime = shard.baseNs + BigInt(offsets[s]!);
        const maxTime = shard.baseNs + BigInt(offsets[e - 1]!);
        await writer.writeBlock(key, entry.type, minTime, maxTime, e - s, payload, columnStats(column, s, e));
        values += e - s;
      }
    }
    if (values === 0) {
      await writer.abort();
      return { values: 0, bytes: 0 };
    }
    const info = await writer.finish();
    await files.add(info.path);
    return { values, bytes: info.size };
  } catch (err) {
    await writer.abort().catch(() => undefined);
    throw err;
  }
}
