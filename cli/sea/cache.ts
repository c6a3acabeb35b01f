/**
 * Where the single executable (`dist/strata`, see cli/sea/build.mjs) unpacks what it cannot run
 * from inside itself: the ESM bundle of the program and the native addons (uWS, lz4-napi), which
 * Node can only load from a file (`process.dlopen`).
 *
 * Layout: `<root>/<id>/` where `<id>` is `<version>-<hash of every asset>`, so a rebuilt binary
 * never reuses a stale file and two binaries of different builds share nothing. `<root>` is the
 * first usable of:
 *   1. `$STRATA_CACHE_DIR` (if set, it is the only candidate: a failure there is an error),
 *   2. `$XDG_CACHE_HOME/strata`,
 *   3. `$HOME/.cache/strata`,
 *   4. `<os tmpdir>/strata-<uid>` (created 0700 and required to be ours).
 *
 * Each file is written to a private temporary name and then hard-linked to its final name, so a
 * file that exists under its final name is complete, and two processes starting at once for the
 * first time cannot see each other's half-written files (the second link fails with EEXIST and
 * the first one's file is used).
 */
import { closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One file of the manifest: the SEA asset key it comes from, its name in the cache dir, its size. */
export interface CacheFile {
  readonly asset: string;
  readonly name: string;
  readonly size: number;
}

/** Written by cli/sea/build.mjs as the SEA asset `manifest.json`. */
export interface SeaManifest {
  readonly version: string;
  /** `<version>-<hash>`: the cache sub-directory. */
  readonly id: string;
  /** File name (in the cache dir) of the ESM bundle to import. */
  readonly entry: string;
  /** Addon name (as the bundle asks for it, e.g. `uws`) → file name in the cache dir. */
  readonly addons: Readonly<Record<string, string>>;
  readonly files: readonly CacheFile[];
}

export class SeaCacheError extends Error {
  override name = 'SeaCacheError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** Candidate cache roots, best first; `strict` when the user named one explicitly. */
export function cacheRoots(env: Env, uid: number, tmp: string = tmpdir()): { roots: string[]; strict: boolean } {
  const explicit = env['STRATA_CACHE_DIR'];
  if (explicit) return { roots: [explicit], strict: true };
  const roots: string[] = [];
  if (env['XDG_CACHE_HOME']) roots.push(join(env['XDG_CACHE_HOME'], 'strata'));
  if (env['HOME']) roots.push(join(env['HOME'], '.cache', 'strata'));
  roots.push(join(tmp, `strata-${uid}`));
  return { roots, strict: false };
}

function ensureDir(dir: string, uid: number, mustOwn: boolean): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new SeaCacheError(`${dir} is not a directory`);
  // In a shared temporary directory another user could have made the directory first and
  // planted a library for us to load: refuse anything not ours or writable by others.
  if (mustOwn && uid >= 0 && (st.uid !== uid || (st.mode & 0o022) !== 0)) {
    throw new SeaCacheError(`${dir} is not owned by this user or is writable by others`);
  }
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function publish(dir: string, file: CacheFile, read: (asset: string) => Uint8Array): void {
  const final = join(dir, file.name);
  const have = sizeOf(final);
  if (have === file.size) return;
  if (have !== undefined) unlinkSync(final); // wrong size: not ours, or damaged; replace it
  const bytes = read(file.asset);
  if (bytes.byteLength !== file.size) {
    throw new SeaCacheError(`asset ${file.asset} has ${bytes.byteLength} bytes, the manifest says ${file.size}`);
  }
  const tmp = join(dir, `.${file.name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    let off = 0;
    while (off < bytes.byteLength) off += writeSync(fd, bytes, off, bytes.byteLength - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, final);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // another process published it first; its file is complete (it was linked after its fsync)
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Make sure every manifest file is in `<root>/<manifest.id>/` for the first usable root and
 * return that directory. `read(asset)` returns an asset's bytes (`sea.getRawAsset`).
 */
export function ensureExtracted(
  manifest: SeaManifest,
  read: (asset: string) => Uint8Array,
  env: Env,
  uid: number = process.getuid?.() ?? -1,
  tmp: string = tmpdir(),
): string {
  const { roots, strict } = cacheRoots(env, uid, tmp);
  const failures: string[] = [];
  for (const root of roots) {
    try {
      ensureDir(root, uid, root === join(tmp, `strata-${uid}`));
      const dir = join(root, manifest.id);
      ensureDir(dir, uid, false);
      for (const file of manifest.files) publish(dir, file, read);
      return dir;
    } catch (err) {
      failures.push(`${root}: ${(err as Error).message}`);
      if (strict) break;
    }
  }
  throw new SeaCacheError(
    `cannot unpack the native libraries to a cache directory (set STRATA_CACHE_DIR to a writable directory on a filesystem that allows executable mappings):\n  ${failures.join('\n  ')}`,
  );
}
