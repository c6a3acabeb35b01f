/**
 * DROP DATABASE while a flush round is writing that database's caches: the round must finish
 * without error (a TSM file must not be published into a closed shard), and the database's
 * directory must not come back (a late flush re-creating it would resurrect the data). A drop
 * of a database the round has nothing to write for does not wait for the round.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';

function body(n: number, shift: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`m,host=h${i % 50} v=${i * 0.5},n=${i}i ${shift + i}000000000`);
  return Buffer.from(lines.join('\n'));
}

test('a flush round racing DROP DATABASE completes and leaves no directory behind', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-drop-flush-'));
  const errors: unknown[] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (o: unknown) => errors.push(o) };
  const engine = await Engine.open(
    engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, logger }),
  );
  try {
    for (let round = 0; round < 8; round++) {
      const db = `d${round}`;
      await engine.catalog.createDatabase(db);
      // Several shards (one week each) so the round is still writing when the drop lands.
      for (let week = 0; week < 4; week++) await engine.write({ db, precision: 'ns', body: body(20_000, week * 604_800) });
      const flushing = engine.flush();
      await sleep(round); // the drop lands at different points of the round
      await engine.dropDatabase(db);
      await flushing;
      for (let i = 0; i < 200 && existsSync(join(root, 'data', db)); i++) await sleep(10);
      await engine.flush();
      assert.equal(existsSync(join(root, 'data', db)), false, `round ${round}: the dropped database's directory is back`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});

test('DROP DATABASE of a database the running round has nothing to write for answers before the round ends', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-drop-flush-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }));
  try {
    for (let round = 0; round < 3; round++) {
      const [busy, idle] = [`busy${round}`, `idle${round}`];
      await engine.catalog.createDatabase(busy);
      await engine.catalog.createDatabase(idle);
      await engine.write({ db: idle, precision: 'ns', body: body(1_000, 0) });
      await engine.flush();
      for (let week = 0; week < 4; week++) await engine.write({ db: busy, precision: 'ns', body: body(20_000, week * 604_800) });
      let flushed = false;
      const flushing = engine.flush().then(() => (flushed = true));
      await engine.dropDatabase(idle);
      // Main waited for the whole round (four shards of the other database) before deleting.
      assert.equal(flushed, false, `round ${round}: the drop waited for the flush round`);
      assert.equal(existsSync(join(root, 'data', idle)), false);
      await flushing;
      await engine.dropDatabase(busy);
    }
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});
