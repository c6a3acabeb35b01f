/**
 * A database created and written while an earlier DROP DATABASE's storage is still being
 * removed keeps its data: the background sync used to decide which open databases were
 * dropped from the catalog as it was when the sync started, so a database opened while a
 * removal awaited was taken for a dropped one, closed and deleted after its write had been
 * acknowledged (seen as empty answers right after 204s, ~1 in 400 drop/create/write rounds
 * over HTTP with two clients; the conformance suite's s-w041 once under load).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestEngine } from './testing/open-engine.js';
import { readSeries } from './testing/read-all.js';

test('a database written while a dropped one waits for a flush round keeps its acknowledged points', { timeout: 120_000 }, async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-drop-create-'));
  const engine = await openTestEngine(root);
  try {
    for (const db of ['x', 'big']) await engine.catalog.createDatabase(db);
    await engine.write({ db: 'x', precision: 'ns', body: Buffer.from('m v=1 1') });
    // A flush round with enough to encode that the drop's removal, which waits for the round,
    // is still pending while the next database is created and written.
    for (let b = 0; b < 20; b++) {
      const lines = Array.from({ length: 5000 }, (_, i) => `m,host=h${i % 500} v=${(i * 7919) % 1000}.5,n=${i}i ${b * 5000 + i + 1}`);
      await engine.write({ db: 'big', precision: 's', body: Buffer.from(lines.join('\n')) });
    }
    const flushing = engine.flush();
    await engine.dropDatabase('x');
    await engine.catalog.createDatabase('y');
    await engine.write({ db: 'y', precision: 'ns', body: Buffer.from('m v=1 1\nm v=2 2') });
    await flushing;
    await engine.flush(); // the removal waited for the first round; it has finished by the end of this one
    assert.ok(engine.openedDatabase('y'), 'y was closed as if it had been dropped');
    assert.equal((await readSeries(engine, { db: 'y', measurement: 'm', seriesKey: 'm', field: 'v' })).length, 2);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

