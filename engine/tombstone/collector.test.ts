/**
 * Tombstone collection through the real engine: a delete's tombstone stays while a TSM file
 * or the WAL may still hold rows it hides, and goes once compaction purged them and a flush
 * truncated the WAL; what was deleted stays deleted across restarts either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Engine } from '../engine.js';
import { openTestEngine } from '../testing/open-engine.js';
import { readSeries } from '../testing/read-all.js';

/** Compaction is driven by the test (runOnce); every shard counts as cold at once. */
const open = (root: string): Promise<Engine> => openTestEngine(root, { coldAfterMs: 0 });

const lines = (times: string[]): Buffer => Buffer.from(times.flatMap((t) => [`m,host=a v=1 ${t}`, `m,host=b v=1 ${t}`]).join('\n'));
const times = async (e: Engine, host: string): Promise<number[]> =>
  (await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,host=${host}`, field: 'v' })).map(([t]) => Number(t));
const deleteA = (e: Engine, minNs: bigint, maxNs: bigint): Promise<void> =>
  e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs, maxNs, dropSeries: false });

/**
 * A fresh engine over a temp directory holding rows 1..5 of hosts a and b (cache and WAL);
 * `restart` closes and reopens it.
 */
async function withEngine(run: (h: { e: Engine; restart(): Promise<void> }) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-tgc-'));
  const h = {
    e: await open(root),
    async restart() {
      await h.e.close();
      h.e = await open(root);
    },
  };
  try {
    await h.e.catalog.createDatabase('db');
    await h.e.write({ db: 'db', precision: 'ns', body: lines(['1', '2', '3', '4', '5']) });
    await run(h);
  } finally {
    await h.e.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function expectState(e: Engine, a: number[], label: string): Promise<void> {
  assert.deepEqual(await times(e, 'a'), a, `host a ${label}`);
  assert.deepEqual(await times(e, 'b'), [1, 2, 3, 4, 5, 6, 7], `host b ${label}`);
}

test('a tombstone is kept while a file holds rows it hides, and dropped once compaction purged them', () =>
  withEngine(async (h) => {
    await h.e.write({ db: 'db', precision: 'ns', body: lines(['6', '7']) });
    await h.e.flush(); // one TSM file; the WAL is truncated past every entry
    await deleteA(h.e, 2n, 4n);
    assert.equal(h.e.catalog.tombstones().length, 1);

    // The file still holds the hidden rows: nothing may be collected.
    assert.deepEqual(await h.e.collectTombstones(), { marksDropped: 0, tombstonesRemoved: 0 });
    assert.equal(h.e.catalog.tombstones().length, 1);
    await expectState(h.e, [1, 5, 6, 7], 'before compaction');

    // A full compaction of the (cold) shard purges them; the round then collects the tombstone.
    await h.e.compactor.runOnce();
    assert.equal(h.e.compactor.counters.rowsPurged, 3);
    assert.equal(h.e.catalog.tombstones().length, 0);
    await expectState(h.e, [1, 5, 6, 7], 'after collection');
    await h.restart();
    await expectState(h.e, [1, 5, 6, 7], 'after restart');
  }));

test('a tombstone whose seq the WAL still holds is kept (replay needs it) until a flush truncates it', () =>
  withEngine(async (h) => {
    await h.e.flush();
    // Rows 6 and 7 are only in the cache and the WAL when the delete comes.
    await h.e.write({ db: 'db', precision: 'ns', body: lines(['6', '7']) });
    await deleteA(h.e, 3n, 6n);
    await h.e.compactor.runOnce(); // purges the file's rows: the shard mark goes, the WAL entry stays
    const [t] = h.e.catalog.tombstones();
    assert.ok(t, 'the WAL still holds rows the tombstone hides at replay');
    assert.deepEqual(t.marks, {});
    await expectState(h.e, [1, 2, 7], 'marks dropped');

    await h.e.flush();
    assert.deepEqual(await h.e.collectTombstones(), { marksDropped: 0, tombstonesRemoved: 1 });
    assert.equal(h.e.catalog.tombstones().length, 0);
    await h.restart();
    await expectState(h.e, [1, 2, 7], 'after collection and restart');
  }));

test('a point written after the delete stays visible once the tombstone is gone', () =>
  withEngine(async (h) => {
    await h.e.write({ db: 'db', precision: 'ns', body: lines(['6', '7']) });
    await h.e.flush();
    await deleteA(h.e, 1n, 7n);
    await h.e.write({ db: 'db', precision: 'ns', body: Buffer.from('m,host=a v=2 4') });
    await h.e.flush();
    await h.e.compactor.runOnce();
    assert.equal(h.e.catalog.tombstones().length, 0);
    await expectState(h.e, [4], 'after collection');
    await h.restart();
    await expectState(h.e, [4], 'after restart');
  }));
