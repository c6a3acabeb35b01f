/**
 * Durable removal of a shard directory. A recursive delete is not atomic: a crash halfway
 * would leave `<rp>/<start>_<span>/` with some of its TSM files, which start-up would load as
 * a live shard. So the directory is first renamed (atomically, directory fsynced) to
 * `<start>_<span>.dropped`, a name the shard loader does not recognise as a shard, and only
 * then deleted. Leftover `.dropped` directories of an interrupted run are deleted by the next
 * retention run (`sweepDropped`); until then they are ignored at start-up.
 */
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncDir, moveFile } from '../fs/atomic.js';

export const DROPPED_SUFFIX = '.dropped';

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Remove `dir` so that a crash at any point leaves either the whole shard or no shard. */
export async function dropShardDir(dir: string): Promise<void> {
  const trash = dir + DROPPED_SUFFIX;
  await rm(trash, { recursive: true, force: true });
  try {
    await moveFile(dir, trash);
  } catch (err) {
    if (isMissing(err)) return; // never flushed: nothing on disk
    throw err;
  }
  await rm(trash, { recursive: true, force: true });
  await fsyncDir(dirname(dir));
}

/** Delete the `.dropped` leftovers in a retention policy directory; returns their names. */
export async function sweepDropped(rpDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(rpDir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const swept = names.filter((n) => n.endsWith(DROPPED_SUFFIX));
  for (const name of swept) await rm(join(rpDir, name), { recursive: true, force: true });
  if (swept.length > 0) await fsyncDir(rpDir);
  return swept;
}
