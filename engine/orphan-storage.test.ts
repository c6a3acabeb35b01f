/**
 * Start-up over storage the catalog does not name (orphan-storage.ts). With the catalog as last
 * saved, a database directory it does not name is an interrupted DROP's garbage and goes; with
 * both catalog files damaged, or the meta directory gone, the data stays and is served again.
 * Before the fix each damaged-catalog row below deleted the whole database directory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { collectingLogger } from './logger.js';
import { CATALOG_FILE, CATALOG_PREV_FILE } from './meta/store.js';
import { openTestEngine } from './testing/open-engine.js';
import { readSeries } from './testing/read-all.js';
import { tempDir } from './testing/temp-dir.js';

const T0 = 1_700_000_000_000_000_000n;
const HOUR = 3_600_000_000_000n;

const open = (root: string, logger = collectingLogger()): Promise<Engine> => openTestEngine(root, {}, { logger });

const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `m,host=a v=${from + i}i ${T0 + BigInt(from + i) * HOUR}`).join('\n');

/** Database `a` (autogen), database `b` with a second policy `week` (1 d shard groups); TSM files plus WAL-only points. */
async function populate(root: string): Promise<void> {
  const e = await open(root);
  await e.catalog.createDatabase('a');
  // What an operator's backup of meta/ alone, taken now, holds.
  await cp(join(root, 'meta'), join(root, 'meta-early'), { recursive: true });
  await e.catalog.createDatabase('b');
  await e.catalog.createRetentionPolicy('b', { name: 'week', durationSec: 7 * 86400, replicaN: 1, shardGroupDurationSec: 86400 }, false);
  const body = (n: number, from = 0) => new TextEncoder().encode(lines(n, from));
  await e.write({ db: 'a', precision: 'ns', body: body(300) });
  await e.write({ db: 'b', rp: 'week', precision: 'ns', body: body(100) });
  await e.flush();
  // In the WAL only: replay must bring these back too.
  await e.write({ db: 'a', precision: 'ns', body: body(50, 300) });
  await e.catalog.createDatabase('c');
  await e.write({ db: 'c', precision: 'ns', body: body(7) });
  // close() flushes: keep the WAL as a crash would have left it, and `c` with no directory.
  await cp(join(root, 'wal'), join(root, 'wal-at-crash'), { recursive: true });
  await e.close();
  await rm(join(root, 'wal'), { recursive: true });
  await rm(join(root, 'wal-at-crash', 'LOCK'), { force: true });
  await rename(join(root, 'wal-at-crash'), join(root, 'wal'));
  await rm(join(root, 'data', 'c'), { recursive: true });
}

async function values(e: Engine, db: string, rp?: string): Promise<number> {
  return (await readSeries(e, { db, ...(rp !== undefined && { rp }), measurement: 'm', seriesKey: 'm,host=a', field: 'v' })).length;
}

const flip = async (path: string) => {
  const b = await readFile(path);
  b[40] = b[40]! ^ 0x5a;
  await writeFile(path, b);
};

const rows: { name: string; damage: (meta: string, root: string) => Promise<void> }[] = [
  { name: 'a bit flip in catalog.json and in catalog.prev.json', damage: async (meta) => Promise.all([flip(join(meta, CATALOG_FILE)), flip(join(meta, CATALOG_PREV_FILE))]).then(() => undefined) },
  { name: 'both catalog files empty', damage: async (meta) => Promise.all([writeFile(join(meta, CATALOG_FILE), ''), writeFile(join(meta, CATALOG_PREV_FILE), '')]).then(() => undefined) },
  { name: 'meta directory lost (not restored)', damage: (meta) => rm(meta, { recursive: true }) },
  {
    // An intact catalog that predates `b`, `week` and `c`: it records no drop of them.
    name: 'meta/ alone restored from an older backup',
    damage: async (meta, root) => {
      await rm(meta, { recursive: true });
      await rename(join(root, 'meta-early'), meta);
    },
  },
];

for (const row of rows) {
  test(`catalog lost (${row.name}): databases on disk and in the WAL are adopted, no point is deleted`, async (t) => {
    const root = await tempDir(t, 'strata-orphan-');
    await populate(root);
    await row.damage(join(root, 'meta'), root);
    const logger = collectingLogger();
    const e = await open(root, logger);
    try {
      assert.deepEqual(e.catalog.databases().map((d) => d.name).sort(), ['a', 'b', 'c']);
      assert.equal(await values(e, 'a'), 350);
      assert.equal(await values(e, 'b', 'week'), 100);
      assert.equal(await values(e, 'c'), 7);
      assert.equal(await values(e, 'a'), 350);
      const week = e.catalog.database('b')?.rps.find((r) => r.name === 'week');
      assert.deepEqual(week, { name: 'week', durationSec: 0, replicaN: 1, shardGroupDurationSec: 86400 });
      assert.ok(logger.entries.some((x) => x.level === 'warn' && /adopted/.test(x.msg)), 'the adoption is logged');
      await e.write({ db: 'a', precision: 'ns', body: new TextEncoder().encode(lines(1, 1000)) });
    } finally {
      await e.close();
    }
    // The adoption was saved: the next start reads a current catalog and keeps everything.
    const again = await open(root);
    try {
      assert.equal(again.catalog.source, 'current');
      assert.equal(await values(again, 'a'), 351);
      assert.equal(await values(again, 'b', 'week'), 100);
    } finally {
      await again.close();
    }
  });
}

test('a DROP DATABASE interrupted between its catalog save and the deletion still has its directory removed', async (t) => {
  const root = await tempDir(t, 'strata-orphan-');
  await populate(root);
  const e = await openTestEngine(root);
  await e.dropDatabase('b');
  await e.close();
  // The crash: the directory the drop deleted is still there.
  await cp(join(root, 'data', 'a'), join(root, 'data', 'b'), { recursive: true });
  const again = await open(root);
  try {
    assert.equal(again.catalog.source, 'current');
    assert.deepEqual(again.catalog.databases().map((d) => d.name), ['a', 'c']);
    assert.ok(!(await readdir(join(root, 'data'))).includes('b'));
    assert.equal(await values(again, 'a'), 350);
  } finally {
    await again.close();
  }
});
