/**
 * A body is in the WAL before the server knows which of its lines it keeps. These tests take
 * the directories as a crash would leave them (copied while the engine still runs, nothing
 * flushed) and check that replay restores exactly what the live engine acknowledged: refused
 * lines stay out, kept ones come back, and order matches the live caches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { LOCK_FILE } from '../fs/lock.js';
import { readSeries } from '../testing/read-all.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

function options(root: string, parseWorkers: number) {
  return engineOptions({
    walDir: join(root, 'wal'),
    metaDir: join(root, 'meta'),
    dataDir: join(root, 'data'),
    flushIntervalSec: 0,
    rejectWritesBeyondRetention: true,
    parseWorkers,
  });
}

/** The three directories as they are on disk now, as a SIGKILL would leave them. */
async function crashCopy(t: CleanupScope, root: string): Promise<string> {
  const copy = await tempDir(t, 'strata-crashcopy-');
  await cp(root, copy, { recursive: true, filter: (p) => basename(p) !== LOCK_FILE });
  return copy;
}

const body = (s: string) => Buffer.from(s, 'utf8');
const values = async (engine: Engine, seriesKey: string, field = 'v') =>
  (await readSeries(engine, { db: 'db', measurement: seriesKey.split(',')[0]!, seriesKey, field })).map((r) => r[1]);

for (const parseWorkers of [0, 1]) {
  test(`replay keeps what the live engine kept, refused lines out (parseWorkers ${parseWorkers})`, async (t) => {
    const root = await tempDir(t, 'strata-lwp-');
    const engine = await Engine.open(options(root, parseWorkers));
    try {
      await engine.catalog.createDatabase('db');
      await engine.catalog.createRetentionPolicy('db', { name: 'day', durationSec: 86400, replicaN: 1 }, true);
      engine.writeGuard = (_db, _rp, m) => (m === 'guarded' ? 'measurement "guarded" is maintained by materialized view "v"' : undefined);
      const now = Math.floor(Date.now() / 1000);
      // Known series first, so later bodies take the worker's known-batch path when there is one.
      await engine.write({ db: 'db', precision: 's', body: body(`m,h=a v=1 ${now - 10}\nm,h=b v=1 ${now - 10}`) });
      // Each of these would come back whole if replay re-read the body as it was logged.
      await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`m,h=a v=2 ${now - 3 * 86400}\nm,h=a v=3 ${now - 9}`) }), /points beyond retention policy dropped=1/);
      await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`guarded v=1 ${now}\nm,h=b v=4 ${now - 8}`) }), /materialized view/);
      await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`m,h=c v=5 ${now}\nm,h=c v=6i ${now - 1}\nm,h=c w=1 ${now}\nm,h=c w=true ${now - 1}`) }), {
        // 1.6.7's answer to this body (its retry of the shard write names the new field w).
        message: 'partial write: field type conflict: input field "w" on measurement "m" is type boolean, already exists as type float dropped=2',
      });
      // A shard the body creates fails whole (1.6.7): nothing of it may come back either.
      await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`m,h=c x=1 ${now - 43200}\nm,h=c x=true ${now - 43199}`) }), {
        message: 'field type conflict',
      });
      await assert.rejects(engine.write({ db: 'db', precision: 's', body: body(`m,h=b v=7 ${now - 7}\nm,h=b v= ${now}`) }), /unable to parse/);
      // Same point from concurrent requests: the later one wins live, and must win on replay.
      await Promise.all([1, 2, 3, 4, 5, 6].map((i) => engine.write({ db: 'db', precision: 's', body: body(`m,h=a v=${10 + i} ${now - 5}`) })));
      const live = { a: await values(engine, 'm,h=a'), b: await values(engine, 'm,h=b'), c: await values(engine, 'm,h=c'), x: await values(engine, 'm,h=c', 'x') };
      assert.deepEqual(live, { a: [1, 3, 16], b: [1, 4, 7], c: [5], x: [] });
      assert.deepEqual(await values(engine, 'guarded'), []);

      const copy = await crashCopy(t, root);
      const again = await Engine.open(options(copy, parseWorkers));
      try {
        assert.deepEqual({ a: await values(again, 'm,h=a'), b: await values(again, 'm,h=b'), c: await values(again, 'm,h=c'), x: await values(again, 'm,h=c', 'x') }, live);
        assert.deepEqual(await values(again, 'guarded'), []);
      } finally {
        await again.close();
      }
    } finally {
      await engine.close();
    }
  });
}

test('a body whose parse fails outright is cancelled; writes queued behind it still apply in order', async (t) => {
  const root = await tempDir(t, 'strata-lwp-');
  const engine = await Engine.open(options(root, 1));
  try {
    await engine.catalog.createDatabase('db');
    const now = Math.floor(Date.now() / 1000);
    const writes = [
      engine.write({ db: 'db', precision: 's', body: body(`m v=1 ${now}`) }),
      engine.write({ db: 'db', precision: 's', body: body('not line protocol at all') }),
      engine.write({ db: 'db', precision: 's', body: body(`m v=2 ${now}`) }),
    ];
    const results = await Promise.allSettled(writes);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual(await values(engine, 'm'), [2]);
    const again = await Engine.open(options(await crashCopy(t, root), 1));
    try {
      assert.deepEqual(await values(again, 'm'), [2]);
    } finally {
      await again.close();
    }
  } finally {
    await engine.close();
  }
});
