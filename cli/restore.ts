/**
 * `strata restore --input <dir>`: with the server stopped, verify every checksum of the
 * backup, then replace the configured WAL, meta and data directories. Refuses to run while a
 * live process holds the WAL directory's LOCK. An interrupted restore is completed by running
 * the same command again (engine/backup/restore.ts explains the journal).
 */
import { DirectoryLockedError, restoreBackup } from '../engine/index.js';
import { engineDirs, stepDelay } from './backup.js';
import { ToolUsageError } from './tool-errors.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createProgress, type Progress } from './progress.js';

export async function runRestore(config: Config, input: string, logger: Logger, progress: Progress = createProgress()): Promise<void> {
  const dirs = engineDirs(config);
  const result = await restoreBackup(input, dirs, {
    logger,
    onPhase: (phase) => progress.phase(phase),
    onProgress: (done, total, file) => progress.update(done, total, file),
    onStep: stepDelay(),
  }).catch((err: unknown) => {
    if (err instanceof DirectoryLockedError) throw new ToolUsageError(`${err.message}: stop the server before restoring`);
    throw err;
  });
  if (result.completedEarlier) {
    progress.done(`completed the interrupted restore of ${input}`);
    return;
  }
  progress.done(
    `restored ${result.manifest.files.length} files (backup of ${result.manifest.createdAt}, WAL seq ${result.manifest.walLastSeq}) ` +
      `into wal=${dirs.walDir} meta=${dirs.metaDir} data=${dirs.dataDir}`,
  );
}
