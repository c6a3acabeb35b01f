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

/**
 * `STRATA_TOOL_STEP_DELAY_MS`: sleep this long at every step and after every file (tests use
 * it to SIGKILL backup and restore at random points of a run that would otherwise be instant).
 */
export function stepDelay(): ((step: string) => Promise<void>) | undefined {
  const ms = Number(process.env['STRATA_TOOL_STEP_DELAY_MS'] ?? '');
  return Number.isFinite(ms) && ms > 0 ? () => new Promise((r) => setTimeout(r, ms)) : undefined;
}

export async function runBackup(config: Config, output: string, logger: Logger, progress: Progress = createProgress()): Promise<void> {
  const result = await createBackup(engineDirs(config), output, {
    logger,
    onPhase: (phase) => progress.phase(phase),
    onProgress: (done, total, file) => progress.update(done, total, file),
    onStep: stepDelay(),
  });
  const m = result.manifest;
  progress.done(
    `backup written to ${result.dir}: ${m.files.length} files, ${formatAmount(m.totalBytes, 'bytes')}, ` +
      `WAL up to seq ${m.walLastSeq} (${result.walEntries} entries), ${result.linked} TSM files hard-linked, ${result.copied} copied`,
  );
}
