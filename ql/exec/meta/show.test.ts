/**
 * SHOW MEASUREMENTS / TAG KEYS / TAG VALUES / FIELD KEYS / SERIES: exact outputs and error texts
 * as InfluxDB 1.6.7 answered them for the same data (recorded with the oracle).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

const D1 = [
  'cpu,host=a,region=east v=1,s="x" 1000000000',
  'cpu,host=b,region=west v=2 2000000000',
  'mem,host=a free=3i 1000000000',
  'disk\\ io,dev=sd\\ a,x=1 v=1 1000000000',
  'notags v=true,u=1 1000000000',
].join('\n');

/** The upstream 1.x test data of TestServer_Query_ShowSeries (two shards: 2009 and 2020). */
const SERIES_DATA = [
  'cpu,host=server01 value=100 1257894001000000000',
  'cpu,host=server01,region=uswest value=100 1257894002000000000',
  'cpu,host=server01,region=useast value=100 1257894003000000000',
  'cpu,host=server02,region=useast value=100 1605049204000000000',
  'gpu,host=server02,region=useast value=100 1605049205000000000',
  'gpu,host=server03,region=caeast value=100 1257894006000000000',
  'disk,host=server03,region=caeast value=100 1257894007000000000',
].join('\n');

const MEASUREMENTS_DATA = [
  'cpu,host=server01 value=100 1257894000000000000',
  'cpu,host=server01,region=uswest value=100 1257894000000000000',
  'cpu,host=server01,region=useast value=100 1257894000000000000',
  'cpu,host=server02,region=useast value=100 1257894000000000000',
  'gpu,host=server02,region=useast value=100 1257894000000000000',
  'gpu,host=server02,region=caeast value=100 1257894000000000000',
  'other,host=server03,region=caeast value=100 1257894000000000000',
].join('\n');

const TAGS_DATA = [
  'cpu,host=server01 value=100 1257894000000000000',
  'cpu,host=server01,region=uswest value=100 1257894000000000000',
  'cpu,host=server01,region=useast value=100 1257894000000000000',
  'cpu,host=server02,region=useast value=100 1257894000000000000',
  'gpu,host=server02,region=useast value=100 1257894000000000000',
  'gpu,host=server03,region=caeast value=100 1257894000000000000',
  'disk,host=server03,region=caeast value=100 1257894000000000000',
].join('\n');

const names = (...n: string[]) => [{ name: 'measurements', columns: ['name'], values: n.map((x) => [x]) }];
const keys = (...k: string[]) => [{ columns: ['key'], values: k.map((x) => [x]) }];
const tagValues = (m: string, ...kv: [string, string][]) => ({ name: m, columns: ['key', 'value'], values: kv });

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  const r = await run(t.engine, 'CREATE DATABASE d1; CREATE DATABASE d2; CREATE DATABASE s; CREATE DATABASE m; CREATE DATABASE tv');
  assert.ok(r.every((x) => !x.error));
  await write(t.engine, 'd1', D1);
  await write(t.engine, 's', SERIES_DATA);
  await write(t.engine, 'm', MEASUREMENTS_DATA);
  await write(t.engine, 'tv', TAGS_DATA);
});
after(async () => t.close());

const q = (text: string, db = '') => series1(t.engine, text, { db });
const err = async (text: string, db = '') => (await run(t.engine, text, { db }))[0]?.error;

describe('SHOW MEASUREMENTS', () => {
  test('byte order, LIMIT/OFFSET, WITH MEASUREMENT', async () => {
    assert.deepEqual(await q('SHOW MEASUREMENTS', 'd1'), names('cpu', 'disk io', 'mem', 'notags'));
    assert.deepEqual(await q('SHOW MEASUREMENTS LIMIT 2 OFFSET 1', 'd1'), names('disk io', 'mem'));
    assert.deepEqual(await q('SHOW MEASUREMENTS WITH MEASUREMENT = cpu', 'd1'), names('cpu'));
    assert.deepEqual(await q("SHOW MEASUREMENTS WITH MEASUREMENT =~ /m|c/ WHERE host = 'a'", 'd1'), names('cpu', 'mem'));
    assert.deepEqual(await q('SHOW MEASUREMENTS ON d1'), names('cpu', 'disk io', 'mem', 'notags'));
  });
  test('empty and missing databases answer no series; no database is an error', async () => {
    assert.equal(await q('SHOW MEASUREMENTS', 'd2'), undefined);
    assert.equal(await q('SHOW MEASUREMENTS ON nope'), undefined);
    assert.equal(await err('SHOW MEASUREMENTS'), 'database name required');
  });
  test('WHERE is evaluated per measurement (1.x inmem semantics)', async () => {
    assert.deepEqual(await q('SHOW MEASUREMENTS WHERE region =~ /ca.*/', 'm'), names('gpu', 'other'));
    assert.deepEqual(await q('SHOW MEASUREMENTS WHERE region !~ /ca.*/', 'm'), names('cpu'));
    assert.deepEqual(await q("SHOW MEASUREMENTS WHERE region != 'caeast'", 'm'), names('cpu'));
    assert.deepEqual(await q("SHOW MEASUREMENTS WHERE region = 'caeast'", 'm'), names('gpu', 'other'));
    assert.deepEqual(await q("SHOW MEASUREMENTS WHERE host = 'server02' AND region = 'caeast'", 'm'), names('gpu'));
    assert.deepEqual(await q("SHOW MEASUREMENTS WHERE host = 'server01' OR region = 'caeast'", 'm'), names('cpu', 'gpu', 'other'));
    assert.deepEqual(await q('SHOW MEASUREMENTS WHERE region =~ /.*/', 'm'), names('cpu', 'gpu', 'other'));
    assert.equal(await q("SHOW MEASUREMENTS WHERE region = ''", 'm'), undefined);
    assert.equal(await q("SHOW MEASUREMENTS WHERE host != 'a'", 'd1'), undefined);
    assert.deepEqual(await q("SHOW MEASUREMENTS WHERE _name = 'mem'", 'd1'), names('mem'));
  });
  test('errors', async () => {
    assert.equal(await err('SHOW MEASUREMENTS WHERE time > now() - 1h', 'm'), "SHOW MEASUREMENTS doesn't support time in WHERE clause");
    assert.equal(await err('SHOW MEASUREMENTS WHERE value > 1', 'm'), 'invalid tag comparison operator');
    assert.equal(await err("SHOW MEASUREMENTS WHERE host = 'server01' AND value > 1", 'm'), 'invalid tag comparison operator');
  });
});

describe('SHOW TAG KEYS', () => {
  test('per measurement, measurements without tags left out, LIMIT/OFFSET per measurement', async () => {
    assert.deepEqual(await q('SHOW TAG KEYS', 'd1'), [
      { name: 'cpu', columns: ['tagKey'], values: [['host'], ['region']] },
      { name: 'disk io', columns: ['tagKey'], values: [['dev'], ['x']] },
      { name: 'mem', columns: ['tagKey'], values: [['host']] },
    ]);
    assert.deepEqual(await q('SHOW TAG KEYS LIMIT 1 OFFSET 1', 'd1'), [
      { name: 'cpu', columns: ['tagKey'], values: [['region']] },
      { name: 'disk io', columns: ['tagKey'], values: [['x']] },
    ]);
    assert.equal((await q('SHOW TAG KEYS SLIMIT 1 SOFFSET 1', 'd1'))?.length, 3);
  });
  test('FROM regex, WHERE on tags and time', async () => {
    const hr = { columns: ['tagKey'], values: [['host'], ['region']] };
    assert.deepEqual(await q('SHOW TAG KEYS FROM /[cg]pu/', 'tv'), [{ name: 'cpu', ...hr }, { name: 'gpu', ...hr }]);
    assert.deepEqual(await q("SHOW TAG KEYS FROM cpu WHERE region = ''", 'tv'), [{ name: 'cpu', columns: ['tagKey'], values: [['host']] }]);
    assert.deepEqual(await q("SHOW TAG KEYS WHERE host = 'server01'", 'tv'), [{ name: 'cpu', ...hr }]);
    assert.deepEqual(await q('SHOW TAG KEYS FROM tv.nope.cpu', 'tv'), [{ name: 'cpu', ...hr }]);
    assert.equal(await q('SHOW TAG KEYS WHERE time > now() - 1h', 'tv'), undefined);
    assert.equal((await q("SHOW TAG KEYS WHERE time < '2010-01-01T00:00:00Z'", 'tv'))?.length, 3);
  });
  test('errors and empty answers', async () => {
    assert.equal(await q('SHOW TAG KEYS', 'd2'), undefined);
    assert.equal(await q('SHOW TAG KEYS FROM nope', 'd1'), undefined);
    assert.equal(await err('SHOW TAG KEYS ON nope'), 'database not found: nope');
    assert.equal(await err('SHOW TAG KEYS'), 'database name required');
    assert.equal(await err('SHOW TAG KEYS WHERE value > 1', 'tv'), 'invalid tag comparison operator');
  });
});

describe('SHOW TAG VALUES', () => {
  const hosts = [
    tagValues('cpu', ['host', 'server01'], ['host', 'server02']),
    tagValues('disk', ['host', 'server03']),
    tagValues('gpu', ['host', 'server02'], ['host', 'server03']),
  ];
  const regions = [
    tagValues('cpu', ['region', 'useast'], ['region', 'uswest']),
    tagValues('disk', ['region', 'caeast']),
    tagValues('gpu', ['region', 'caeast'], ['region', 'useast']),
  ];
  test('WITH KEY = / != / =~ / !~ / IN', async () => {
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY = host', 'tv'), hosts);
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY =~ /ho/', 'tv'), hosts);
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY != host', 'tv'), regions);
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY !~ /ho/', 'tv'), regions);
    assert.deepEqual(await q("SHOW TAG VALUES WITH KEY IN (region, host) WHERE host = 'server03'", 'tv'), [
      tagValues('disk', ['host', 'server03'], ['region', 'caeast']),
      tagValues('gpu', ['host', 'server03'], ['region', 'caeast']),
    ]);
  });
  test('WHERE, LIMIT/OFFSET per measurement, time', async () => {
    assert.deepEqual(await q("SHOW TAG VALUES FROM cpu WITH KEY = host WHERE region = ''", 'tv'), [tagValues('cpu', ['host', 'server01'])]);
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY = host WHERE host !~ /server0[12]/', 'tv'), [
      tagValues('disk', ['host', 'server03']),
      tagValues('gpu', ['host', 'server03']),
    ]);
    assert.equal(await q("SHOW TAG VALUES WITH KEY = host WHERE region != 'useast' LIMIT 1 OFFSET 1", 'tv'), undefined);
    assert.deepEqual(await q('SHOW TAG VALUES WITH KEY = host LIMIT 1', 'tv'), [
      tagValues('cpu', ['host', 'server01']),
      tagValues('disk', ['host', 'server03']),
      tagValues('gpu', ['host', 'server02']),
    ]);
    assert.equal(await q('SHOW TAG VALUES WITH KEY = host WHERE time > now() - 1h', 'tv'), undefined);
    assert.equal(await q('SHOW TAG VALUES WITH KEY = nope', 'tv'), undefined);
  });
  test('escaped names and case-insensitive regexes', async () => {
    assert.deepEqual(await q('SHOW TAG VALUES FROM "disk io" WITH KEY = dev', 'd1'), [tagValues('disk io', ['dev', 'sd a'])]);
    assert.deepEqual(await q("SHOW TAG VALUES WITH KEY = host WHERE host =~ /(?i)SERVER03/", 'tv'), [
      tagValues('disk', ['host', 'server03']),
      tagValues('gpu', ['host', 'server03']),
    ]);
  });
  test('errors', async () => {
    assert.equal(await err('SHOW TAG VALUES ON nope WITH KEY = host'), 'database not found: nope');
    assert.equal(await err('SHOW TAG VALUES WITH KEY = host'), 'database name required');
  });
});

describe('SHOW FIELD KEYS', () => {
  test('types, byte order, LIMIT/OFFSET per measurement', async () => {
    assert.deepEqual(await q('SHOW FIELD KEYS', 'd1'), [
      { name: 'cpu', columns: ['fieldKey', 'fieldType'], values: [['s', 'string'], ['v', 'float']] },
      { name: 'disk io', columns: ['fieldKey', 'fieldType'], values: [['v', 'float']] },
      { name: 'mem', columns: ['fieldKey', 'fieldType'], values: [['free', 'integer']] },
      { name: 'notags', columns: ['fieldKey', 'fieldType'], values: [['u', 'float'], ['v', 'boolean']] },
    ]);
    assert.deepEqual(await q('SHOW FIELD KEYS LIMIT 1 OFFSET 1', 'd1'), [
      { name: 'cpu', columns: ['fieldKey', 'fieldType'], values: [['v', 'float']] },
      { name: 'notags', columns: ['fieldKey', 'fieldType'], values: [['v', 'boolean']] },
    ]);
  });
  test('unsigned fields', async () => {
    await run(t.engine, 'CREATE DATABASE un');
    await write(t.engine, 'un', 'u n=5u 1');
    assert.deepEqual(await q('SHOW FIELD KEYS', 'un'), [{ name: 'u', columns: ['fieldKey', 'fieldType'], values: [['n', 'unsigned']] }]);
  });
  test('per retention policy: FROM rp.m, the default policy otherwise', async () => {
    await run(t.engine, 'CREATE DATABASE ar; CREATE RETENTION POLICY lt ON ar DURATION INF REPLICATION 1');
    await write(t.engine, 'ar', 'cpu,host=a u=1 1000000000');
    await write(t.engine, 'ar', 'cpu,host=b m=1 1000000000\nroll k=1 1000000000', 'ns', 'lt');
    const fk = (m: string, ...f: string[]) => ({ name: m, columns: ['fieldKey', 'fieldType'], values: f.map((x) => [x, 'float']) });
    assert.deepEqual(await q('SHOW FIELD KEYS', 'ar'), [fk('cpu', 'u')]);
    assert.deepEqual(await q('SHOW FIELD KEYS FROM lt.cpu', 'ar'), [fk('cpu', 'm')]);
    assert.deepEqual(await q('SHOW FIELD KEYS FROM lt./.*/', 'ar'), [fk('cpu', 'm'), fk('roll', 'k')]);
    assert.equal(await q('SHOW FIELD KEYS FROM autogen.roll', 'ar'), undefined);
    assert.deepEqual(await series1(t.engine, 'SHOW FIELD KEYS', { db: 'ar', rp: 'lt' }), [fk('cpu', 'm'), fk('roll', 'k')]);
    assert.equal(await err('SHOW FIELD KEYS FROM nope.cpu', 'ar'), 'retention policy not found: nope');
    assert.deepEqual(await q('SHOW FIELD KEY CARDINALITY', 'ar'), [{ name: 'cpu', columns: ['count'], values: [[1]] }]);
  });
  test('errors and empty answers', async () => {
    assert.equal(await q('SHOW FIELD KEYS FROM nope', 'd1'), undefined);
    assert.equal(await err('SHOW FIELD KEYS ON nope'), 'database not found: nope');
    assert.equal(await err('SHOW FIELD KEYS'), 'database name required');
  });
});

describe('SHOW SERIES', () => {
  test('escaped keys, WHERE, LIMIT/OFFSET', async () => {
    assert.deepEqual(await q('SHOW SERIES', 'd1'), keys('cpu,host=a,region=east', 'cpu,host=b,region=west', 'disk\\ io,dev=sd\\ a,x=1', 'mem,host=a', 'notags'));
    assert.deepEqual(await q("SHOW SERIES WHERE host = 'a' LIMIT 1 OFFSET 1", 'd1'), keys('mem,host=a'));
    assert.deepEqual(await q('SHOW SERIES FROM cpu, mem WHERE time > 0', 'd1'), keys('cpu,host=a,region=east', 'cpu,host=b,region=west', 'mem,host=a'));
    assert.deepEqual(await q("SHOW SERIES FROM /[cg]pu/ WHERE region = 'useast'", 's'), keys('cpu,host=server01,region=useast', 'cpu,host=server02,region=useast', 'gpu,host=server02,region=useast'));
    assert.deepEqual(await q('SHOW SERIES WHERE region !~ /us/ LIMIT 2', 's'), keys('cpu,host=server01', 'disk,host=server03,region=caeast'));
  });
  test('time conditions keep the series with data in range', async () => {
    assert.deepEqual(
      await q("SHOW SERIES WHERE time < '2010-01-01T00:00:00Z'", 's'),
      keys('cpu,host=server01', 'cpu,host=server01,region=useast', 'cpu,host=server01,region=uswest', 'disk,host=server03,region=caeast', 'gpu,host=server03,region=caeast'),
    );
    assert.deepEqual(await q("SHOW SERIES WHERE time > '2015-01-01T00:00:00Z'", 's'), keys('cpu,host=server02,region=useast', 'gpu,host=server02,region=useast'));
  });
  test('time conditions answer from whole shards of the default (or requested) policy, as 1.x', async () => {
    await run(t.engine, 'CREATE DATABASE sh; CREATE RETENTION POLICY other ON sh DURATION INF REPLICATION 1');
    const t0 = 1_709_942_400_000_000_000n; // 2024-03-09T00:00:00Z
    await write(t.engine, 'sh', `a,k=1 v=1 ${t0}\na,k=2 v=1 ${t0 + 3_600_000_000_000n}`);
    await write(t.engine, 'sh', `a,k=3 v=1 ${t0 + 3_600_000_000_000n}`, 'ns', 'other');
    const where = "WHERE time > '2024-03-09T00:30:00Z'";
    assert.deepEqual(await q(`SHOW SERIES ${where}`, 'sh'), keys('a,k=1', 'a,k=2'));
    assert.deepEqual(await series1(t.engine, `SHOW SERIES ${where}`, { db: 'sh', rp: 'other' }), keys('a,k=3'));
    assert.deepEqual(await q('SHOW SERIES', 'sh'), keys('a,k=1', 'a,k=2', 'a,k=3'));
    assert.equal(await q("SHOW SERIES WHERE time > '2025-01-01T00:00:00Z'", 'sh'), undefined);
  });
  test('errors and empty answers', async () => {
    assert.equal(await q('SHOW SERIES', 'd2'), undefined);
    assert.equal(await err('SHOW SERIES'), 'database name required');
    assert.equal(await err('SHOW SERIES ON nope'), 'database not found: nope');
    assert.equal(await err('SHOW SERIES WHERE value > 1', 's'), 'invalid tag comparison operator');
    assert.equal(await err("SHOW SERIES WHERE host = 'server01' OR value > 1", 's'), 'invalid tag comparison operator');
  });
});
