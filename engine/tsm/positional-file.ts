/**
 * The only way a TSM reader touches its file: reads at explicit positions into caller buffers.
 * There is deliberately no "read everything" method, so a reader cannot load a whole file;
 * open reads header, footer and index, and each block read fetches exactly one block (or, for
 * scans, one bounded span of neighbouring blocks: TsmReader.readBlocks).
 *
 * The seam is injectable (`TsmReaderOptions.openFile`) so tests can count the bytes a reader
 * asks for and inject I/O faults.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { readSync } from 'node:fs';
import { StorageIoError } from '../errors.js';

export interface PositionalFile {
  /** Size in bytes when opened; immutable files do not change size while open. */
  readonly size: number;
  /** Fills `buf` from `position` as far as the file allows; returns the bytes read (short only at EOF). */
  read(buf: Uint8Array, position: number): Promise<number>;
  /** Same as `read`, blocking the thread; see TsmReader.readBlockSync for when that is acceptable. */
  readSync(buf: Uint8Array, position: number): number;
  close(): Promise<void>;
}

export type FileOpener = (path: string) => Promise<PositionalFile>;

class NodePositionalFile implements PositionalFile {
  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly path: string,
  ) {}

  async read(buf: Uint8Array, position: number): Promise<number> {
    let done = 0;
    try {
      while (done < buf.length) {
        const { bytesRead } = await this.fh.read(buf, done, buf.length - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
    } catch (err) {
      throw new StorageIoError(`cannot read ${this.path} at ${position + done}: ${(err as Error).message}`, { cause: err });
    }
    return done;
  }

  readSync(buf: Uint8Array, position: number): number {
    let done = 0;
    try {
      while (done < buf.length) {
        const n = readSync(this.fh.fd, buf, done, buf.length - done, position + done);
        if (n === 0) break;
        done += n;
      }
    } catch (err) {
      throw new StorageIoError(`cannot read ${this.path} at ${position + done}: ${(err as Error).message}`, { cause: err });
    }
    return done;
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

/** Opens `path` read-only for positional reads. */
export const openPositionalFile: FileOpener = async (path) => {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new StorageIoError(`cannot open ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const { size } = await fh.stat();
    return new NodePositionalFile(fh, size, path);
  } catch (err) {
    await fh.close();
    throw new StorageIoError(`cannot stat ${path}: ${(err as Error).message}`, { cause: err });
  }
};
