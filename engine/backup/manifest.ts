/**
 * `manifest.json` of a backup directory: what was copied from where, the WAL sequence the
 * copied WAL ends at, and the xxhash64 and size of every file. It is written last, so a
 * directory without one is not a backup (an interrupted run leaves only `<out>.backup-tmp`).
 *
 *   <backup>/manifest.json
 *   <backup>/wal/<20-digit seq>.wal          WAL checkpoint (valid records only)
 *   <backup>/meta/catalog.json[, catalog.prev.json]
 *   <backup>/data/<db>/series.log            cut at the last complete record
 *   <backup>/data/<db>/<rp>/<start>_<span>/<gen>-<seq>.tsm
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { BackupChecksumError, BackupError } from './errors.js';
import { hashFile, type FileDigest } from './hash.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;
/** The three sections of a backup and the configured directory each one restores. */
export const SECTIONS = ['wal', 'meta', 'data'] as const;
export type Section = (typeof SECTIONS)[number];

export interface ManifestFile extends FileDigest {
  /** Relative to the backup directory, `/`-separated, starting with a section name. */
  readonly path: string;
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly createdAt: string;
  /** Highest WAL sequence in (or implied by the names of) the copied WAL, decimal. */
  readonly walLastSeq: string;
  /** The engine directories the backup was taken from. */
  readonly source: { readonly walDir: string; readonly metaDir: string; readonly dataDir: string };
  readonly files: readonly ManifestFile[];
  readonly totalBytes: number;
}

export function sectionOf(path: string): Section {
  const head = path.split('/')[0];
  const s = SECTIONS.find((x) => x === head);
  if (!s) throw new BackupError(`manifest lists ${path}, outside wal/, meta/ and data/`);
  return s;
}

/** Read and validate the manifest of `dir` (structure and paths, not the file contents). */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    throw new BackupError(`${dir} is not a backup: cannot read ${MANIFEST_FILE} (${(err as Error).message})`, { cause: err });
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch (err) {
    throw new BackupError(`${join(dir, MANIFEST_FILE)} is not valid JSON`, { cause: err });
  }
  if (m.format !== MANIFEST_FORMAT || !Array.isArray(m.files) || typeof m.walLastSeq !== 'string') {
    throw new BackupError(`${join(dir, MANIFEST_FILE)}: unknown manifest format ${String(m.format)}`);
  }
  for (const f of m.files) {
    const p = normalize(f.path);
    if (typeof f.path !== 'string' || isAbsolute(f.path) || p.startsWith('..') || p.split(sep).includes('..')) {
      throw new BackupError(`manifest lists an unsafe path ${JSON.stringify(f.path)}`);
    }
    if (!Number.isSafeInteger(f.size) || !/^[0-9a-f]{16}$/.test(f.xxhash64)) throw new BackupError(`manifest entry for ${f.path} is malformed`);
    sectionOf(f.path);
  }
  return m;
}

export type ByteProgress = (doneBytes: number, totalBytes: number, file: string) => void;

/** Check one file against its manifest entry; throws BackupChecksumError. */
export async function verifyFile(path: string, entry: ManifestFile): Promise<void> {
  let got: FileDigest;
  try {
    got = await hashFile(path);
  } catch (err) {
    throw new BackupChecksumError(entry.path, `cannot read: ${(err as Error).message}`);
  }
  if (got.size !== entry.size) throw new BackupChecksumError(entry.path, `size ${got.size}, manifest says ${entry.size}`);
  if (got.xxhash64 !== entry.xxhash64) throw new BackupChecksumError(entry.path, `xxhash64 ${got.xxhash64}, manifest says ${entry.xxhash64}`);
}

/** Verify every file of the backup in `dir` against its manifest; returns the manifest. */
export async function verifyBackup(dir: string, onProgress?: ByteProgress): Promise<Manifest> {
  const m = await readManifest(dir);
  let done = 0;
  for (const f of m.files) {
    await verifyFile(join(dir, ...f.path.split('/')), f);
    done += f.size;
    onProgress?.(done, m.totalBytes, f.path);
  }
  return m;
}
