/**
 * TSM files a compaction replaced, until they are removed. A replaced file stays on disk while
 * queries that pinned it still read it, and for good when its removal fails (unlink: EIO, EROFS,
 * a disk going bad); a crash in between brought it back at the next start as a live file beside
 * the output holding the same points: every read of the shard merged it (its rows shadowed by
 * the output), the planner kept it out of level plans (a lone low-level generation behind a
 * higher level) until a full compaction of the cold shard, and a failed removal was never tried
 * again while the server ran.
 *
 * So each replaced file gets a marker, an empty `<file>.obsolete`, right after the swap that
 * replaced it (its outputs are published and durable by then: removing a marked file never
 * loses a point); the set's open removes marked files instead of serving them, and a removal
 * that fails is tried again at each compaction round (TsmFileSet.retryRemovals). The marker goes
 * after its file, with a directory fsync between, so a file never outlives its marker on disk.
 * A crash between the swap and the marker's directory fsync still leaves an unmarked file (as
 * before: harmless, merged by a later full compaction).
 */
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../fs/atomic.js';
import type { EngineLogger } from '../logger.js';
import { parseTsmFileName } from './format.js';

export const OBSOLETE_SUFFIX = '.obsolete';

/**
 * Mark replaced files of `dir` (empty markers: only their names matter, so one directory fsync
 * makes them all durable). A failure is logged, not thrown: the swap is done, and an unmarked
 * file is what a crash left before.
 */
export async function markObsolete(dir: string, paths: readonly string[], logger: EngineLogger): Promise<void> {
  try {
    for (const path of paths) await (await open(`${path}${OBSOLETE_SUFFIX}`, 'w')).close();
    await fsyncDir(dir);
  } catch (err) {
    logger.error({ dir, files: paths, err }, 'cannot mark replaced TSM files obsolete; a crash before their removal leaves them beside the outputs');
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
      logger.info({ file: join(dir, name) }, 'removed a TSM file a compaction replaced (left by a failed removal or a crash)');
    } catch (err) {
      unremoved.push(name);
      logger.error({ file: join(dir, name), err }, 'cannot remove a TSM file a compaction replaced; not serving it, removal retried');
    }
  }
  return { unremoved, maxGeneration };
}
