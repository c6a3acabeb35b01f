/**
 * `strata backup --output <dir>`: a consistent copy of the configured WAL, meta and data
 * directories, taken while the server runs (or not). The consistency argument and the crash
 * behaviour are in engine/backup/backup.ts; this is the command-line shell around it.
 */
import { createBackup, type EngineDirs } from '../engine/index.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createProgress, formatAmount, type Progress } from './progress.js';

export function engineDirs(config: Config): EngineDirs {
  return { walDir: config.storage.wal_dir, metaDir: config.storage.meta_dir, dataDir: config.chdb.session_data_path };
}

export async function runBackup(config: Config, output: string, logger: Logger, progress: Progress = createProgress()): Promise<void> {
  const result = await createBackup(engineDirs(config), output, {
    logger,
    onPhase: (phase) => progress.phase(phase),
    onProgress: (done, total, file) => progress.update(done, total, file),
  });
  const m = result.manifest;
  progress.done(
    `backup written to ${result.dir}: ${m.files.length} files, ${formatAmount(m.totalBytes, 'bytes')}, ` +
      `WAL up to seq ${m.walLastSeq} (${result.walEntries} entries), ${result.linked} TSM files hard-linked, ${result.copied} copied`,
  );
}
