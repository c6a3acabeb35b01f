/**
 * Positioned writes that are whole or fail. pwrite(2) may write fewer bytes than asked (a disk
 * filling up mid-call, a signal); a caller that took the returned count for the whole buffer
 * would leave a hole of stale bytes in the file.
 */
import type { FileHandle } from 'node:fs/promises';
import { StorageIoError } from '../errors.js';

/** Write all of `bytes` at `position`, looping over short writes. */
export async function writeAt(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten <= 0) throw new StorageIoError(`write at offset ${position + done} made no progress`);
    done += bytesWritten;
  }
}
