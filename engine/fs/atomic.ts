/**
 * The one way to publish an immutable file: write `<name>.tmp`, fsync it, rename over the
 * final name, fsync the directory. A crash leaves either the old file, the new file, or a
 * stray `.tmp` that `removeTempFiles` deletes at open; never a half-written final file.
 */
import { open, rename, rm, readdir, mkdir, stat, unlink } from 'node:fs/promises';
import { join, dirname, basename, resolve } from 'node:path';

export const TEMP_SUFFIX = '.tmp';

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * mkdir -p that survives power loss: each directory it creates is fsynced, and so is the
 * directory holding the first of them, so the new entries are on disk, not only the files
 * later fsynced inside them (a file's fsync does not persist its directory's entry, nor that
 * directory's own). Costs one mkdir when the directory exists.
 */
export async function makeDirDurable(dir: string): Promise<void> {
  let first: string | undefined;
  try {
    first = await mkdir(dir, { recursive: true });
  } catch (err) {
    return makeDirsOneByOne(dir, err);
  }
  if (first === undefined) return;
  let d = resolve(dir);
  const top = resolve(first);
  for (;;) {
    await fsyncDir(d);
    if (d === top) break;
    d = dirname(d);
  }
  await fsyncDir(dirname(top));
}

/**
 * After a failed recursive mkdir: Node reports ENOENT whatever a component's mkdir failed with
 * (EIO, ENOSPC, EROFS ...), so the error named a cause that was not one. Each missing part is
 * created alone, in order: the first to fail throws its own error. Parts created here are
 * fsynced with their parent as makeDirDurable does; when all succeed (the fault passed), so
 * does this.
 */
async function makeDirsOneByOne(dir: string, recursiveError: unknown): Promise<void> {
  const parts: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    parts.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const part of parts) {
    try {
      if ((await stat(part)).isDirectory()) continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      await mkdir(part);
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code === 'EEXIST' ? recursiveError : err;
    }
    await fsyncDir(part);
    await fsyncDir(dirname(part));
  }
}

/** Atomically replace `path` with `data` (durable when the promise resolves). */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = path + TEMP_SUFFIX;
  await makeDirDurable(dirname(path));
  const fh = await open(tmp, 'w');
  try {
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    // Why: on a full disk every attempt fails here (a WAL segment roll per refused write, a
    // catalog save per DDL), and each left its temp file until the next start-up.
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dirname(path));
}

/** Publish an already written and fsynced temp file under its final name. */
export async function publishFile(tmpPath: string, finalPath: string): Promise<void> {
  await rename(tmpPath, finalPath);
  await fsyncDir(dirname(finalPath));
}

/** Move a file aside (quarantine) durably. */
export async function moveFile(from: string, to: string): Promise<void> {
  await makeDirDurable(dirname(to));
  await rename(from, to);
  await fsyncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
}

/** Delete leftover temp files of interrupted publishes in `dir`; returns their names. */
export async function removeTempFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.endsWith(TEMP_SUFFIX)) {
      await rm(join(dir, name), { force: true });
      removed.push(basename(name));
    }
  }
  return removed;
}
