/**
 * A DELETE's tombstone is saved to the catalog asynchronously (fsyncs). A flush in that window
 * writes a file at or above the DELETE's mark, and a compaction that merges it with older files
 * names its output after it: if the merge did not already purge the deleted rows, they sit above
 * the mark for good and come back, to every later read and after restarts. Found by the SIGKILL
 * torture (crash-torture.ts, seed 6): a point deleted with an acknowledged DELETE was back after
 * the next restart. Here the catalog save is held open to make the window deterministic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from './database.js';
import type { Engine } from './engine.js';
import { collectingLogger } from './logger.js';
import type { CatalogData } from './meta/model.js';
import type { Shard } from './shard/shard.js';
import { CompactionService } from './compact/service.js';
import { openTestEngine } from './testing/open-engine.js';
import { readSeries } from './testing/read-all.js';
import { tempDir } from './testing/temp-dir.js';

const body = (lines: string[]) => Buffer.from(lines.join('\n'));
const times = async (e: Engine, host: string) =>
  (await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,host=${host}`, field: 'v' })).map(([t]) => Number(t));

function shardsOf(engine: Engine): Shard[] {
  const dbs = (engine as unknown as { databases: Map<string, Database> }).databases;
  return [...dbs.values()].flatMap((db) => [...db.shardSets.values()].flatMap((set) => set.shards));
}

test('a compaction running while a DELETE is being saved purges the rows it deletes', async (t) => {
  const root = await tempDir(t, 'strata-del-race-');
  let e = await openTestEngine(root);
  await e.catalog.createDatabase('db');
  for (let f = 0; f < 3; f++) {
    await e.write({ db: 'db', precision: 'ns', body: body(Array.from({ length: 10 }, (_, i) => `m,host=a v=${f} ${f * 10 + i + 1}`)) });
    await e.flush();
  }
  // Hold the catalog save of the tombstone (and so the DELETE's answer) open.
  const store = (e.catalog as unknown as { store: { save(d: CatalogData): Promise<void> } }).store;
  const save = store.save.bind(store);
  let release = (): void => undefined;
  const gate = new Promise<void>((ok) => (release = ok));
  store.save = async (d) => {
    await gate;
    return save(d);
  };
  const deleting = e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs: 0n, maxNs: 100n, dropSeries: false });
  // A write after the DELETE, flushed: a fourth level-0 file, at or above the mark.
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=b v=1 5']) });
  await e.flush();
  const svc = new CompactionService({ shards: () => shardsOf(e), filter: e.tombstones, logger: collectingLogger(), coldAfterMs: 1e12, now: () => 0 });
  await svc.runOnce();
  assert.equal(svc.counters.compactions, 1, 'the four files were merged while the save was held');
  assert.deepEqual(await times(e, 'a'), [], 'deleted before the DELETE answers');
  release();
  await deleting;
  store.save = save;
  await svc.stop();
  assert.deepEqual(await times(e, 'a'), []);
  assert.deepEqual(await times(e, 'b'), [5]);
  await e.close();
  e = await openTestEngine(root);
  assert.deepEqual(await times(e, 'a'), [], 'after a restart');
  assert.deepEqual(await times(e, 'b'), [5]);
  await e.close();
});
