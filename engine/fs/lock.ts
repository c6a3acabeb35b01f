/**
 * Exclusive lock on a data directory, so two servers (or a server and a restore) never open
 * the same WAL or data files. The lock is a `LOCK` file holding the owner's PID, created
 * with O_EXCL. A lock whose PID is no longer running (the owner crashed or was SIGKILLed)
 * is stale and taken over, with a warning.
 *
 * Limits, accepted because Node has no flock(2) without a native addon:
 *   - the directory must be local (PIDs mean nothing across hosts or PID namespaces);
 *   - two processes taking over the same stale lock at the same instant can race; the
 *     O_EXCL create narrows this to the unlink/create window of a crash recovery;
 *   - a server that is PID 1 in a container sees its own PID in a stale lock after a
 *     restart: a LOCK with our PID that this process did not take is treated as stale.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { moveFile } from './atomic.js';
import { join, resolve } from 'node:path';
import { StorageIoError, StrataError } from '../errors.js';
import type { EngineLogger } from '../logger.js';
import { silentLogger } from '../logger.js';

export const LOCK_FILE = 'LOCK';
const TAKEOVER_ATTEMPTS = 3;

/** The directory is locked by a running process (500: the server is misconfigured). */
export class DirectoryLockedError extends StrataError {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super('directory_locked', 500, `directory ${dir} is locked by running process ${pid} (${join(dir, LOCK_FILE)})`);
  }
}

export interface DirectoryLock {
  readonly dir: string;
  /** Remove the LOCK file if it is still ours. Idempotent. */
  release(): Promise<void>;
}

/** Directories locked by this process, so a LOCK carrying our own PID can be told apart. */
const held = new Set<string>();

/** Take the lock on `dir` (which must exist), or throw DirectoryLockedError (an I/O error names the lock file). */
export async function lockDirectory(dir: string, logger: EngineLogger = silentLogger): Promise<DirectoryLock> {
  const abs = resolve(dir);
  const path = join(abs, LOCK_FILE);
  try {
    return await takeLock(abs, path, logger);
  } catch (err) {
    throw StorageIoError.wrap(`cannot lock ${path}`, err);
  }
}

async function takeLock(abs: string, path: string, logger: EngineLogger): Promise<DirectoryLock> {
  for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
    if (await tryCreate(path)) {
      held.add(abs);
      return lockHandle(abs, path);
    }
    const owner = await readOwner(path);
    if (owner === 'gone') continue;
    if (owner === 'not-a-file') {
      // A directory named LOCK (a copy gone wrong) failed every start with EISDIR. No process
      // locks with a directory: it is moved aside, not deleted (it may hold someone's files).
      const aside = `${path}.${Date.now()}.not-a-file`;
      await moveFile(path, aside);
      logger.warn({ dir: abs, movedTo: aside }, 'directory lock path is not a file; moved aside');
      continue;
    }
    if (owner !== 'unreadable' && isAlive(owner) && !(owner === process.pid && !held.has(abs))) {
      throw new DirectoryLockedError(abs, owner);
    }
    logger.warn({ dir: abs, pid: owner }, 'taking over stale directory lock');
    await rm(path, { force: true });
  }
  // Someone else keeps recreating the file: report whoever holds it now.
  const owner = await readOwner(path);
  throw new DirectoryLockedError(abs, typeof owner === 'number' ? owner : -1);
}

async function tryCreate(path: string): Promise<boolean> {
  let fh;
  try {
    fh = await open(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await fh.writeFile(`${process.pid}\n`);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return true;
}

/** PID in the lock file; 'unreadable' for an empty or garbled file (crash while creating it). */
async function readOwner(path: string): Promise<number | 'gone' | 'unreadable' | 'not-a-file'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'gone';
    if (code === 'EISDIR') return 'not-a-file';
    throw err;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 'unreadable';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user; it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockHandle(dir: string, path: string): DirectoryLock {
  let released = false;
  return {
    dir,
    async release() {
      if (released) return;
      released = true;
      held.delete(dir);
      if ((await readOwner(path)) === process.pid) await rm(path, { force: true });
    },
  };
}
