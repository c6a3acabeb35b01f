/** Directory-tree helpers for backup and restore: fsync every file and directory of a tree. */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../fs/atomic.js';

async function fsyncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** fsync every regular file below `dir`, then every directory bottom-up (including `dir`). */
export async function fsyncTree(dir: string): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await fsyncTree(p);
    else if (e.isFile()) await fsyncFile(p);
  }
  await fsyncDir(dir);
}
