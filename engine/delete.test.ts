import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';
import { readSeries } from './testing/read-all.js';
import { MAX_TIME_NS, MIN_TIME_NS } from './time.js';
import { tempDir } from './testing/temp-dir.js';

async function open(root: string) {
  return Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 }));
}
const body = (lines: string[]) => Buffer.from(lines.join('\n'));
const times = async (e: Engine, host: string) =>
  (await readSeries(e, { db: 'db', measurement: 'm', seriesKey: `m,host=${host}`, field: 'v' })).map(([t]) => Number(t));

test('DELETE hides earlier rows in TSM files and cache, never later writes; survives restart', async (t) => {
  const root = await tempDir(t, 'strata-del-');
  let e = await open(root);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: body(['1', '2', '3', '4', '5'].flatMap((t) => [`m,host=a v=1 ${t}`, `m,host=b v=1 ${t}`])) });
  await e.flush(); // 1..5 in TSM
  await e.write({ db: 'db', precision: 'ns', body: body(['6', '7'].flatMap((t) => [`m,host=a v=1 ${t}`, `m,host=b v=1 ${t}`])) }); // cache
  await e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs: 2n, maxNs: 6n, dropSeries: false });
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=a v=2 3']) }); // after the delete: stays
  assert.deepEqual(await times(e, 'a'), [1, 3, 7]);
  assert.deepEqual(await times(e, 'b'), [1, 2, 3, 4, 5, 6, 7]);
  await e.close();
  for (let i = 0; i < 2; i++) {
    e = await open(root);
    assert.deepEqual(await times(e, 'a'), [1, 3, 7], `after restart ${i}`);
    assert.deepEqual(await times(e, 'b'), [1, 2, 3, 4, 5, 6, 7]);
    await e.flush();
    await e.close();
  }
});

test('DROP SERIES forgets the series; DROP DATABASE does not resurrect data from the WAL', async (t) => {
  const root = await tempDir(t, 'strata-del-');
  let e = await open(root);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=a v=1 1', 'm,host=b v=1 1']) });
  await e.delete({ db: 'db', measurements: ['m'], expr: { op: 'eq', key: 'host', value: 'a' }, minNs: MIN_TIME_NS, maxNs: MAX_TIME_NS, dropSeries: true });
  const db = e.openedDatabase('db')!;
  assert.equal(db.index.seriesId('m,host=a'), undefined);
  assert.deepEqual([...db.index.measurement('m')!.tags.get('host')!.keys()], ['b']);
  await e.dropDatabase('db');
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=c v=1 9']) });
  assert.deepEqual(await times(e, 'b'), []);
  await e.close();
  e = await open(root); // the WAL still holds the old writes of the dropped database
  assert.deepEqual(await times(e, 'b'), []);
  assert.deepEqual(await times(e, 'a'), []);
  assert.deepEqual(await times(e, 'c'), [9]);
  assert.deepEqual(e.openedDatabase('db')!.index.measurementNames(), ['m']);
  await e.close();
});

test('a point written after a DELETE survives restarts (tombstone marks stay below new file generations)', async (t) => {
  const root = await tempDir(t, 'strata-del-');
  let e = await open(root);
  await e.catalog.createDatabase('db');
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=a v=1 1', 'm,host=a v=1 2']) });
  await e.flush();
  const all = { db: 'db', measurements: ['m'], expr: { op: 'eq' as const, key: 'host', value: 'a' }, minNs: 0n, maxNs: 10n, dropSeries: false };
  await e.delete(all);
  await e.delete(all);
  await e.close();
  e = await open(root);
  await e.write({ db: 'db', precision: 'ns', body: body(['m,host=a v=9 5']) });
  await e.flush();
  assert.deepEqual(await times(e, 'a'), [5]);
  await e.close();
  e = await open(root);
  assert.deepEqual(await times(e, 'a'), [5], 'the point written after the deletes is still there after a restart');
  await e.close();
});
