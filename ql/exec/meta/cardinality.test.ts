/** SHOW ... CARDINALITY: every variant's 1.6.7 output shape for the same data. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

const D1 = [
  'cpu,host=a,region=east v=1,s="x" 1000000000',
  'cpu,host=b,region=west v=2 2000000000',
  'mem,host=a free=3i 1000000000',
  'disk\\ io,dev=sd\\ a,x=1 v=1 1000000000',
  'notags v=true,u=1 1000000000',
].join('\n');
const S = [
  'cpu,host=server01 value=100 1257894001000000000',
  'cpu,host=server01,region=uswest value=100 1257894002000000000',
  'cpu,host=server01,region=useast value=100 1257894003000000000',
  'cpu,host=server02,region=useast value=100 1605049204000000000',
  'gpu,host=server02,region=useast value=100 1605049205000000000',
  'gpu,host=server03,region=caeast value=100 1257894006000000000',
  'disk,host=server03,region=caeast value=100 1257894007000000000',
].join('\n');

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE d1; CREATE DATABASE d2; CREATE DATABASE s');
  await write(t.engine, 'd1', D1);
  await write(t.engine, 's', S);
});
after(async () => t.close());

const q = (text: string, db = '') => series1(t.engine, text, { db });
const est = (n: number) => [{ columns: ['cardinality estimation'], values: [[n]] }];
const counts = (...c: [string, number][]) => c.map(([name, n]) => ({ name, columns: ['count'], values: [[n]] }));

test('estimates without filters; per measurement counts otherwise', async () => {
  assert.deepEqual(await q('SHOW SERIES CARDINALITY', 'd1'), est(5));
  assert.deepEqual(await q('SHOW SERIES EXACT CARDINALITY', 'd1'), counts(['cpu', 2], ['disk io', 1], ['mem', 1], ['notags', 1]));
  assert.deepEqual(await q('SHOW MEASUREMENT CARDINALITY', 'd1'), est(4));
  assert.deepEqual(await q('SHOW MEASUREMENT EXACT CARDINALITY', 'd1'), [{ columns: ['count'], values: [[4]] }]);
  const tagKeys = counts(['cpu', 2], ['disk io', 2], ['mem', 1]);
  assert.deepEqual(await q('SHOW TAG KEY CARDINALITY', 'd1'), tagKeys);
  assert.deepEqual(await q('SHOW TAG KEY EXACT CARDINALITY', 'd1'), tagKeys);
  assert.deepEqual(await q('SHOW TAG VALUES CARDINALITY WITH KEY = host', 'd1'), counts(['cpu', 2], ['mem', 1]));
  assert.deepEqual(await q('SHOW TAG VALUES EXACT CARDINALITY WITH KEY = host', 'd1'), counts(['cpu', 2], ['mem', 1]));
  const fields = counts(['cpu', 2], ['disk io', 1], ['mem', 1], ['notags', 2]);
  assert.deepEqual(await q('SHOW FIELD KEY CARDINALITY', 'd1'), fields);
  assert.deepEqual(await q('SHOW FIELD KEY EXACT CARDINALITY', 'd1'), fields);
});

test('FROM, WHERE, GROUP BY, LIMIT/OFFSET', async () => {
  assert.deepEqual(await q('SHOW SERIES CARDINALITY', 's'), est(7));
  assert.deepEqual(await q('SHOW SERIES CARDINALITY FROM cpu', 's'), counts(['cpu', 4]));
  assert.deepEqual(await q("SHOW SERIES CARDINALITY WHERE host = 'server01'", 's'), counts(['cpu', 3]));
  assert.deepEqual(await q("SHOW SERIES EXACT CARDINALITY WHERE host = 'server01'", 's'), counts(['cpu', 3]));
  assert.deepEqual(await q("SHOW MEASUREMENT CARDINALITY WHERE host = 'server01'", 's'), [{ columns: ['count'], values: [[1]] }]);
  assert.deepEqual(await q('SHOW MEASUREMENT CARDINALITY FROM /[cg]pu/', 's'), [{ columns: ['count'], values: [[2]] }]);
  assert.deepEqual(await q("SHOW TAG KEY CARDINALITY FROM cpu WHERE region = ''", 's'), counts(['cpu', 1]));
  assert.deepEqual(await q('SHOW TAG VALUES CARDINALITY WITH KEY =~ /./', 's'), counts(['cpu', 4], ['disk', 2], ['gpu', 4]));
  assert.deepEqual(await q("SHOW TAG VALUES CARDINALITY WITH KEY IN (host) WHERE region = 'useast'", 's'), counts(['cpu', 2], ['gpu', 1]));
  assert.deepEqual(await q('SHOW FIELD KEY CARDINALITY FROM cpu', 's'), counts(['cpu', 1]));
  assert.deepEqual(await q('SHOW SERIES CARDINALITY GROUP BY host', 's'), [
    { name: 'cpu', tags: { host: 'server01' }, columns: ['count'], values: [[3]] },
    { name: 'cpu', tags: { host: 'server02' }, columns: ['count'], values: [[1]] },
    { name: 'disk', tags: { host: 'server03' }, columns: ['count'], values: [[1]] },
    { name: 'gpu', tags: { host: 'server02' }, columns: ['count'], values: [[1]] },
    { name: 'gpu', tags: { host: 'server03' }, columns: ['count'], values: [[1]] },
  ]);
  assert.equal(await q('SHOW SERIES EXACT CARDINALITY LIMIT 1 OFFSET 1', 's'), undefined);
});

test('empty and missing databases, errors', async () => {
  assert.deepEqual(await q('SHOW SERIES CARDINALITY ON nope'), est(0));
  assert.deepEqual(await q('SHOW SERIES CARDINALITY', 'd2'), est(0));
  assert.deepEqual(await q('SHOW MEASUREMENT CARDINALITY', 'd2'), est(0));
  assert.equal(await q('SHOW SERIES EXACT CARDINALITY', 'd2'), undefined);
  assert.equal(await q('SHOW MEASUREMENT EXACT CARDINALITY', 'd2'), undefined);
  assert.equal(await q('SHOW TAG KEY CARDINALITY', 'd2'), undefined);
  const e = async (text: string, db = '') => (await run(t.engine, text, { db }))[0]?.error;
  assert.equal(await e('SHOW SERIES CARDINALITY'), 'database name required');
  assert.equal(await e("SHOW SERIES CARDINALITY WHERE time < '2010-01-01T00:00:00Z'", 's'), "SHOW SERIES EXACT CARDINALITY doesn't support time in WHERE clause");
  assert.equal(await e('SHOW MEASUREMENT EXACT CARDINALITY WHERE time > 0', 's'), "SHOW MEASUREMENT EXACT CARDINALITY doesn't support time in WHERE clause");
});
