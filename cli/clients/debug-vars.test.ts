/**
 * GET /debug/vars against a real `strata serve`: 1.x's expvar document as Telegraf's
 * `inputs.influxdb` reads it (every entry but system/cmdline/memstats a point with a name, a
 * tags object and a values object; `database:<db>` per database with its measurement and
 * series counts), public like /metrics when auth is on (1.6.7 serves it without credentials).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exec, http, removeDir, startServer, stopServer } from './harness.js';

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
