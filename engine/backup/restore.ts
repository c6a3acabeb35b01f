/**
 * `restoreBackup`: replace the configured WAL, meta and data directories with a verified
 * backup, with the engine stopped. Steps, each safe to interrupt:
 *
 *   1. refuse when the WAL directory's LOCK names a live process (a server runs on it);
 *      hold that lock for the rest of the run so no server starts meanwhile;
 *   2. verify every file of the backup against manifest.json, before touching anything;
 *   3. copy each section into `<target>.restore-tmp` (previous leftovers deleted first),
 *      check each copy's checksum again, fsync files and directories;
 *   4. write the journal `<walDir>.restore-journal.json` (atomic), naming every swap;
 *   5. per target: rename `<target>` to `<target>.restore-old`, then `<target>.restore-tmp`
 *      to `<target>` (engine/fs/atomic.ts moveFile: rename + fsync of both parents);
 *   6. delete the `.restore-old` directories, then the journal.
 * Interrupted before 4: the targets are untouched; a rerun deletes the staging and starts
 * again. Interrupted after 4: a rerun finds the journal and completes the swaps first (the
 * state of each target tells which renames already happened), so a target is only ever the
 * old directory, absent for an instant, or the complete restored one. A server started
 * instead of the rerun completes the swaps too (finishInterruptedRestore, at engine open):
 * before, it opened whatever mix of old and restored directories the kill left, created an
 * empty directory for a target moved aside, and the rerun then refused to finish.
 */
import { copyFile, constants, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { moveFile, writeFileAtomic, fsyncDir } from '../fs/atomic.js';
import { lockDirectory, type DirectoryLock } from '../fs/lock.js';
import { initChecksum } from '../fs/checksum.js';
import { silentLogger, type EngineLogger } from '../logger.js';
import type { EngineDirs } from './backup.js';
import { CATALOG_FILES, remapCatalogText } from './checkpoint-meta.js';
import { BackupError } from './errors.js';
import { fsyncTree } from './fs-tree.js';
import { hashBytes } from './hash.js';
import { MANIFEST_FILE, SECTIONS, readManifest, sectionOf, verifyBackup, verifyFile, type ByteProgress, type Manifest, type Section } from './manifest.js';

export const RESTORE_TEMP_SUFFIX = '.restore-tmp';
export const RESTORE_OLD_SUFFIX = '.restore-old';
export const RESTORE_JOURNAL_SUFFIX = '.restore-journal.json';

interface Swap {
  readonly section: Section;
  readonly target: string;
  readonly staged: string;
  readonly old: string;
}

interface Journal {
  readonly format: 1;
  readonly input: string;
  /** xxhash64 of the backup's manifest.json text. */
  readonly manifest: string;
  readonly swaps: readonly Swap[];
}

export interface RestoreOptions {
  readonly logger?: EngineLogger;
  readonly onPhase?: (phase: string) => void;
  readonly onProgress?: ByteProgress;
  /** Test hook: called between steps. */
  readonly onStep?: (step: string) => Promise<void> | void;
}

export interface RestoreResult {
  readonly manifest: Manifest;
  /** An interrupted restore's swaps were completed first. */
  readonly resumed: boolean;
  /** The interrupted restore was of this same backup, so nothing else had to be done. */
  readonly completedEarlier: boolean;
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

function targetsOf(dirs: EngineDirs): Record<Section, string> {
  const t = { wal: resolve(dirs.walDir), meta: resolve(dirs.metaDir), data: resolve(dirs.dataDir) };
  for (const a of SECTIONS) {
    for (const b of SECTIONS) {
      const r = relative(t[a], t[b]);
      if (a !== b && (r === '' || (!r.startsWith('..') && !isAbsolute(r)))) {
        throw new BackupError(`cannot restore: the ${b} directory ${t[b]} is inside (or equal to) the ${a} directory ${t[a]}`);
      }
    }
  }
  return t;
}

/** Complete the swaps of an interrupted restore; idempotent. */
async function finishSwaps(journal: Journal, log: EngineLogger, onStep?: RestoreOptions['onStep']): Promise<void> {
  for (const s of journal.swaps) {
    const [staged, target, old] = await Promise.all([exists(s.staged), exists(s.target), exists(s.old)]);
    if (!staged) continue; // already in place
    if (target && old) {
      throw new BackupError(`cannot finish the interrupted restore: ${s.target}, ${s.staged} and ${s.old} all exist; was a server started meanwhile?`);
    }
    if (target) await moveFile(s.target, s.old);
    await onStep?.(`moved-aside:${s.section}`);
    await moveFile(s.staged, s.target);
    log.info({ target: s.target }, 'restore: directory swapped in');
  }
  for (const s of journal.swaps) await rm(s.old, { recursive: true, force: true });
  for (const s of journal.swaps) await fsyncDir(dirname(s.target));
}

async function stage(input: string, manifest: Manifest, swaps: readonly Swap[], source: string, targetData: string, opts: RestoreOptions): Promise<void> {
  for (const s of swaps) {
    await rm(s.staged, { recursive: true, force: true });
    await mkdir(s.staged, { recursive: true });
  }
  let done = 0;
  for (const f of manifest.files) {
    const section = sectionOf(f.path);
    const swap = swaps.find((s) => s.section === section);
    if (!swap) continue;
    const rest = f.path.split('/').slice(1);
    const from = join(input, ...f.path.split('/'));
    const to = join(swap.staged, ...rest);
    await mkdir(dirname(to), { recursive: true });
    const name = rest[rest.length - 1] ?? '';
    if (section === 'meta' && (CATALOG_FILES as readonly string[]).includes(name)) {
      const text = await readFile(from, 'utf8');
      const digest = await hashBytes(Buffer.from(text, 'utf8'));
      if (digest.xxhash64 !== f.xxhash64) throw new BackupError(`backup file ${f.path} changed while being restored`);
      await writeFile(to, remapCatalogText(text, source, targetData));
    } else {
      await copyFile(from, to, constants.COPYFILE_FICLONE);
      await verifyFile(to, f);
    }
    done += f.size;
    opts.onProgress?.(done, manifest.totalBytes, f.path);
    await opts.onStep?.(`file:${f.path}`);
  }
  for (const s of swaps) await fsyncTree(s.staged);
}

/**
 * Completes the swaps of a restore interrupted after its journal was written, as a rerun of
 * `strata restore` would (without restoring anything else); false when there is no journal.
 * Takes the WAL directory's lock first, so a restore still running is never raced.
 */
export async function finishInterruptedRestore(walDir: string, log: EngineLogger): Promise<boolean> {
  const target = resolve(walDir);
  const journalPath = target + RESTORE_JOURNAL_SUFFIX;
  if (!(await exists(journalPath))) return false;
  const lock = (await exists(target)) ? await lockDirectory(target, log) : undefined;
  try {
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
    log.warn({ journal: journalPath, input: journal.input }, 'completing an interrupted restore before start-up');
    await finishSwaps(journal, log);
    await rm(journalPath, { force: true });
    await fsyncDir(dirname(journalPath));
    return true;
  } finally {
    await lock?.release();
  }
}

/** Restore the backup in `input` over `dirs`. The engine must be stopped. */
export async function restoreBackup(input: string, dirs: EngineDirs, opts: RestoreOptions = {}): Promise<RestoreResult> {
  const log = opts.logger ?? silentLogger;
  const step = async (name: string) => {
    opts.onPhase?.(name);
    await opts.onStep?.(name);
  };
  await initChecksum();
  const src = resolve(input);
  const t = targetsOf(dirs);
  const journalPath = t.wal + RESTORE_JOURNAL_SUFFIX;

  let lock: DirectoryLock | undefined;
  if (await exists(t.wal)) lock = await lockDirectory(t.wal, log);
  try {
    const manifestText = await readFile(join(src, MANIFEST_FILE)).catch(() => undefined);
    const manifestDigest = manifestText ? (await hashBytes(manifestText)).xxhash64 : '';
    let resumed = false;
    if (await exists(journalPath)) {
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
      log.warn({ journal: journalPath, input: journal.input }, 'restore: completing an interrupted restore');
      await step('resume');
      await finishSwaps(journal, log);
      await rm(journalPath, { force: true });
      resumed = true;
      if (journal.input === src && journal.manifest === manifestDigest) {
        const manifest = await readManifest(src);
        return { manifest, resumed, completedEarlier: true };
      }
    }
    await step('verify');
    const manifest = await verifyBackup(src, opts.onProgress);
    const swaps: Swap[] = SECTIONS.map((section) => ({
      section,
      target: t[section],
      staged: t[section] + RESTORE_TEMP_SUFFIX,
      old: t[section] + RESTORE_OLD_SUFFIX,
    }));
    // Leftovers of an earlier run that never reached its journal are superseded.
    for (const s of swaps) await rm(s.old, { recursive: true, force: true });
    await step('copy');
    await stage(src, manifest, swaps, manifest.source.dataDir, dirs.dataDir, opts);
    const journal: Journal = { format: 1, input: src, manifest: manifestDigest, swaps };
    await step('journal');
    await writeFileAtomic(journalPath, JSON.stringify(journal, null, 2) + '\n');
    await step('swap');
    await finishSwaps(journal, log, opts.onStep);
    await rm(journalPath, { force: true });
    await fsyncDir(dirname(journalPath));
    log.info({ input: src, files: manifest.files.length }, 'restore finished');
    return { manifest, resumed, completedEarlier: false };
  } finally {
    await lock?.release();
  }
}
