/**
 * `/query` with a `db` parameter naming a database that does not exist (decisions.md "missing
 * database"): statements that use it get the request-level 404, but statements that never read
 * `db` run as in 1.x. python3-influxdb sends its default database on every call, so
 * `InfluxDBClient(database='new').get_list_database()` (the usual "create it if missing" check)
 * and user management must not 404 before that database exists.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { http, removeDir, startServer, stopServer, type Server } from './harness.js';

describe('/query with db naming a missing database', { timeout: 60_000 }, () => {
  let srv: Server;
  const ask = (method: string, q: string) =>
    http(srv.port, method, `/query?${new URLSearchParams({ db: 'fresh', q }).toString()}`);
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('SHOW DATABASES answers 200 with the list', async () => {
    const res = await ask('GET', 'SHOW DATABASES');
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), {
      results: [{ statement_id: 0, series: [{ name: 'databases', columns: ['name'] }] }],
    });
  });

  it('user management answers 200', async () => {
    for (const [method, q] of [
      ['POST', "CREATE USER bob WITH PASSWORD 'pw'"],
      ['GET', 'SHOW USERS'],
      ['POST', "SET PASSWORD FOR bob = 'pw2'"],
      ['GET', 'SHOW GRANTS FOR bob'],
      ['POST', 'DROP USER bob'],
    ] as const) {
      const res = await ask(method, q);
      assert.equal(res.status, 200, `${q}: ${res.body}`);
      assert.equal((JSON.parse(res.body) as { results: { error?: string }[] }).results[0]?.error, undefined, `${q}: ${res.body}`);
    }
  });

  it('CREATE DATABASE with db= the same name works, then the database is usable', async () => {
    const res = await ask('POST', 'CREATE DATABASE fresh');
    assert.equal(res.status, 200, res.body);
    const sel = await http(srv.port, 'GET', '/query?db=fresh&q=SELECT+*+FROM+m');
    assert.equal(sel.status, 200, sel.body);
  });

  it('statements that read the database still get the request-level 404', async () => {
    for (const q of ['SELECT * FROM m', 'SHOW MEASUREMENTS', 'SHOW DATABASES; SELECT * FROM m']) {
      const res = await http(srv.port, 'GET', `/query?${new URLSearchParams({ db: 'other', q }).toString()}`);
      assert.equal(res.status, 404, `${q}: ${res.body}`);
      assert.deepEqual(JSON.parse(res.body), { error: 'database not found: other' });
    }
  });
});
