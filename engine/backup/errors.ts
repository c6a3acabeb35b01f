/** Errors of the backup / restore / inspect tools (typed, like every engine error). */
import { StrataError } from '../errors.js';

/** A backup or restore cannot go on: bad input directory, checksum mismatch, busy target. */
export class BackupError extends StrataError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('backup', 500, message, options);
  }
}

/** A file of a backup does not match the checksum or size its manifest records. */
export class BackupChecksumError extends StrataError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super('backup_checksum', 500, `backup file ${file}: ${reason}`);
  }
}
