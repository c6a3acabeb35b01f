/** Backup, restore and inspection primitives used by the `strata` command line. */
export { createBackup, BACKUP_TEMP_SUFFIX, type EngineDirs, type BackupOptions, type BackupResult } from './backup.js';
export { restoreBackup, RESTORE_TEMP_SUFFIX, RESTORE_OLD_SUFFIX, RESTORE_JOURNAL_SUFFIX, type RestoreOptions, type RestoreResult } from './restore.js';
export { readManifest, verifyBackup, MANIFEST_FILE, type Manifest, type ManifestFile, type ByteProgress } from './manifest.js';
export { BackupError, BackupChecksumError } from './errors.js';
export { hashFile } from './hash.js';
export {
  inspectDataDir,
  inspectTsmFile,
  inspectWalDir,
  inspectSeriesLogs,
  type SeriesLogReport,
  type Problem,
  type ShardReport,
  type TsmFileReport,
  type WalSegmentReport,
} from './inspect.js';
