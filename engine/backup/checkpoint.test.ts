/**
 * The two races the backup's consistency argument rests on, made deterministic with the
 * checkpoint seams: a compaction that replaces the listed TSM files before they are linked,
 * and a flush that truncates the listed WAL segment before it is copied. Either way the
 * copies still hold every point.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { silentLogger } from '../logger.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import type { EngineDirs } from './backup.js';
import { checkpointData } from './checkpoint-data.js';
import { addLaterTombstones, checkpointMeta } from './checkpoint-meta.js';
import { checkpointWal } from './checkpoint-wal.js';
import { tempDir } from '../testing/temp-dir.js';

const dirsIn = (root: string): EngineDirs => ({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data') });
const open = (d: EngineDirs) => Engine.open(engineOptions({ ...d, flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 1, maxFileBytes: 1 << 30 } }));
const batch = (from: number) => Buffer.from(Array.from({ length: 100 }, (_, i) => `m,host=h${i % 3} v=${from + i} ${from + i}`).join('\n'));

async function count(d: EngineDirs): Promise<number> {
  const e = await open(d);
  try {
    let n = 0;
    for (const h of ['h0', 'h1', 'h2']) n += (await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,host=${h}`, field: 'v' })).length;
    return n;
  } finally {
    await e.close();
  }
}

async function copyDirs(root: string): Promise<EngineDirs> {
  const d = dirsIn(root);
  for (const dir of Object.values(d) as string[]) await mkdir(dir, { recursive: true });
  return d;
}

/** An engine over fresh directories whose database holds 300 points in three flushed files. */
async function threeFlushes(t: TestContext): Promise<{ root: string; src: EngineDirs; e: Engine }> {
  const root = await tempDir(t, 'strata-ckpt-');
  const src = dirsIn(join(root, 'src'));
  const e = await open(src);
  await e.catalog.createDatabase('db');
  for (let k = 0; k < 3; k++) {
    await e.write({ db: 'db', precision: 'ns', body: batch(k * 100) });
    await e.flush();
  }
  return { root, src, e };
}

test('TSM files compacted away between listing and linking: the outputs are taken instead', async (t) => {
  const { root, src, e } = await threeFlushes(t);
  const dst = await copyDirs(join(root, 'dst'));
  await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  const listings: string[][] = [];
  const result = await checkpointData(src.dataDir, dst.dataDir, silentLogger, async (_dir, names) => {
    listings.push([...names]);
    if (listings.length === 1) await e.compactor.runOnce(); // replaces every listed file
  });
  assert.equal(e.compactor.counters.compactions, 1);
  await e.close();
  assert.equal(listings.length, 2, 'listed again after a file vanished');
  assert.equal(listings[0]!.length, 3);
  assert.ok(listings[1]!.every((n) => !listings[0]!.includes(n)), 'the second listing holds only the outputs');
  assert.ok(result.files.some((f) => f.endsWith(listings[1]![0]!)));
  assert.equal(await count(dst), 300);
});

test('inputs a compaction replaced but a query still reads (marked obsolete) are left out: the backup holds the output alone', async (t) => {
  const { root, src, e } = await threeFlushes(t);
  const pinned = e.allShards()[0]!.files!.acquire();
  await e.compactor.runOnce();
  assert.equal(e.compactor.counters.compactions, 1);
  const dst = await copyDirs(join(root, 'dst'));
  await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  const result = await checkpointData(src.dataDir, dst.dataDir, silentLogger);
  await pinned.release();
  await e.close();
  const tsm = result.files.filter((f) => f.endsWith('.tsm'));
  assert.equal(tsm.length, 1, tsm.join(' '));
  assert.ok(!pinned.files.some((r) => tsm.some((f) => r.path.endsWith(f.split('/').at(-1)!))), 'an input was taken');
  assert.equal(await count(dst), 300);
});

test('a WAL segment truncated between listing and copying: its points are in the data copy', async (t) => {
  const root = await tempDir(t, 'strata-ckpt-');
  const src = dirsIn(join(root, 'src'));
  const e = await open(src);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: batch(0) });
  await e.write({ db: 'db', precision: 'ns', body: batch(100) });
  const dst = await copyDirs(join(root, 'dst'));
  await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  const wal = await checkpointWal(src.walDir, dst.walDir, silentLogger, async (names) => {
    assert.equal(names.length, 1);
    await e.flush(); // TSM file published, series log synced, then the segment deleted
  });
  assert.equal(wal.entries, 0);
  assert.equal(wal.lastSeq, 0n, 'the truncated segment started at seq 1');
  await checkpointData(src.dataDir, dst.dataDir, silentLogger);
  await e.write({ db: 'db', precision: 'ns', body: batch(200) }); // after the backup: not required
  await e.close();
  assert.equal(await count(dst), 200);
  assert.ok((await readdir(dst.walDir)).length <= 1);
});

test('a WAL segment truncated after an older one was copied: the older copy is dropped, the newer value in the data copy wins', async (t) => {
  const root = await tempDir(t, 'strata-ckpt-');
  const src = dirsIn(join(root, 'src'));
  // 1 KiB segments: each body below starts a segment of its own.
  const e = await Engine.open(engineOptions({ ...src, flushIntervalSec: 0, wal: { segmentSizeBytes: 1024, batchSize: 64, batchDelayUs: 200 }, compaction: { intervalMs: 0, coldAfterMs: 1, maxFileBytes: 1 << 30 } }));
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: batch(0) });
  // The same 100 timestamps rewritten: values 1000 higher.
  await e.write({ db: 'db', precision: 'ns', body: Buffer.from(Array.from({ length: 100 }, (_, i) => `m,host=h${i % 3} v=${1000 + i} ${i}`).join('\n')) });
  const dst = await copyDirs(join(root, 'dst'));
  await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  const opened: string[] = [];
  const wal = await checkpointWal(src.walDir, dst.walDir, silentLogger, undefined, async (name) => {
    opened.push(name);
    if (opened.length === 2) await e.flush(); // both bodies to a TSM file, then every segment deleted
  });
  assert.ok(opened.length >= 2, `the bodies share a segment: ${opened.join(' ')}`);
  await checkpointData(src.dataDir, dst.dataDir, silentLogger);
  await e.close();
  const restored = await open(dst);
  try {
    const values = (await readSeries(restored, { db: 'db', measurement: 'm', seriesKey: 'm,host=h0', field: 'v' })).map(([, v]) => v as number);
    assert.equal(values.length, 34);
    assert.ok(values.every((v) => v >= 1000), `older values came back: ${values.filter((v) => v < 1000).join(' ')}`);
  } finally {
    await restored.close();
  }
  assert.equal(wal.entries, 0, 'the copy of the first segment was dropped');
});

test('a DELETE answered during the copy whose rows a compaction purged from the newer files taken: the older file taken stays hidden', async (t) => {
  const root = await tempDir(t, 'strata-ckpt-');
  const src = dirsIn(join(root, 'src'));
  // Level compactions only (never cold): the older level-1 file is left alone.
  const e = await Engine.open(engineOptions({ ...src, flushIntervalSec: 0, compaction: { intervalMs: 0, coldAfterMs: 1e12, maxFileBytes: 1 << 30 } }));
  await e.catalog.createDatabase('db');
  const other = (k: number) => Buffer.from(`x v=${k} ${10_000 + k}`);
  const fourFlushes = async (first: Buffer) => {
    for (const body of [first, other(1), other(2), other(3)]) {
      await e.write({ db: 'db', precision: 'ns', body });
      await e.flush();
    }
  };
  await fourFlushes(batch(0)); // older values, compacted into a level-1 file
  await e.compactor.runOnce();
  assert.equal(e.compactor.counters.compactions, 1);
  // Rewritten; these four level-0 files wait for their compaction when the backup starts.
  await fourFlushes(Buffer.from(Array.from({ length: 100 }, (_, i) => `m,host=h${i % 3} v=${1000 + i} ${i}`).join('\n')));
  const dst = await copyDirs(join(root, 'dst'));
  const meta = await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  await checkpointWal(src.walDir, dst.walDir, silentLogger);
  // While the data is copied: DELETE host=h0, and a compaction purges its rows from the newer files.
  await checkpointData(src.dataDir, dst.dataDir, silentLogger, async () => {
    if (e.compactor.counters.compactions > 1) return;
    await e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'h0' }, minNs: 0n, maxNs: 100n, dropSeries: false });
    await e.compactor.runOnce();
    assert.equal(e.compactor.counters.compactions, 2);
  });
  await addLaterTombstones(src.metaDir, dst.metaDir, meta, silentLogger);
  await e.close();
  const restored = await open(dst);
  try {
    const h0 = await readSeries(restored, { db: 'db', measurement: 'm', seriesKey: 'm,host=h0', field: 'v' });
    assert.deepEqual(h0.filter(([time]) => time < 100n), [], 'rows from before the overwrite came back');
  } finally {
    await restored.close();
  }
});

test('a WAL copy keeps whole records only and continues the sequence', async (t) => {
  const root = await tempDir(t, 'strata-ckpt-');
  const src = dirsIn(join(root, 'src'));
  const e = await open(src);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: batch(0) });
  await e.flush();
  await e.write({ db: 'db', precision: 'ns', body: batch(100) });
  const dst = await copyDirs(join(root, 'dst'));
  await checkpointMeta(src.metaDir, dst.metaDir, silentLogger);
  const wal = await checkpointWal(src.walDir, dst.walDir, silentLogger);
  await checkpointData(src.dataDir, dst.dataDir, silentLogger);
  assert.equal(wal.entries, 1);
  assert.equal(wal.lastSeq, e.lastWalSeq);
  await e.close();
  assert.equal(await count(dst), 200);
  const again = await open(dst);
  try {
    assert.ok(again.lastWalSeq >= wal.lastSeq);
  } finally {
    await again.close();
  }
});
