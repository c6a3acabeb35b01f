/** An engine over `root`/{wal,meta,data} with no timers (tests drive flushes and compactions). */
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions, type EngineOptions } from '../options.js';

/** `options`: anything else the test sets (a logger, parse workers, limits, retention checks). */
export function openTestEngine(root: string, compaction: Partial<EngineOptions['compaction']> = {}, options: Partial<EngineOptions> = {}): Promise<Engine> {
  return Engine.open(
    engineOptions({
      walDir: join(root, 'wal'),
      metaDir: join(root, 'meta'),
      dataDir: join(root, 'data'),
      flushIntervalSec: 0,
      compaction: { intervalMs: 0, coldAfterMs: 4 * 3600 * 1000, maxFileBytes: 256 * 1024 * 1024, ...compaction },
      ...options,
    }),
  );
}
