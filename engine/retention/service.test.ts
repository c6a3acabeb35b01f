import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { openTestEngine } from '../testing/open-engine.js';
import { readSeries } from '../testing/read-all.js';
import { RetentionService } from './service.js';
import { tempDir } from '../testing/temp-dir.js';

const HOUR = 3600;
const H = 1_700_000_000 - (1_700_000_000 % HOUR); // an hour boundary
const NS = 1_000_000_000n;

const open = (root: string, compactionMs = 0) => openTestEngine(root, { intervalMs: compactionMs, coldAfterMs: 3_600_000, maxFileBytes: 1 << 28 });

const lines = (from: number, to: number, m = 'cpu') => {
  const out: string[] = [];
  for (let t = from; t < to; t += 600) out.push(`${m},host=a v=${t} ${t}`, `${m},host=b v=1 ${t}`);
  return Buffer.from(out.join('\n'));
};

const secs = async (e: Engine, rp: string, m = 'cpu', host = 'a') =>
  (await readSeries(e, { db: 'db', rp, measurement: m, seriesKey: `${m},host=${host}`, field: 'v' })).map(([t]) => Number(t / NS));

const range = (from: number, to: number) => Array.from({ length: Math.ceil((to - from) / 600) }, (_, i) => from + i * 600);

async function setup(root: string, compactionMs = 0) {
  const e = await open(root, compactionMs);
  await e.catalog.createDatabase('db');
  await e.catalog.createRetentionPolicy('db', { name: 'h1', durationSec: HOUR, replicaN: 1, shardGroupDurationSec: HOUR }, false);
  // Four hours of data over five 1h shards: the older half in TSM files, the rest in the cache.
  await e.write({ db: 'db', rp: 'h1', precision: 's', body: lines(H - 4 * HOUR, H - 90 * 60) });
  await e.write({ db: 'db', rp: 'h1', precision: 's', body: lines(H - 4 * HOUR, H - 90 * 60, 'mem') });
  await e.write({ db: 'db', precision: 's', body: lines(H - 4 * HOUR, H + 1800) }); // autogen: infinite
  await e.flush();
  await e.write({ db: 'db', rp: 'h1', precision: 's', body: lines(H - 90 * 60, H + 1800) });
  return e;
}

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const shardDirs = async (e: Engine, rp = 'h1') => (await readdir(e.openedDatabase('db')!.shardSets.get(rp)!.dir)).sort();
const rpTombstones = (e: Engine) => e.catalog.tombstones().filter((t) => t.retentionPolicy === 'h1').length;

test('retention drops expired shards, trims the straddling one, keeps newer rows; all of it survives restart', async (t) => {
  const root = await tempDir(t, 'strata-ret-');
  let e = await setup(root);
  const now = (H + 1800) * 1000; // cutoff = H - 30m, inside shard [H-1h, H)
  assert.equal((await shardDirs(e)).length, 3); // flushed: [H-4h, H-1h); the two newest spans are only in the cache
  const svc = new RetentionService(e, { intervalMs: 3_600_000, now: () => now });
  await svc.runOnce();
  assert.deepEqual(svc.counters, { runs: 1, shardsDropped: 3, tombstonesWritten: 1, tombstonesSuperseded: 0, errors: 0, lastRunMs: now });
  // The newest span was flushed by the pass (it waits out a flush before deleting directories).
  assert.deepEqual(await shardDirs(e), [`${H - HOUR}_${HOUR}`, `${H}_${HOUR}`]);
  assert.deepEqual(e.openedDatabase('db')!.shardSets.get('h1')!.shards.map((s) => s.startSec), [H - HOUR, H]);
  const kept = range(H - 1800, H + 1800);
  assert.deepEqual(await secs(e, 'h1'), kept);
  assert.deepEqual(await secs(e, 'h1', 'cpu', 'b'), kept);
  assert.deepEqual(await secs(e, 'h1', 'mem'), []); // only ever had expired rows
  assert.deepEqual(await secs(e, 'autogen'), range(H - 4 * HOUR, H + 1800)); // infinite policy untouched

  // A write after the run is kept even if it predates the cutoff (until the next run).
  await e.write({ db: 'db', rp: 'h1', precision: 's', body: Buffer.from(`cpu,host=a v=0 ${H - 2400}`) });
  assert.deepEqual(await secs(e, 'h1'), [H - 2400, ...kept]);
  await e.close();

  for (let i = 0; i < 2; i++) {
    e = await open(root);
    assert.deepEqual(await secs(e, 'h1'), [H - 2400, ...kept], `restart ${i}`);
    assert.deepEqual(await secs(e, 'h1', 'mem'), []);
    assert.equal((await shardDirs(e)).includes(`${H - 2 * HOUR}_${HOUR}`), false);
    await e.flush();
    await e.close();
  }

  // One hour later: the straddling shard expires too; the new tombstone replaces the old one.
  e = await open(root);
  const later = new RetentionService(e, { intervalMs: 3_600_000, now: () => now + HOUR * 1000 });
  await later.runOnce();
  assert.equal(later.counters.shardsDropped, 1);
  assert.equal(later.counters.tombstonesSuperseded, 1);
  assert.equal(rpTombstones(e), 1);
  assert.deepEqual(await shardDirs(e), [`${H}_${HOUR}`]);
  assert.deepEqual(await secs(e, 'h1'), range(H + 1800, H + 1800));
  await e.close();
  e = await open(root);
  assert.deepEqual(await secs(e, 'h1'), []);
  assert.deepEqual(await secs(e, 'autogen'), range(H - 4 * HOUR, H + 1800));
  await e.close();
});

test('a shard drop interrupted by a crash neither blocks start-up nor comes back', async (t) => {
  const root = await tempDir(t, 'strata-ret-');
  let e = await setup(root);
  const dir = e.openedDatabase('db')!.shardSets.get('h1')!.dir;
  await e.close();
  // What a crash between the rename and the end of the recursive delete leaves behind.
  await mkdir(join(dir, `${H - 8 * HOUR}_${HOUR}.dropped`));
  await writeFile(join(dir, `${H - 8 * HOUR}_${HOUR}.dropped`, '000000001-000000001.tsm'), 'partial');
  e = await open(root);
  assert.equal(e.openedDatabase('db')!.shardSets.get('h1')!.shards.some((s) => s.startSec === H - 8 * HOUR), false);
  const svc = new RetentionService(e, { intervalMs: 3_600_000, now: () => (H + 1800) * 1000 });
  await svc.runOnce();
  assert.deepEqual(await shardDirs(e), [`${H - HOUR}_${HOUR}`, `${H}_${HOUR}`]); // flushed at close
  assert.equal(svc.counters.errors, 0);
  await e.close();
});

test('the timer runs a pass at start and every interval, with the compactor running around drops', async (t) => {
  const root = await tempDir(t, 'strata-ret-');
  const e = await setup(root, 5);
  let now = (H - 3 * HOUR) * 1000; // cutoff H-4h: nothing expired yet
  const svc = new RetentionService(e, { intervalMs: 20, now: () => now });
  svc.start();
  await until(() => svc.counters.runs >= 2);
  assert.equal(svc.counters.shardsDropped, 0);
  assert.equal(rpTombstones(e), 0);
  now = (H + 1800) * 1000;
  await until(() => svc.counters.shardsDropped === 3 && !svc.counters.errors);
  await svc.stop();
  const runs = svc.counters.runs;
  assert.equal(svc.counters.shardsDropped, 3);
  // Written, older ones superseded; with the compactor running, the collector may already have
  // dropped it too once the straddling shard was compacted (its rows then gone physically).
  assert.ok(svc.counters.tombstonesWritten >= 1);
  assert.ok(rpTombstones(e) <= 1);
  assert.deepEqual(await secs(e, 'h1'), range(H - 1800, H + 1800));
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(svc.counters.runs, runs); // stopped
  await e.close();
});
