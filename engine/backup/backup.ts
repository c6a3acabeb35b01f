/**
 * `createBackup`: a consistent copy of a running (or stopped) engine's WAL, meta and data
 * directories, read without the engine's cooperation.
 *
 * Consistency argument (every point acknowledged before the backup began is restored):
 * the copies run in the order meta → WAL → data. A point P acknowledged before the start
 * was fsynced into a WAL segment, and its database and retention policy were in the catalog,
 * so the meta copy has them. When the WAL copy reaches P's segment, either
 *   (a) the segment still exists: P's record is complete and is copied (checkpoint-wal.ts),
 *       and replay on restore puts it back (re-registering its series); or
 *   (b) the segment was truncated: the flusher deletes a segment only after the TSM files
 *       holding its entries were published and the series logs fsynced. Those files (or the
 *       outputs of a later compaction, published before its inputs go) are therefore on disk
 *       before the data copy starts, and the data copy takes them (checkpoint-data.ts).
 * Points written during the backup may or may not be included; replaying the copied WAL
 * over newer TSM files puts the WAL's (older) value back for a timestamp rewritten meanwhile.
 * A DELETE or DROP issued during the backup may or may not be reflected; a DELETE whose
 * tombstone the catalog still holds when the data copy ends hides the rows of the older files
 * taken (the catalog copy gets it afterwards: addLaterTombstones in checkpoint-meta.ts).
 *
 * Crash safety: everything is written into `<output>.backup-tmp`, fsynced, then
 * `manifest.json` is written and the directory renamed to `<output>`. An interrupted run
 * leaves no `<output>`; the next run deletes the leftover and starts over.
 */
import { mkdir, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { moveFile, writeFileAtomic } from '../fs/atomic.js';
import { silentLogger, type EngineLogger } from '../logger.js';
import { checkpointData } from './checkpoint-data.js';
import { addLaterTombstones, checkpointMeta } from './checkpoint-meta.js';
import { checkpointWal } from './checkpoint-wal.js';
import { BackupError } from './errors.js';
import { fsyncTree } from './fs-tree.js';
import { hashFile } from './hash.js';
import { MANIFEST_FILE, MANIFEST_FORMAT, type ByteProgress, type Manifest, type ManifestFile } from './manifest.js';

export interface EngineDirs {
  readonly walDir: string;
  readonly metaDir: string;
  readonly dataDir: string;
}

export const BACKUP_TEMP_SUFFIX = '.backup-tmp';

export interface BackupOptions {
  readonly logger?: EngineLogger;
  /** Called when a phase starts ('meta', 'wal', 'data', 'checksum', 'sync'). */
  readonly onPhase?: (phase: string) => void;
  /** Checksum progress in bytes. */
  readonly onProgress?: ByteProgress;
  /** Test hook: called between steps, so a test can stop the process at a chosen point. */
  readonly onStep?: (step: string) => Promise<void> | void;
}

export interface BackupResult {
  readonly dir: string;
  readonly manifest: Manifest;
  readonly walEntries: number;
  readonly linked: number;
  readonly copied: number;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

export async function createBackup(source: EngineDirs, output: string, options: BackupOptions = {}): Promise<BackupResult> {
  const log = options.logger ?? silentLogger;
  const step = async (name: string) => {
    options.onPhase?.(name);
    await options.onStep?.(name);
  };
  const out = resolve(output);
  for (const dir of [source.walDir, source.metaDir, source.dataDir]) {
    const r = relative(resolve(dir), out);
    if (r === '' || (!r.startsWith('..') && !isAbsolute(r))) throw new BackupError(`backup output ${out} must not be inside ${resolve(dir)}`);
  }
  if (!(await isEmptyOrMissing(out))) throw new BackupError(`backup output ${out} exists and is not empty`);
  const tmp = out + BACKUP_TEMP_SUFFIX;
  await rm(tmp, { recursive: true, force: true });
  for (const s of ['wal', 'meta', 'data']) await mkdir(join(tmp, s), { recursive: true });

  await step('meta');
  const metaFiles = await checkpointMeta(source.metaDir, join(tmp, 'meta'), log);
  await step('wal');
  const wal = await checkpointWal(source.walDir, join(tmp, 'wal'), log);
  await step('data');
  const data = await checkpointData(source.dataDir, join(tmp, 'data'), log);
  await addLaterTombstones(source.metaDir, join(tmp, 'meta'), metaFiles, log);

  await step('checksum');
  const rel = [...metaFiles.map((f) => `meta/${f}`), ...wal.files.map((f) => `wal/${f}`), ...data.files.map((f) => `data/${f}`)];
  const files: ManifestFile[] = [];
  let expected = 0;
  for (const path of rel) expected += (await stat(join(tmp, ...path.split('/')))).size;
  let total = 0;
  for (const path of rel) {
    const digest = await hashFile(join(tmp, ...path.split('/')));
    files.push({ path, ...digest });
    total += digest.size;
    options.onProgress?.(total, Math.max(total, expected), path);
    await options.onStep?.(`file:${path}`);
  }
  await step('sync');
  await fsyncTree(tmp);
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    createdAt: new Date().toISOString(),
    walLastSeq: wal.lastSeq.toString(),
    source: { walDir: source.walDir, metaDir: source.metaDir, dataDir: source.dataDir },
    files,
    totalBytes: total,
  };
  await writeFileAtomic(join(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  await step('publish');
  await rmdir(out).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await mkdir(dirname(out), { recursive: true });
  await moveFile(tmp, out);
  log.info({ dir: out, files: files.length, bytes: total, walLastSeq: manifest.walLastSeq }, 'backup written');
  return { dir: out, manifest, walEntries: wal.entries, linked: data.linked, copied: data.copied };
}
