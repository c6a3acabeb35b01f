/**
 * The live TSM files of one shard directory.
 *
 * Start-up never fails because of one damaged file: leftover `*.tmp` files (interrupted writes)
 * are removed, a file failing validation (CorruptionError) is moved to `<dir>/quarantine/` with
 * a warn log, a directory under a TSM name (a copy gone wrong) is logged and skipped. A file
 * that cannot be read for another reason (EIO, permissions) fails the open, naming the file and
 * the cause: it holds acknowledged points, and the disk may answer at the next start (it was
 * logged and left unserved before, so the server ran without them). Everything else is opened
 * and served in (generation, sequence) order, later files winning duplicate timestamps.
 *
 * Readers are reference counted. The set holds one reference to each live file; `acquire()`
 * takes one more per file for a query or compaction. `replace(old, new)` (after a compaction,
 * whose outputs TsmWriter has already published) swaps the group in one step for new
 * snapshots, then drops the set's reference to the old files: each is closed and deleted when
 * its last snapshot is released, so a running query keeps reading the files it started with.
 *
 * Replaced files are marked (`<file>.obsolete`) right after the swap, and the next open removes
 * marked files: a crash before their removal, or a removal that failed, does not bring them back
 * as live files (obsolete-files.ts; a failed removal is retried at each compaction round). A
 * crash between publishing the new files and the markers' directory fsync opens both at the next
 * start. That is harmless: the outputs carry a later (generation, sequence) and the same points,
 * so they win every duplicate, and a later compaction merges the leftovers. (The engine must
 * therefore drop tombstones only after `replace` resolved.)
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CorruptionError, InvariantError, StorageIoError } from '../errors.js';
import { moveFile, removeTempFiles } from '../fs/atomic.js';
import type { EngineLogger } from '../logger.js';
import type { BlockCache } from './block-cache.js';
import { compareFileIds, MAX_NAME_NUMBER, parseTsmFileName, QUARANTINE_DIR, TSM_EXTENSION, tsmFileName } from './format.js';
import type { TsmFileId } from './format.js';
import type { IndexTables } from './index-tables.js';
import { TsmReader, type TsmReaderOptions } from './reader.js';
import type { FileOpener } from './positional-file.js';
import { makeDirDurable } from '../fs/atomic.js';
import { markObsolete, removeMarkedFiles, removeObsolete } from './obsolete-files.js';

export interface TsmFileSetOptions {
  readonly logger: EngineLogger;
  readonly blockCache?: BlockCache;
  /** I/O seam passed to every TsmReader (tests). */
  readonly openFile?: FileOpener;
}

/** Files pinned for one reader of the set; release exactly once. */
export interface TsmSnapshot {
  /** In (generation, sequence) order: later files win duplicate timestamps. */
  readonly files: readonly TsmReader[];
  /**
   * Unpins the files; the promise settles when files this closed are closed (and removed,
   * when replaced). Undefined when no file had to close (the usual case: a query's cursor
   * releases its shard's files once per series-field, so no promise is made for that).
   */
  release(): Promise<void> | undefined;
}

interface LiveFile {
  readonly id: TsmFileId;
  readonly reader: TsmReader;
  refs: number;
  /** Set when replaced: delete the file once the last reference is gone. */
  obsolete: boolean;
  /** Replaced by a compaction that left damaged blocks out: moved to quarantine, not deleted. */
  keep?: boolean;
}

export class TsmFileSet {
  private live: LiveFile[] = [];
  private nextGen: number;
  private closed = false;
  /** Serialises replace() calls so each sees the previous one's result. */
  private queue: Promise<void> = Promise.resolve();
  private readonly pending = new Set<Promise<void>>();
  /** Replaced files whose removal failed: retried by retryRemovals, marked for the next open. */
  private readonly unremoved = new Set<string>();

  private constructor(
    readonly dir: string,
    private readonly options: TsmFileSetOptions,
    live: LiveFile[],
    nextGeneration: number,
  ) {
    this.live = live.sort((a, b) => compareFileIds(a.id, b.id));
    this.nextGen = nextGeneration;
  }

  static async open(dir: string, options: TsmFileSetOptions): Promise<TsmFileSet> {
    const { logger } = options;
    await makeDirDurable(dir);
    for (const name of await removeTempFiles(dir)) logger.info({ dir, file: name }, 'removed leftover temp file of an interrupted write');
    const marked = await removeMarkedFiles(dir, logger);
    const live: LiveFile[] = [];
    // Counts every named file, served or not, so a new file never takes the name of one left
    // in place after an I/O error.
    let maxGeneration = marked.maxGeneration;
    for (const name of (await readdir(dir)).sort()) {
      if (!name.endsWith(TSM_EXTENSION) || marked.unremoved.includes(name)) continue;
      const id = parseTsmFileName(name);
      const path = join(dir, name);
      if (!id) {
        logger.warn({ file: path }, 'ignoring .tsm file with a name not of the form <generation>-<sequence>.tsm');
        continue;
      }
      maxGeneration = Math.max(maxGeneration, id.generation);
      try {
        const reader = await TsmReader.open(path, readerOptions(options));
        live.push({ id, reader, refs: 1, obsolete: false });
      } catch (err) {
        if (err instanceof CorruptionError) await quarantine(dir, name, err, logger);
        else if (holdsNoFile(err)) logger.error({ file: path, err }, 'a TSM file name that is not a file; not serving it');
        // Its points are acknowledged: starting without them would answer queries without
        // them, and let tombstone collection forget deletes that still cover its rows.
        else throw StorageIoError.wrap(`cannot open the TSM file ${path}`, err);
      }
    }
    const set = new TsmFileSet(dir, options, live, maxGeneration + 1);
    for (const name of marked.unremoved) set.unremoved.add(join(dir, name));
    return set;
  }

  /**
   * Try again to remove replaced files whose removal failed (obsolete-files.ts); the compaction
   * service calls this every round. A no-op when there are none.
   */
  async retryRemovals(): Promise<void> {
    for (const path of [...this.unremoved]) {
      try {
        await removeObsolete(this.dir, path);
        this.unremoved.delete(path);
        this.options.logger.info({ file: path }, 'removed replaced TSM file (an earlier removal had failed)');
      } catch {
        // Still failing: logged when it first failed, tried again next round.
      }
    }
  }

  /**
   * Never hand out generations below `floor` (generations recorded elsewhere, e.g. as
   * tombstone marks, must stay "in the past" across restarts even if no file carries them).
   */
  reserveBelow(floor: number): void {
    if (this.nextGen < floor) this.nextGen = floor;
  }

  /** A new generation number for a flush (sequence 1). Never reused within this set. */
  nextGeneration(): number {
    if (this.nextGen > MAX_NAME_NUMBER) throw new InvariantError(`TSM generation counter exhausted in ${this.dir}`);
    return this.nextGen++;
  }

  /** Path of the file with this id inside the set's directory. */
  pathFor(id: TsmFileId): string {
    return join(this.dir, tsmFileName(id));
  }

  /** Live files in order, without pinning them: for planning and stats, not for reading. */
  files(): readonly TsmReader[] {
    return this.live.map((f) => f.reader);
  }

  /** Pins the current files until `release()`. */
  acquire(): TsmSnapshot {
    if (this.closed) throw new InvariantError(`acquire() on closed TSM file set ${this.dir}`);
    const pinned = [...this.live];
    for (const f of pinned) f.refs++;
    let released = false;
    return {
      files: pinned.map((f) => f.reader),
      release: () => {
        if (released) return Promise.reject(new InvariantError('TSM snapshot released twice'));
        released = true;
        let closing: Promise<void>[] | undefined;
        try {
          for (const f of pinned) {
            const done = this.unref(f);
            if (done) (closing ??= []).push(done);
          }
        } catch (err) {
          return Promise.reject(err as Error);
        }
        return closing && Promise.all(closing).then(() => undefined);
      },
    };
  }

  /** Adds published files (a flush). */
  add(...paths: string[]): Promise<void> {
    return this.replace([], paths);
  }

  /** Adds one published file whose index its writer already decoded (TsmReaderOptions.index). */
  addParsed(path: string, index: IndexTables): Promise<void> {
    const run = this.queue.then(() => this.doReplace([], [path], [], index));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Swaps `oldPaths` (live files) for `newPaths` (already published by TsmWriter.finish).
   * New snapshots see either all old or all new files, never a mix. If a new file fails to
   * open, nothing changes and the error is thrown (the old files keep serving).
   */
  replace(oldPaths: readonly string[], newPaths: readonly string[], keepPaths: readonly string[] = []): Promise<void> {
    const run = this.queue.then(() => this.doReplace(oldPaths, newPaths, keepPaths));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Drops the set's references; files pinned by snapshots close when released. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    const live = this.live;
    this.live = [];
    await Promise.all(live.map((f) => this.unref(f)));
    await Promise.all(this.pending);
  }

  private async doReplace(oldPaths: readonly string[], newPaths: readonly string[], keepPaths: readonly string[], index?: IndexTables): Promise<void> {
    if (this.closed) throw new InvariantError(`replace() on closed TSM file set ${this.dir}`);
    if (new Set(oldPaths.map((p) => resolve(p))).size !== oldPaths.length || new Set(newPaths.map((p) => resolve(p))).size !== newPaths.length) {
      throw new InvariantError('replace(): a path is listed twice');
    }
    const old = oldPaths.map((p) => {
      const f = this.live.find((l) => resolve(l.reader.path) === resolve(p));
      if (!f) throw new InvariantError(`replace(): ${p} is not a live file of ${this.dir}`);
      return f;
    });
    const ids = newPaths.map((p) => {
      const id = parseTsmFileName(basename(p));
      if (!id || resolve(dirname(p)) !== resolve(this.dir)) throw new InvariantError(`replace(): ${p} is not a TSM file name in ${this.dir}`);
      if (this.live.some((l) => compareFileIds(l.id, id) === 0)) throw new InvariantError(`replace(): ${p} is already live`);
      return id;
    });
    const added: LiveFile[] = [];
    try {
      for (const [i, p] of newPaths.entries()) {
        const id = ids[i];
        if (id === undefined) throw new InvariantError('replace(): id list out of step');
        added.push({ id, reader: await TsmReader.open(p, index ? { ...readerOptions(this.options), index } : readerOptions(this.options)), refs: 1, obsolete: false });
      }
    } catch (err) {
      await Promise.all(added.map((f) => f.reader.close()));
      throw err;
    }
    // The swap itself is synchronous: no snapshot can observe a half-replaced set.
    this.live = this.live.filter((f) => !old.includes(f)).concat(added).sort((a, b) => compareFileIds(a.id, b.id));
    for (const f of added) this.nextGen = Math.max(this.nextGen, f.id.generation + 1);
    for (const f of old) {
      f.obsolete = true;
      f.keep = keepPaths.some((p) => resolve(p) === resolve(f.reader.path));
    }
    const doomed = old.filter((f) => !f.keep).map((f) => f.reader.path);
    if (doomed.length > 0) await markObsolete(this.dir, doomed, this.options.logger);
    await Promise.all(old.map((f) => this.unref(f)));
  }

  /** Drops one reference; the file's disposal when that was the last (undefined: still referenced). */
  private unref(f: LiveFile): Promise<void> | undefined {
    f.refs--;
    if (f.refs < 0) throw new InvariantError(`TSM file ${f.reader.path} released more often than acquired`);
    if (f.refs > 0) return undefined;
    const done = this.dispose(f).finally(() => this.pending.delete(done));
    this.pending.add(done);
    return done;
  }

  private async dispose(f: LiveFile): Promise<void> {
    const { logger } = this.options;
    try {
      await f.reader.close();
      if (f.obsolete && f.keep) {
        await quarantine(this.dir, basename(f.reader.path), undefined, logger);
      } else if (f.obsolete) {
        await this.removeReplaced(f.reader.path);
      }
    } catch (err) {
      logger.error({ file: f.reader.path, err }, 'cannot close or remove replaced TSM file');
    }
  }

  /** Remove a replaced file and its marker (obsolete-files.ts); a failure is retried at each compaction round. */
  private async removeReplaced(path: string): Promise<void> {
    const { logger } = this.options;
    try {
      await removeObsolete(this.dir, path);
    } catch (err) {
      this.unremoved.add(path);
      logger.error({ file: path, err }, 'cannot remove replaced TSM file; removal retried, and at the next start');
      return;
    }
    logger.info({ file: path }, 'removed replaced TSM file');
  }
}

/**
 * A block that fails its checksum is logged once and skipped by scans (query/tsm-run.ts): the
 * file's other blocks stay served, and quarantining the whole file at the first bad read would
 * hide them too. The file stays in place (`strata inspect` exits 2) until a compaction merges it
 * without the block (compact/lane.ts) and replace() moves it to quarantine instead of deleting it.
 */
function readerOptions(options: TsmFileSetOptions): TsmReaderOptions {
  const { logger } = options;
  return { ...options, onBlockDamage: (err) => logger.error({ file: err.file, offset: err.offset, reason: err.message }, 'damaged TSM block: its points are not served') };
}

async function quarantine(dir: string, name: string, err: CorruptionError | undefined, logger: EngineLogger): Promise<void> {
  const from = join(dir, name);
  let to = join(dir, QUARANTINE_DIR, name);
  for (let n = 1; await exists(to); n++) to = join(dir, QUARANTINE_DIR, `${name}.${n}`);
  try {
    await moveFile(from, to);
    logger.warn({ file: from, quarantined: to, offset: err?.offset, reason: err?.message ?? 'damaged blocks left out by a compaction' }, 'quarantined corrupt TSM file');
  } catch (moveErr) {
    logger.error({ file: from, err: moveErr, reason: err?.message }, 'corrupt TSM file could not be quarantined; not serving it');
  }
}

/** Whether opening failed because the name holds no regular file (a directory, or gone since the listing). */
function holdsNoFile(err: unknown): boolean {
  const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EISDIR' || code === 'ENOENT';
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
