import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectingLogger } from '../logger.js';
import { DirectoryLockedError, LOCK_FILE, lockDirectory } from './lock.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

const lockDir = (t: CleanupScope) => tempDir(t, 'strata-lock-');
const LOCK_JS = new URL('./lock.js', import.meta.url).href;

/** A real second process holding the lock on `dir` until killed. */
async function childHoldingLock(dir: string) {
  const script = `const { lockDirectory } = await import(${JSON.stringify(LOCK_JS)});
await lockDirectory(${JSON.stringify(dir)});
process.stdout.write('locked\\n');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new assert.AssertionError({ message: `lock holder exited early (${code})` })));
  });
  return { pid: child.pid ?? -1, kill: async () => (child.kill('SIGKILL'), await exited) };
}

test('a directory locked by a live process is refused with DirectoryLockedError naming dir and pid', async (t) => {
  const dir = await lockDir(t);
  const holder = await childHoldingLock(dir);
  try {
    const err = await lockDirectory(dir).then(
      () => assert.fail('second lock must fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DirectoryLockedError);
    assert.equal(err.status, 500);
    assert.equal(err.code, 'directory_locked');
    assert.equal(err.pid, holder.pid);
    assert.match(err.message, new RegExp(`${dir}.*${holder.pid}`));
  } finally {
    await holder.kill();
  }

  // The holder died without releasing: its lock is stale and taken over, with a warning.
  const log = collectingLogger();
  const lock = await lockDirectory(dir, log);
  assert.equal((await readFile(join(dir, LOCK_FILE), 'utf8')).trim(), String(process.pid));
  assert.ok(log.entries.some((e) => e.level === 'warn' && /stale/.test(e.msg)));
  await lock.release();
  assert.deepEqual(await readdir(dir), []);
});

test('the same process cannot take a lock it already holds; release is idempotent', async (t) => {
  const dir = await lockDir(t);
  const lock = await lockDirectory(dir);
  await assert.rejects(lockDirectory(dir), DirectoryLockedError);
  await lock.release();
  await lock.release();
  const again = await lockDirectory(dir);
  await again.release();
});

test('a LOCK with our own PID that we did not take (container restart as PID 1) or garbage is stale', async (t) => {
  for (const content of [`${process.pid}\n`, '', 'not a pid']) {
    const dir = await lockDir(t);
    await writeFile(join(dir, LOCK_FILE), content);
    const lock = await lockDirectory(dir);
    assert.equal((await readFile(join(dir, LOCK_FILE), 'utf8')).trim(), String(process.pid));
    await lock.release();
  }
});

test('release leaves a lock that is no longer ours alone', async (t) => {
  const dir = await lockDir(t);
  const lock = await lockDirectory(dir);
  await writeFile(join(dir, LOCK_FILE), '1\n');
  await lock.release();
  assert.equal(await readFile(join(dir, LOCK_FILE), 'utf8'), '1\n');
});

test('a directory where the LOCK file belongs is moved aside with a warning, and the lock is taken', async (t) => {
  const dir = await lockDir(t);
  await mkdir(join(dir, LOCK_FILE));
  await writeFile(join(dir, LOCK_FILE, 'kept'), 'x');
  const logger = collectingLogger();
  // Before: EISDIR, so the server never started on this directory.
  const lock = await lockDirectory(dir, logger);
  try {
    assert.equal((await readFile(join(dir, LOCK_FILE), 'utf8')).trim(), String(process.pid));
    const aside = (await readdir(dir)).find((n) => n.endsWith('.not-a-file'));
    assert.ok(aside, 'moved aside, not deleted');
    assert.deepEqual(await readdir(join(dir, aside)), ['kept']);
    assert.ok(logger.entries.some((e) => e.level === 'warn' && /not a file/.test(e.msg)));
  } finally {
    await lock.release();
  }
});
