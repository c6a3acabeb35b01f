/** Database and retention-policy DDL: outputs and error texts as InfluxDB 1.6.7 answered them. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestEngine, run, series1, write, type TestEngine } from './test-support.js';

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
});
after(async () => t.close());

const q = (text: string, db = '') => series1(t.engine, text, { db });
const err = async (text: string, db = '') => (await run(t.engine, text, { db }))[0]?.error;
const ok = async (text: string, db = '') => {
  for (const r of await run(t.engine, text, { db })) assert.equal(r.error, undefined, text);
};
const COLS = ['name', 'duration', 'shardGroupDuration', 'replicaN', 'default'];
const rps = (...rows: unknown[][]) => [{ columns: COLS, values: rows }];

test('CREATE DATABASE: default policy, WITH clause, idempotence, conflicts', async () => {
  await ok('CREATE DATABASE a');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON a'), rps(['autogen', '0s', '168h0m0s', 1, true]));
  await ok('CREATE DATABASE d4 WITH DURATION 3d REPLICATION 2 SHARD DURATION 2h NAME foo');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON d4'), rps(['foo', '72h0m0s', '2h0m0s', 2, true]));
  await ok('CREATE DATABASE d4 WITH DURATION 3d REPLICATION 2 SHARD DURATION 2h NAME foo');
  await ok('CREATE DATABASE d4');
  assert.equal(await err('CREATE DATABASE d4 WITH DURATION 4d NAME foo'), 'retention policy conflicts with an existing policy');
  assert.equal(await err('CREATE DATABASE d5 WITH DURATION 30m'), 'retention policy duration must be at least 1h0m0s');
  await ok('CREATE DATABASE d5 WITH SHARD DURATION 30m');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON d5'), rps(['autogen', '0s', '1h0m0s', 1, true]));
  await ok('CREATE DATABASE d7 WITH DURATION 52w');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON d7'), rps(['autogen', '8736h0m0s', '168h0m0s', 1, true]));
  assert.equal(await err('CREATE DATABASE d6 WITH DURATION 1h SHARD DURATION 2h'), 'retention policy duration must be greater than the shard duration');
  // 1.x's meta.ValidName: empty, `.`, `..`, a slash or backslash, or an unprintable character
  for (const bad of ['""', '"."', '".."', '"a/b"', '"a\\\\b"', '"x\ty"']) assert.equal(await err(`CREATE DATABASE ${bad}`), 'invalid name', bad);
  assert.equal(await err('CREATE DATABASE ok WITH NAME ".."'), 'invalid name');
  assert.equal(await err('CREATE RETENTION POLICY "a/b" ON nope DURATION 1h REPLICATION 1'), 'invalid name');
});

test('SHOW DATABASES: creation order, columns without databases, grants filter non-admins', async () => {
  const fresh = await openTestEngine();
  try {
    assert.deepEqual(await series1(fresh.engine, 'SHOW DATABASES'), [{ name: 'databases', columns: ['name'] }]);
    await run(fresh.engine, 'CREATE DATABASE zz; CREATE DATABASE aa; CREATE DATABASE mm');
    assert.deepEqual(await series1(fresh.engine, 'SHOW DATABASES'), [{ name: 'databases', columns: ['name'], values: [['zz'], ['aa'], ['mm']] }]);
    await run(fresh.engine, "CREATE USER bob WITH PASSWORD 'x'; GRANT READ ON mm TO bob", { hashPassword: async (p) => `plain:${p}` });
    assert.deepEqual(await series1(fresh.engine, 'SHOW DATABASES', { user: { name: 'bob', admin: false } }), [{ name: 'databases', columns: ['name'], values: [['mm']] }]);
    assert.equal((await series1(fresh.engine, 'SHOW DATABASES', { user: { name: 'root', admin: true } }))?.length, 1);
  } finally {
    await fresh.close();
  }
});

test('CREATE / ALTER / DROP RETENTION POLICY', async () => {
  await ok('CREATE DATABASE e');
  await ok('CREATE RETENTION POLICY two_days ON e DURATION 2d REPLICATION 1 DEFAULT');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON e'), rps(['autogen', '0s', '168h0m0s', 1, false], ['two_days', '48h0m0s', '24h0m0s', 1, true]));
  await ok('CREATE RETENTION POLICY r1 ON e DURATION 1h REPLICATION 1 SHARD DURATION 10m');
  await ok('CREATE RETENTION POLICY r1 ON e DURATION 1h REPLICATION 1 SHARD DURATION 10m');
  assert.equal(await err('CREATE RETENTION POLICY r1 ON e DURATION 2h REPLICATION 1'), 'retention policy already exists');
  assert.equal(await err('CREATE RETENTION POLICY r1 ON e DURATION 1h REPLICATION 1 SHARD DURATION 1h DEFAULT'), 'retention policy conflicts with an existing policy');
  assert.equal(await err('CREATE RETENTION POLICY tiny ON e DURATION 30m REPLICATION 1'), 'retention policy duration must be at least 1h0m0s');
  assert.equal(await err('CREATE RETENTION POLICY r ON nope DURATION 1d REPLICATION 1'), 'database not found: nope');
  await ok('ALTER RETENTION POLICY r1 ON e DURATION 5h');
  assert.deepEqual((await q('SHOW RETENTION POLICIES ON e')) as unknown, rps(['autogen', '0s', '168h0m0s', 1, false], ['two_days', '48h0m0s', '24h0m0s', 1, true], ['r1', '5h0m0s', '1h0m0s', 1, false]));
  await ok('ALTER RETENTION POLICY r1 ON e SHARD DURATION 30m DEFAULT');
  await ok('ALTER RETENTION POLICY two_days ON e REPLICATION 3');
  assert.deepEqual(await q('SHOW RETENTION POLICIES', 'e'), rps(['autogen', '0s', '168h0m0s', 1, false], ['two_days', '48h0m0s', '24h0m0s', 3, false], ['r1', '5h0m0s', '1h0m0s', 1, true]));
  assert.equal(await err('ALTER RETENTION POLICY r1 ON e DURATION 10m'), 'retention policy duration must be at least 1h0m0s');
  assert.equal(await err('ALTER RETENTION POLICY two_days ON e DURATION 2h'), 'retention policy duration must be greater than the shard duration');
  assert.equal(await err('ALTER RETENTION POLICY nope ON e DURATION 1h'), 'retention policy not found: nope');
  assert.equal(await err('ALTER RETENTION POLICY r1 ON nope DURATION 1h'), 'database not found: nope');
  await ok('DROP RETENTION POLICY nope ON e');
  await ok('DROP RETENTION POLICY r1 ON nope');
  await ok('DROP RETENTION POLICY r1 ON e');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON e'), rps(['autogen', '0s', '168h0m0s', 1, false], ['two_days', '48h0m0s', '24h0m0s', 3, false]));
  assert.equal(await err('SHOW RETENTION POLICIES'), 'database name required');
  assert.equal(await err('SHOW RETENTION POLICIES ON nope'), 'database not found: nope');
});

test('DROP RETENTION POLICY hides its data from a policy re-created under the same name', async () => {
  await ok('CREATE DATABASE f; CREATE RETENTION POLICY p ON f DURATION INF REPLICATION 1');
  await write(t.engine, 'f', 'm,k=a v=1 1000000000', 'ns', 'p');
  await ok('DROP RETENTION POLICY p ON f; CREATE RETENTION POLICY p ON f DURATION INF REPLICATION 1');
  const cursor = t.engine.cursor({ db: 'f', rp: 'p', measurement: 'm', seriesKey: 'm,k=a', field: 'v', startNs: 0n, endNs: 10_000_000_000n, ascending: true });
  assert.equal(await cursor.next(), null);
  cursor.close();
});

test('DROP DATABASE: idempotent, removes grants, statements on it then fail', async () => {
  const hash = async (p: string) => `plain:${p}`;
  await ok('CREATE DATABASE g');
  await run(t.engine, "CREATE USER gu WITH PASSWORD 'x'; GRANT ALL ON g TO gu", { hashPassword: hash });
  assert.deepEqual(await q('SHOW GRANTS FOR gu'), [{ columns: ['database', 'privilege'], values: [['g', 'ALL PRIVILEGES']] }]);
  await ok('DROP DATABASE g');
  await ok('DROP DATABASE g');
  await ok('DROP DATABASE nope');
  assert.deepEqual(await q('SHOW GRANTS FOR gu'), [{ columns: ['database', 'privilege'] }]);
  assert.deepEqual(await run(t.engine, 'CREATE DATABASE h; DROP DATABASE h; SHOW RETENTION POLICIES ON h; SHOW DATABASES'), [
    {},
    {},
    { error: 'database not found: h' },
    { error: 'not executed' },
  ]);
});

test('dropping the default policy: its series go, SHOW SERIES / FIELD KEYS / exact counts need a policy (1.x)', async () => {
  await ok('CREATE DATABASE z1; CREATE RETENTION POLICY keep ON z1 DURATION INF REPLICATION 1');
  await write(t.engine, 'z1', 'cpu,host=a v=1 1000000000\nmem,host=a v=1 1000000000');
  await write(t.engine, 'z1', 'mem,host=a v=2 1000000000\nmem,host=b v=2 1000000000', 'ns', 'keep');
  await ok('DROP RETENTION POLICY autogen ON z1');
  assert.deepEqual(await q('SHOW RETENTION POLICIES ON z1'), rps(['keep', '0s', '168h0m0s', 1, false]));
  assert.deepEqual(await q('SHOW MEASUREMENTS', 'z1'), [{ name: 'measurements', columns: ['name'], values: [['mem']] }]);
  assert.deepEqual(await q('SHOW TAG VALUES WITH KEY = host', 'z1'), [{ name: 'mem', columns: ['key', 'value'], values: [['host', 'a'], ['host', 'b']] }]);
  assert.deepEqual(await q('SHOW SERIES CARDINALITY', 'z1'), [{ columns: ['cardinality estimation'], values: [[2]] }]);
  for (const s of ['SHOW SERIES', 'SHOW FIELD KEYS', 'SHOW SERIES EXACT CARDINALITY', 'SHOW TAG KEY CARDINALITY']) {
    assert.equal(await err(s, 'z1'), 'retention policy not found: autogen', s);
  }
  assert.deepEqual(await series1(t.engine, 'SHOW SERIES', { db: 'z1', rp: 'keep' }), [{ columns: ['key'], values: [['mem,host=a'], ['mem,host=b']] }]);
  await ok('DROP RETENTION POLICY keep ON z1');
  assert.equal(await q('SHOW MEASUREMENTS', 'z1'), undefined);
});
