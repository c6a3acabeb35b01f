/**
 * Library-level backup/restore behaviour (the process-level kill tests are in cli/):
 * tombstones stay effective when a backup is restored under another data directory,
 * a tampered backup is refused before anything is touched, and an interrupted swap (every
 * step of it) is completed by the next run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import { createBackup, type EngineDirs } from './backup.js';
import { BackupChecksumError } from './errors.js';
import { RESTORE_JOURNAL_SUFFIX, RESTORE_OLD_SUFFIX, RESTORE_TEMP_SUFFIX, restoreBackup } from './restore.js';
import { tempDir } from '../testing/temp-dir.js';

const dirsIn = (root: string): EngineDirs => ({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data') });
const open = (d: EngineDirs) => Engine.open(engineOptions({ ...d, flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 1, maxFileBytes: 1 << 30 } }));
const body = (lines: string[]) => Buffer.from(lines.join('\n'));
const times = async (e: Engine, host: string) =>
  (await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,host=${host}`, field: 'v' })).map(([t]) => Number(t));

async function sourceWithDelete(root: string): Promise<EngineDirs> {
  const d = dirsIn(join(root, 'src'));
  const e = await open(d);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: body(['1', '2', '3', '4'].flatMap((t) => [`m,host=a v=1 ${t}`, `m,host=b v=1 ${t}`])) });
  await e.flush(); // rows in a TSM file, then hidden by a tombstone with a file-generation mark
  await e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs: 2n, maxNs: 3n, dropSeries: false });
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=a v=2 5']) }); // stays in the WAL
  await e.close();
  return d;
}

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name !== 'LOCK') out.push(join(e.parentPath, e.name).slice(dir.length) + ':' + readFileSync(join(e.parentPath, e.name)).toString('base64'));
  }
  return out.sort();
}

test('a restore under another data directory keeps deleted rows hidden', async (t) => {
  const root = await tempDir(t, 'strata-bk-');
  const src = await sourceWithDelete(root);
  await createBackup(src, join(root, 'bk'));
  const dst = dirsIn(join(root, 'elsewhere', 'deeper'));
  const r = await restoreBackup(join(root, 'bk'), dst);
  assert.equal(r.resumed, false);
  const e = await open(dst);
  try {
    assert.deepEqual(await times(e, 'a'), [1, 4, 5]);
    assert.deepEqual(await times(e, 'b'), [1, 2, 3, 4]);
  } finally {
    await e.close();
  }
});

test('a tampered backup is refused before the targets are touched', async (t) => {
  const root = await tempDir(t, 'strata-bk-');
  const src = await sourceWithDelete(root);
  const { manifest } = await createBackup(src, join(root, 'bk'));
  const tsm = manifest.files.find((f) => f.path.endsWith('.tsm'))!;
  const path = join(root, 'bk', ...tsm.path.split('/'));
  const bytes = await readFile(path);
  bytes[20] = bytes[20]! ^ 1;
  await writeFile(path, bytes);
  const before = await tree(join(root, 'src'));
  await assert.rejects(restoreBackup(join(root, 'bk'), src), (err: unknown) => err instanceof BackupChecksumError && err.file === tsm.path);
  assert.deepEqual(await tree(join(root, 'src')), before);
  for (const d of Object.values(src) as string[]) assert.ok(!existsSync(d + RESTORE_TEMP_SUFFIX));
});

test('a restore stopped at any step is completed by the next run', async (t) => {
  const root = await tempDir(t, 'strata-bk-');
  const src = await sourceWithDelete(root);
  await createBackup(src, join(root, 'bk'));
  const steps: string[] = [];
  await restoreBackup(join(root, 'bk'), dirsIn(join(root, 'probe')), { onStep: (s) => void steps.push(s) });
  assert.ok(steps.includes('moved-aside:data') && steps.includes('journal'));

  const expected = await tree(join(root, 'probe'));
  for (const stopAt of steps) {
    const dst = dirsIn(join(root, `t-${steps.indexOf(stopAt)}`));
    // Something to replace: an older state of the target.
    const e = await open(dst);
    await e.catalog.createDatabase('other');
    await e.close();
    const crash = new Error(`stopped at ${stopAt}`);
    await assert.rejects(
      restoreBackup(join(root, 'bk'), dst, {
        onStep: (s) => {
          if (s === stopAt) throw crash;
        },
      }),
      (err) => err === crash,
    );
    const journal = existsSync(dst.walDir + RESTORE_JOURNAL_SUFFIX);
    const again = await restoreBackup(join(root, 'bk'), dst);
    assert.equal(again.resumed, journal, stopAt);
    // The catalog differs only in the remapped tombstone marks; the engine check covers it.
    const noCatalog = (t: string[]) => t.filter((l) => !l.startsWith('/meta/'));
    assert.deepEqual(noCatalog(await tree(join(root, `t-${steps.indexOf(stopAt)}`))), noCatalog(expected), `stopped at ${stopAt}`);
    const restored = await open(dst);
    try {
      assert.deepEqual(await times(restored, 'a'), [1, 4, 5], stopAt);
      assert.equal(restored.catalog.database('other'), undefined, stopAt);
    } finally {
      await restored.close();
    }
    for (const d of Object.values(dst) as string[]) {
      assert.ok(!existsSync(d + RESTORE_TEMP_SUFFIX) && !existsSync(d + RESTORE_OLD_SUFFIX), `${stopAt}: leftovers next to ${d}`);
    }
  }
});

test('a restore stopped at any step, then a server started instead of the rerun: old state or restored state, never a mix', async (t) => {
  const root = await tempDir(t, 'strata-bk-');
  const src = await sourceWithDelete(root);
  await createBackup(src, join(root, 'bk'));
  const steps: string[] = [];
  await restoreBackup(join(root, 'bk'), dirsIn(join(root, 'probe')), { onStep: (s) => void steps.push(s) });
  for (const stopAt of steps.filter((s) => !s.startsWith('file:'))) {
    const dst = dirsIn(join(root, `s-${steps.indexOf(stopAt)}`));
    const e = await open(dst);
    await e.catalog.createDatabase('other');
    await e.close();
    const crash = new Error(`stopped at ${stopAt}`);
    await assert.rejects(restoreBackup(join(root, 'bk'), dst, { onStep: (s) => { if (s === stopAt) throw crash; } }), (err) => err === crash);
    const journal = existsSync(dst.walDir + RESTORE_JOURNAL_SUFFIX);
    // Before: a kill after `moved-aside:*` left a target missing; the engine created it empty,
    // served the old catalog over the restored WAL (or the reverse), and the rerun then
    // refused to finish ("was a server started meanwhile?").
    const started = await open(dst);
    try {
      if (journal) {
        assert.deepEqual(await times(started, 'a'), [1, 4, 5], stopAt);
        assert.equal(started.catalog.database('other'), undefined, stopAt);
      } else {
        assert.ok(started.catalog.database('other'), stopAt);
        assert.equal(started.catalog.database('db'), undefined, stopAt);
      }
    } finally {
      await started.close();
    }
    assert.ok(!existsSync(dst.walDir + RESTORE_JOURNAL_SUFFIX), stopAt);
    for (const d of Object.values(dst) as string[]) assert.ok(!existsSync(d + RESTORE_OLD_SUFFIX), `${stopAt}: ${d}${RESTORE_OLD_SUFFIX} left`);
    // A rerun afterwards still restores.
    await restoreBackup(join(root, 'bk'), dst);
    const rerun = await open(dst);
    try {
      assert.deepEqual(await times(rerun, 'a'), [1, 4, 5], stopAt);
    } finally {
      await rerun.close();
    }
  }
});
