/**
 * TSM files a compaction replaced but that could not be removed (unlink failed: EIO, EROFS, a
 * disk going bad). Such a file stays beside the compaction's output with the same points; it
 * was never tried again, and after a restart it was opened as a live file: every read of the
 * shard merged it (its rows shadowed by the output), the planner kept it out of level plans
 * (a lone low-level generation behind a higher level) until a full compaction of the cold
 * shard, and tombstone collection waited for it.
 *
 * Now the removal is tried again at each compaction round (TsmFileSet.retryRemovals), and a
 * marker `<file>.obsolete` (written atomically when the removal fails) carries the fact across
 * a restart: the file set's open removes the marked file instead of serving it. A marker is
 * written only for a file that replace() swapped out, so the outputs holding its points are
 * published and durable by then; removing a marked file never loses a point.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../fs/atomic.js';
import type { EngineLogger } from '../logger.js';
import { parseTsmFileName } from './format.js';

export const OBSOLETE_SUFFIX = '.obsolete';

/** Record that `path` (a replaced TSM file) must go; false when even the marker cannot be written. */
export async function markObsolete(path: string, logger: EngineLogger): Promise<boolean> {
  try {
    await writeFileAtomic(`${path}${OBSOLETE_SUFFIX}`, '');
    return true;
  } catch (err) {
    logger.error({ file: path, err }, 'cannot mark a replaced TSM file obsolete; it is removed at a later compaction round, or merged again after a restart');
    return false;
  }
}

/** Remove a replaced file, then its marker (a marker without its file is harmless: removed at open). */
export async function removeObsolete(dir: string, path: string): Promise<void> {
  await rm(path, { force: true });
  await fsyncDir(dir);
  await rm(`${path}${OBSOLETE_SUFFIX}`, { force: true });
}

export interface MarkedFiles {
  /** TSM file names in `dir` that are marked obsolete but could not be removed: not to be served. */
  readonly unremoved: readonly string[];
  /** Highest generation a marker names (kept out of reuse as if the file were there). */
  readonly maxGeneration: number;
}

/** At open: remove the files markers name, and the markers. */
export async function removeMarkedFiles(dir: string, logger: EngineLogger): Promise<MarkedFiles> {
  const unremoved: string[] = [];
  let maxGeneration = 0;
  for (const marker of (await readdir(dir)).filter((n) => n.endsWith(OBSOLETE_SUFFIX))) {
    const name = marker.slice(0, -OBSOLETE_SUFFIX.length);
    maxGeneration = Math.max(maxGeneration, parseTsmFileName(name)?.generation ?? 0);
    try {
      await removeObsolete(dir, join(dir, name));
      logger.info({ file: join(dir, name) }, 'removed a TSM file a compaction replaced (its removal had failed)');
    } catch (err) {
      unremoved.push(name);
      logger.error({ file: join(dir, name), err }, 'cannot remove a TSM file a compaction replaced; not serving it, removal retried');
    }
  }
  return { unremoved, maxGeneration };
}
