/** An engine over `root`/{wal,meta,data} with no timers (tests drive flushes and compactions). */
import { join } from 'node:path';
import { Engine } from '../engine.js';
import type { EngineLogger } from '../logger.js';
import { engineOptions, type EngineOptions } from '../options.js';

export function openTestEngine(root: string, compaction: Partial<EngineOptions['compaction']> = {}, logger?: EngineLogger): Promise<Engine> {
  return Engine.open(
    engineOptions({
      walDir: join(root, 'wal'),
      metaDir: join(root, 'meta'),
      dataDir: join(root, 'data'),
      flushIntervalSec: 0,
      ...(logger && { logger }),
      compaction: { intervalMs: 0, coldAfterMs: 4 * 3600 * 1000, maxFileBytes: 256 * 1024 * 1024, ...compaction },
    }),
  );
}
