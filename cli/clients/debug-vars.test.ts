/**
 * GET /debug/vars against a real `strata serve`: 1.x's expvar document as Telegraf's
 * `inputs.influxdb` reads it (every entry but system/cmdline/memstats a point with a name, a
 * tags object and a values object; `database:<db>` per database with its measurement and
 * series counts), public like /metrics when auth is on (1.6.7 serves it without credentials).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exec, http, query, removeDir, startServer, stopServer } from './harness.js';

interface Point {
  name: string;
  tags: Record<string, string>;
  values: Record<string, unknown>;
}

test('GET /debug/vars is the expvar document Telegraf reads, with the databases counted', { timeout: 60_000 }, async () => {
  const srv = await startServer();
  try {
    await exec(srv.port, 'CREATE DATABASE telemetry');
    const w = await http(srv.port, 'POST', '/write?db=telemetry&precision=s', 'cpu,host=a v=1 1\ncpu,host=b v=2 1\nmem,host=a used=3i 1\n');
    assert.equal(w.status, 204, w.body);
    const res = await http(srv.port, 'GET', '/debug/vars');
    assert.equal(res.status, 200, res.body);
    const doc = JSON.parse(res.body) as Record<string, unknown>;
    const system = doc.system as { currentTime: string; started: string; uptime: number };
    assert.ok(Date.parse(system.currentTime) >= Date.parse(system.started) && typeof system.uptime === 'number');
    assert.ok(Array.isArray(doc.cmdline));
    assert.equal(typeof (doc.memstats as Record<string, unknown>).HeapAlloc, 'number');
    // Telegraf decodes every other entry as a point and keeps those with a name.
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'system' || key === 'cmdline' || key === 'memstats') continue;
      const p = value as Point;
      assert.equal(typeof p.name, 'string', key);
      assert.ok(p.tags !== null && typeof p.tags === 'object' && !Array.isArray(p.tags), key);
      assert.ok(p.values !== null && typeof p.values === 'object', key);
    }
    const db = doc['database:telemetry'] as Point;
    assert.deepEqual(db, { name: 'database', tags: { database: 'telemetry' }, values: { numMeasurements: 2, numSeries: 3 } });
    assert.equal((doc.runtime as Point).name, 'runtime');
    assert.equal((await http(srv.port, 'POST', '/debug/vars')).status, 405);
  } finally {
    await stopServer(srv);
    removeDir(srv.dir);
  }
});

test("1.x's httpd, write, queryExecutor and per-shard modules count what this server did, under 1.x's names and keys", { timeout: 60_000 }, async () => {
  const srv = await startServer();
  try {
    const body = 'cpu,host=a v=1 1\ncpu,host=b v=2 2\n';
    const httpdOf = (doc: Record<string, Point>) => Object.entries(doc).find(([k]) => k.startsWith('httpd:'));
    // The harness pinged until the server answered: count from here.
    const before = httpdOf(JSON.parse((await http(srv.port, 'GET', '/debug/vars')).body) as Record<string, Point>)?.[1].values ?? {};
    await exec(srv.port, 'CREATE DATABASE telemetry');
    for (let i = 0; i < 3; i++) assert.equal((await http(srv.port, 'POST', '/write?db=telemetry&precision=s', body)).status, 204);
    // A partial write: one good line stored, one dropped for its field type.
    const partial = await http(srv.port, 'POST', '/write?db=telemetry&precision=s', 'cpu,host=c v=3 3\ncpu,host=d v="x" 4\n');
    assert.equal(partial.status, 400, partial.body);
    assert.equal((await http(srv.port, 'GET', '/ping')).status, 204);
    assert.equal((await http(srv.port, 'GET', '/nowhere')).status, 404);
    await query(srv.port, 'SELECT count(v) FROM cpu', { db: 'telemetry' });
    await exec(srv.port, 'CREATE DATABASE other');
    const doc = JSON.parse((await http(srv.port, 'GET', '/debug/vars')).body) as Record<string, Point>;
    const httpd = httpdOf(doc);
    assert.ok(httpd, Object.keys(doc).join(' '));
    assert.equal(httpd[0], `httpd:127.0.0.1:${srv.port}`, 'keyed by the bind address, as 1.x keys it');
    const h = httpd[1].values;
    assert.equal(h.writeReq, 4);
    assert.equal(h.writeReqBytes, 3 * body.length + 'cpu,host=c v=3 3\ncpu,host=d v="x" 4\n'.length);
    assert.equal(h.pointsWrittenOK, 7);
    assert.equal(h.pointsWrittenDropped, 1);
    assert.equal((h.pingReq as number) - (before.pingReq as number), 1);
    assert.equal(h.queryReq, 3);
    assert.equal(h.clientError, 2, 'the partial write and the 404');
    assert.equal(h.serverError, 0);
    assert.equal((h.req as number) - (before.req as number), 10, JSON.stringify(h)); // with the first /debug/vars and this one
    assert.equal(h.reqActive, 1, 'this /debug/vars is in flight');
    assert.ok((h.writeReqDurationNs as number) > 0 && (h.queryReqDurationNs as number) > 0 && (h.reqDurationNs as number) >= (h.writeReqDurationNs as number));
    assert.deepEqual(doc.write?.values, { pointReq: 8, pointReqLocal: 8, req: 4, writeDrop: 1, writeError: 0, writeOk: 3 });
    const executor = doc.queryExecutor?.values;
    assert.deepEqual([executor?.queriesExecuted, executor?.queriesFinished, executor?.queriesActive], [3, 3, 0]);
    assert.ok((executor?.queryDurationNs as number) > 0);
    assert.deepEqual(doc.cq?.values, { queryFail: 0, queryOk: 0 }, 'no continuous query has run');
    // The points are in the cache: one shard of telemetry, tagged and keyed as 1.x's.
    const caches = Object.entries(doc).filter(([k]) => k.startsWith('tsm1_cache:'));
    assert.equal(caches.length, 1);
    const [key, cache] = caches[0]!;
    assert.equal(key, `tsm1_cache:${cache.tags.path}:${cache.tags.id}`);
    assert.equal(cache.tags.database, 'telemetry');
    assert.equal(cache.tags.retentionPolicy, 'autogen');
    assert.ok((cache.values.memBytes as number) > 0);
    // SHOW STATS FOR 'httpd' is the same module (counting its own request).
    const stats = (await query(srv.port, "SHOW STATS FOR 'httpd'")) as { results: { series: { columns: string[]; values: number[][] }[] }[] };
    const series = stats.results[0]!.series[0]!;
    assert.deepEqual(series.columns, [...series.columns].sort(), '1.x sorts the columns');
    assert.equal(series.values[0]![series.columns.indexOf('queryReq')], 4);
  } finally {
    await stopServer(srv);
    removeDir(srv.dir);
  }
});

test('with auth on, /debug/vars stays public, as /metrics and as 1.6.7 serve it (Telegraf sends no credentials)', { timeout: 60_000 }, async () => {
  const srv = await startServer({ env: { SERVICE__AUTH__ENABLED: 'true' } });
  try {
    await exec(srv.port, "CREATE USER admin WITH PASSWORD 'pw' WITH ALL PRIVILEGES");
    const basic = { Authorization: 'Basic ' + Buffer.from('admin:pw').toString('base64') };
    assert.equal((await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE d')}`)).status, 401, 'auth is on');
    assert.equal((await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE d')}`, undefined, basic)).status, 200);
    const res = await http(srv.port, 'GET', '/debug/vars');
    assert.equal(res.status, 200, res.body);
    assert.ok('database:d' in (JSON.parse(res.body) as object));
  } finally {
    await stopServer(srv);
    removeDir(srv.dir);
  }
});
