/**
 * node-influx 5.12 (npm `influx`, a devDependency) against a real `strata serve`: ping with the
 * server version, createDatabase, writePoints with a schema (FLOAT, INTEGER, STRING, BOOLEAN)
 * and every precision, query results (INanoDate times, placeholders), getDatabaseNames,
 * retention policies, errors and dropDatabase.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FieldType, InfluxDB, type INanoDate } from 'influx';
import { http, removeDir, startServer, stopServer, type Server } from './harness.js';

const DB = 'nodedb';
const T = '1700000000000000001'; // 2023-11-14T22:13:20.000000001Z

type Precision = 'n' | 'u' | 'ms' | 's' | 'm' | 'h';
const STAMPS: Record<Precision, { t: string; ns: string }> = {
  n: { t: '1700000000123456789', ns: '1700000000123456789' },
  u: { t: '1700000000123456', ns: '1700000000123456000' },
  ms: { t: '1700000000123', ns: '1700000000123000000' },
  s: { t: '1700000000', ns: '1700000000000000000' },
  m: { t: '28333334', ns: '1700000040000000000' },
  h: { t: '472223', ns: '1700002800000000000' },
};

describe('node-influx 5.12', { timeout: 120_000 }, () => {
  let srv: Server;
  let influx: InfluxDB;
  before(async () => {
    srv = await startServer();
    influx = new InfluxDB({
      host: '127.0.0.1',
      port: srv.port,
      database: DB,
      schema: [
        {
          measurement: 'types',
          tags: ['host'],
          fields: { f: FieldType.FLOAT, i: FieldType.INTEGER, s: FieldType.STRING, b: FieldType.BOOLEAN },
        },
        { measurement: 'prec', tags: ['p'], fields: { v: FieldType.INTEGER } },
      ],
    });
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('ping reports online with the server version', async () => {
    const [host] = await influx.ping(5000);
    const ping = await http(srv.port, 'GET', '/ping');
    assert.equal(host?.online, true);
    assert.equal(host?.version, ping.headers['x-influxdb-version']);
  });

  it('createDatabase and getDatabaseNames (before and after)', async () => {
    assert.deepEqual(await influx.getDatabaseNames(), []);
    await influx.createDatabase(DB);
    await influx.createDatabase(DB);
    assert.deepEqual(await influx.getDatabaseNames(), [DB]);
  });

  it('writePoints with a schema: every field type, exact values back', async () => {
    await influx.writePoints([
      { measurement: 'types', tags: { host: 'a' }, fields: { f: 1.5, i: 42, s: 'hello "world", \\ back', b: true }, timestamp: T },
      { measurement: 'types', tags: { host: 'b' }, fields: { f: -0.000125, i: -9007199254740991, s: 'ünïcode ✓', b: false }, timestamp: '1700000000000000002' },
      { measurement: 'types', tags: { host: 'c' }, fields: { f: 3, i: 0, s: '', b: true }, timestamp: '1700000000000000003' },
    ]);
    const rows = await influx.query<{ time: INanoDate; host: string; f: number; i: number; s: string; b: boolean }>('select * from types');
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.groups().map((g) => g.name), ['types']);
    assert.deepEqual(
      rows.map((r) => [r.time.getNanoTime(), r.host, r.f, r.i, r.s, r.b]),
      [
        [T, 'a', 1.5, 42, 'hello "world", \\ back', true],
        ['1700000000000000002', 'b', -0.000125, -9007199254740991, 'ünïcode ✓', false],
        ['1700000000000000003', 'c', 3, 0, '', true],
      ],
    );
    assert.equal(rows[0]?.time.toNanoISOString(), '2023-11-14T22:13:20.000000001Z');
    const fields = await influx.query<{ fieldKey: string; fieldType: string }>('show field keys from types');
    assert.deepEqual(
      fields.map((r) => [r.fieldKey, r.fieldType]),
      [['b', 'boolean'], ['f', 'float'], ['i', 'integer'], ['s', 'string']],
    );
  });

  it('schema validation stays client-side: a wrong type never reaches the server', async () => {
    assert.throws(() => influx.writePoints([{ measurement: 'types', fields: { i: 'x' } }]), /./);
  });

  for (const [p, { t, ns }] of Object.entries(STAMPS) as [Precision, { t: string; ns: string }][]) {
    it(`writePoints and query with precision ${p}`, async () => {
      await influx.writePoints([{ measurement: 'prec', tags: { p }, fields: { v: 1 }, timestamp: t }], { precision: p });
      const q = `select v from prec where p = '${p}'`;
      const exact = await influx.query<{ time: INanoDate; v: number }>(q);
      assert.deepEqual(exact.map((r) => [r.time.getNanoTime(), r.v]), [[ns, 1]]);
      const inUnit = await influx.query<{ time: INanoDate; v: number }>(q, { precision: p });
      assert.deepEqual(inUnit.map((r) => [r.time.getNanoTime(), r.v]), [[ns, 1]]);
      const raw = (await influx.queryRaw(q, { precision: p })) as { results: { series: { values: unknown[][] }[] }[] };
      assert.deepEqual(raw.results[0]?.series[0]?.values, [[Number(t), 1]]);
    });
  }

  it('query with placeholders, aggregates and GROUP BY tag', async () => {
    const rows = await influx.query<{ i: number }>('select i from types where host = $host', { placeholders: { host: 'b' } });
    assert.deepEqual(rows.map((r) => r.i), [-9007199254740991]);
    const grouped = await influx.query<{ host: string; count: number }>('select count(f) from types group by host');
    assert.deepEqual(grouped.map((r) => [r.host, r.count]), [['a', 1], ['b', 1], ['c', 1]]);
    assert.deepEqual(grouped.groups().map((g) => g.tags), [{ host: 'a' }, { host: 'b' }, { host: 'c' }]);
  });

  it('retention policies, measurements and series', async () => {
    await influx.createRetentionPolicy('week', { duration: '7d', replication: 1, database: DB });
    const rps = await influx.showRetentionPolicies(DB);
    assert.deepEqual(
      rps.map((r) => [r.name, r.duration, r.shardGroupDuration, r.replicaN, r.default]),
      [['autogen', '0s', '168h0m0s', 1, true], ['week', '168h0m0s', '24h0m0s', 1, false]],
    );
    assert.deepEqual(await influx.getMeasurements(), ['prec', 'types']);
    assert.deepEqual(await influx.getSeries({ measurement: 'types' }), ['types,host=a', 'types,host=b', 'types,host=c']);
  });

  it('errors: RequestError with the status for a missing database, ResultError for a bad statement target', async () => {
    const other = new InfluxDB({ host: '127.0.0.1', port: srv.port, database: 'nope' });
    await assert.rejects(other.writePoints([{ measurement: 'm', fields: { v: 1 } }]), (err: { res?: { statusCode?: number }; message: string }) => {
      assert.equal(err.res?.statusCode, 404);
      assert.match(err.message, /database not found: \\"nope\\"/);
      return true;
    });
    await assert.rejects(influx.query('select * from nope.autogen.m'), /database not found: nope/);
    const schemaless = new InfluxDB({ host: '127.0.0.1', port: srv.port, database: DB });
    await assert.rejects(
      schemaless.writeMeasurement('types', [{ tags: { host: 'a' }, fields: { f: 'text' }, timestamp: T }]),
      (err: { res?: { statusCode?: number }; message: string }) => {
        assert.equal(err.res?.statusCode, 400);
        assert.match(err.message, /field type conflict: input field \\"f\\" on measurement \\"types\\" is type string, already exists as type float/);
        return true;
      },
    );
  });

  it('dropDatabase removes it from getDatabaseNames', async () => {
    await influx.dropDatabase(DB);
    assert.deepEqual(await influx.getDatabaseNames(), []);
  });
});
