/**
 * SHOW FIELD KEYS and the index over shards that come and go: 1.6.7 merges the field sets of
 * the shards that exist and lists a series while a shard holds it, so retention's expired
 * shards take their fields and series along (the same deletion as DROP SHARD, which golden
 * scripts a2-dropped-shard-fields and a3-dropped-shard-series pin against 1.6.7). Retention
 * cannot be recorded from the oracle (its clock), hence this test.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RetentionService } from '../../../engine/index.js';
import { openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

const DAY = 86_400;
const D = 1_709_251_200; // 2024-03-01T00:00:00Z, a day boundary

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE r; CREATE RETENTION POLICY two ON r DURATION 2d REPLICATION 1 SHARD DURATION 1d DEFAULT');
  await write(t.engine, 'r', `cpu,host=a old=1,v=1 ${D - 5 * DAY}\ncpu,host=b gone=1i ${D - 4 * DAY}\ncpu,host=a v=2,new="x" ${D}`, 's');
  await t.engine.flush();
});
after(async () => t.close());

const fieldKeys = async (q: string) => ((await series1(t.engine, q, { db: 'r' })) as { values: unknown[][] }[] | undefined)?.map((s) => s.values);

test('expired shards take their fields out of SHOW FIELD KEYS, its cardinality and *', async () => {
  assert.deepEqual(await fieldKeys('SHOW FIELD KEYS'), [[['gone', 'integer'], ['new', 'string'], ['old', 'float'], ['v', 'float']]]);
  const svc = new RetentionService(t.engine, { intervalMs: 3_600_000, now: () => (D + DAY / 2) * 1000 });
  await svc.runOnce();
  assert.equal(svc.counters.shardsDropped, 2);
  assert.deepEqual(await fieldKeys('SHOW FIELD KEYS'), [[['new', 'string'], ['v', 'float']]]);
  assert.deepEqual(await fieldKeys('SHOW FIELD KEY EXACT CARDINALITY'), [[[2]]]);
  const [star] = await run(t.engine, 'SELECT * FROM cpu', { db: 'r' });
  assert.deepEqual((star?.series?.[0] as { columns: string[] } | undefined)?.columns, ['time', 'host', 'new', 'v']);
});

test('a series only expired shards held leaves the index (SHOW SERIES, TAG KEYS), ', async () => {
  // host=b wrote only into the expired shards (the first test's retention pass); host=a still has a shard.
  assert.deepEqual(await fieldKeys('SHOW SERIES'), [[['cpu,host=a']]]);
  assert.deepEqual(await fieldKeys('SHOW TAG VALUES WITH KEY = host'), [[['host', 'a']]]);
  assert.equal(t.engine.openedDatabase('r')?.index.seriesId('cpu,host=b'), undefined);
});
