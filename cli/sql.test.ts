/**
 * POST /api/v1/chdb and /api/v1/sql (spec "POST /api/v1/chdb", decisions.md `/api/v1/chdb`): the
 * read-only SQL subset end to end on a real server, data written through /write.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { basic, call, errorOf, q, seed, startRealServer, type RealServer, type TestResponse } from './test-server.js';

interface SqlBody {
  columns: string[];
  rows: unknown[][];
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const S = 1_000_000_000n;
const T0 = 1_700_000_000n * S; // 2023-11-14T22:13:20Z

// usage 2^53+1 keeps an exact int64 check; big is an integer field.
const LINES = [
  `cpu,host=a,region=eu usage=1.5,big=9007199254740993i ${T0}`,
  `cpu,host=a,region=eu usage=2.5,big=1i ${T0 + 10n * S}`,
  `cpu,host=b,region=us usage=10,big=2i ${T0 + 20n * S}`,
  `cpu,host=b,region=us usage=20,big=3i ${T0 + 30n * S}`,
  `cpu,host=c,region=us usage=7,big=4i ${T0 + 40n * S}`,
].join('\n');

function sql(srv: RealServer, text: string, opts: { db?: string | null; path?: string; headers?: Record<string, string>; json?: boolean; extra?: string } = {}): Promise<TestResponse> {
  const db = opts.db === undefined ? 'db' : opts.db;
  const params = [db === null ? '' : `db=${db}`, opts.extra ?? ''].filter((p) => p !== '').join('&');
  const path = `${opts.path ?? '/api/v1/chdb'}${params ? `?${params}` : ''}`;
  const body = opts.json ? JSON.stringify({ q: text }) : `q=${encodeURIComponent(text)}`;
  const headers = { ...(opts.json ? { 'Content-Type': 'application/json' } : FORM), ...(opts.headers ?? {}) };
  return call(srv, { method: 'POST', path, headers, body });
}

async function rows(srv: RealServer, text: string, opts: Parameters<typeof sql>[2] = {}): Promise<SqlBody> {
  const res = await sql(srv, text, opts);
  assert.equal(res.status, 200, `${text}: ${res.text}`);
  assert.match(String(res.headers['content-type']), /application\/json/);
  return JSON.parse(res.text) as SqlBody;
}

async function refused(srv: RealServer, text: string, status: number, pattern: RegExp, opts: Parameters<typeof sql>[2] = {}): Promise<void> {
  const res = await sql(srv, text, opts);
  assert.equal(res.status, status, `${text}: ${res.text}`);
  assert.match(errorOf(res) ?? '', pattern, text);
}

describe('SQL over the engine (/api/v1/chdb, /api/v1/sql)', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({});
    assert.equal((await call(srv, { method: 'POST', path: q('CREATE DATABASE db') })).status, 200);
    const w = await call(srv, { method: 'POST', path: '/write?db=db', body: LINES });
    assert.equal(w.status, 204, w.text);
  });
  after(() => srv.close());

  it('SELECT *: time, tags, fields; RFC 3339 times; exact int64', async () => {
    const res = await sql(srv, 'SELECT * FROM cpu LIMIT 1');
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /9007199254740993[,\]]/);
    const body = JSON.parse(res.text) as SqlBody;
    assert.deepEqual(body.columns, ['time', 'host', 'region', 'big', 'usage']);
    assert.equal(body.rows.length, 1);
    assert.deepEqual(body.rows[0]!.slice(0, 3), ['2023-11-14T22:13:20Z', 'a', 'eu']);
  });

  it('projection, aliases, expressions; JSON body; /api/v1/sql alias; epoch', async () => {
    const a = await rows(srv, 'SELECT time, host, usage * 2 AS twice FROM cpu WHERE host = \'a\'', { json: true, path: '/api/v1/sql' });
    assert.deepEqual(a.columns, ['time', 'host', 'twice']);
    assert.deepEqual(a.rows, [
      ['2023-11-14T22:13:20Z', 'a', 3],
      ['2023-11-14T22:13:30Z', 'a', 5],
    ]);
    const b = await rows(srv, "SELECT time, usage FROM cpu WHERE host = 'a'", { extra: 'epoch=s' });
    assert.deepEqual(b.rows, [
      [1_700_000_000, 1.5],
      [1_700_000_010, 2.5],
    ]);
    const tagsOnly = await rows(srv, 'SELECT host FROM cpu');
    assert.deepEqual(tagsOnly.rows, [['a'], ['a'], ['b'], ['b'], ['c']]);
  });

  it('WHERE on time (RFC 3339 and integer ns), tags and fields, AND/OR/IN/BETWEEN/NOT', async () => {
    const t = await rows(srv, "SELECT usage FROM cpu WHERE time >= '2023-11-14T22:13:40Z' AND time < '2023-11-14T22:14:00Z'");
    assert.deepEqual(t.rows, [[10], [20]]);
    const n = await rows(srv, `SELECT usage FROM cpu WHERE time > ${T0 + 30n * S}`);
    assert.deepEqual(n.rows, [[7]]);
    const f = await rows(srv, "SELECT host, usage FROM cpu WHERE usage > 5 AND region = 'us' OR host = 'a' AND usage < 2");
    assert.deepEqual(f.rows, [['a', 1.5], ['b', 10], ['b', 20], ['c', 7]]);
    const i = await rows(srv, "SELECT usage FROM cpu WHERE host IN ('a', 'c') AND usage BETWEEN 2 AND 8 AND NOT host = 'x'");
    assert.deepEqual(i.rows, [[2.5], [7]]);
    const like = await rows(srv, "SELECT count(usage) AS n FROM cpu WHERE region LIKE 'u%'");
    assert.deepEqual(like.rows, [[3]]);
  });

  it('GROUP BY tag with count / avg / max / sum / min; ORDER BY an aggregate', async () => {
    const g = await rows(srv, 'SELECT host, count(usage), avg(usage), max(usage), sum(big) AS s, min(usage) FROM cpu GROUP BY host');
    assert.deepEqual(g.columns, ['host', 'count(usage)', 'avg(usage)', 'max(usage)', 's', 'min(usage)']);
    assert.deepEqual(g.rows, [
      ['a', 2, 2, 2.5, 9007199254740994, 1.5],
      ['b', 2, 15, 20, 5, 10],
      ['c', 1, 7, 7, 4, 7],
    ]);
    const res = await sql(srv, 'SELECT host, sum(big) AS s FROM cpu GROUP BY host');
    assert.match(res.text, /\["a",9007199254740994\]/);
    const o = await rows(srv, 'SELECT region, count(usage) AS n FROM cpu GROUP BY region ORDER BY n DESC');
    assert.deepEqual(o.rows, [['us', 3], ['eu', 2]]);
    const total = await rows(srv, 'SELECT count(usage), max(usage), max(usage) - min(usage) AS range, count(DISTINCT big) AS distinct_big FROM cpu');
    assert.deepEqual(total.rows, [[5, 20, 18.5, 5]]);
  });

  it('GROUP BY time_bucket', async () => {
    const b = await rows(srv, "SELECT time_bucket('20s', time) AS t, count(usage) AS n FROM cpu WHERE time >= '2023-11-14T22:13:20Z' GROUP BY time_bucket('20s', time)");
    assert.deepEqual(b.columns, ['t', 'n']);
    assert.deepEqual(b.rows, [
      ['2023-11-14T22:13:20Z', 2],
      ['2023-11-14T22:13:40Z', 2],
      ['2023-11-14T22:14:00Z', 1],
    ]);
    const all = await rows(srv, "SELECT time_bucket('30s', time) AS t, host, max(usage) AS m FROM cpu GROUP BY time_bucket('30s', time), host ORDER BY t, host");
    assert.deepEqual(all.rows, [
      ['2023-11-14T22:13:00Z', 'a', 1.5],
      ['2023-11-14T22:13:30Z', 'a', 2.5],
      ['2023-11-14T22:13:30Z', 'b', 20],
      ['2023-11-14T22:14:00Z', 'c', 7],
    ]);
  });

  it('ORDER BY time / a column / a position, LIMIT and OFFSET', async () => {
    const d = await rows(srv, 'SELECT time, usage FROM cpu ORDER BY time DESC LIMIT 2');
    assert.deepEqual(d.rows.map((r) => r[1]), [7, 20]);
    const c = await rows(srv, 'SELECT host, usage FROM cpu ORDER BY usage DESC LIMIT 2 OFFSET 1');
    assert.deepEqual(c.rows, [['b', 10], ['c', 7]]);
    const p = await rows(srv, 'SELECT host FROM cpu ORDER BY 1 DESC, usage ASC LIMIT 3');
    assert.deepEqual(p.rows, [['c'], ['b'], ['b']]);
    const off = await rows(srv, 'SELECT usage FROM cpu LIMIT 2 OFFSET 3');
    assert.deepEqual(off.rows, [[20], [7]]);
  });

  it('unknown measurement: empty rows', async () => {
    const e = await rows(srv, 'SELECT * FROM nothing');
    assert.deepEqual(e.rows, []);
    const named = await rows(srv, "SELECT time, v FROM nothing WHERE k = 'x' ORDER BY v LIMIT 3");
    assert.deepEqual(named, { columns: ['time', 'v'], rows: [] });
    const agg = await rows(srv, 'SELECT k, count(v) FROM nothing GROUP BY k');
    assert.deepEqual(agg, { columns: ['k', 'count(v)'], rows: [] });
    const total = await rows(srv, 'SELECT count(v) AS n FROM nothing');
    assert.deepEqual(total, { columns: ['n'], rows: [[0]] });
    const none = await rows(srv, "SELECT count(usage) AS n, max(usage) AS m FROM cpu WHERE host = 'zzz'");
    assert.deepEqual(none.rows, [[0, null]]);
    const grouped = await rows(srv, "SELECT host, count(usage) FROM cpu WHERE host = 'zzz' GROUP BY host");
    assert.deepEqual(grouped.rows, []);
  });

  it('400 for non-SELECT, several statements, bad SQL, untranslatable SQL; db required; 404 unknown db', async () => {
    await refused(srv, "INSERT INTO cpu (host, usage) VALUES ('z', 1)", 400, /only SELECT is supported/);
    await refused(srv, "DELETE FROM cpu WHERE host = 'a'", 400, /only SELECT is supported/);
    await refused(srv, 'DROP TABLE cpu', 400, /only SELECT is supported/);
    await refused(srv, 'SELECT usage FROM cpu; SELECT usage FROM cpu', 400, /single SELECT/);
    await refused(srv, 'SELEKT usage FROM', 400, /error parsing SQL/);
    await refused(srv, 'SELECT a.usage FROM cpu a JOIN mem b ON a.time = b.time', 400, /JOIN/);
    await refused(srv, 'SELECT nope FROM cpu', 400, /unknown column "nope"/);
    await refused(srv, 'SELECT usage, count(usage) FROM cpu', 400, /must appear in GROUP BY/);
    await refused(srv, 'SELECT count(usage) FROM cpu GROUP BY usage', 400, /GROUP BY usage/);
    await refused(srv, 'SELECT count(*) FROM cpu', 400, /count\(\*\)/);
    await refused(srv, 'SELECT 1', 400, /without FROM/);
    await refused(srv, 'SELECT usage FROM cpu', 400, /database is required/, { db: null });
    await refused(srv, 'SELECT usage FROM cpu', 404, /database not found: nodb/, { db: 'nodb' });
    const noQ = await call(srv, { method: 'POST', path: '/api/v1/chdb?db=db', headers: FORM, body: '' });
    assert.equal(noQ.status, 400, noQ.text);
  });
});

describe('SQL route with auth on: admin only', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
    await seed(srv);
    const w = await call(srv, { method: 'POST', path: '/write?db=db', headers: basic('admin', 'admin-pw'), body: LINES });
    assert.equal(w.status, 204, w.text);
  });
  after(() => srv.close());

  it('401 without credentials, 403 for a non-admin, 200 for an admin', async () => {
    for (const path of ['/api/v1/chdb', '/api/v1/sql']) {
      const none = await sql(srv, 'SELECT count(usage) FROM cpu', { path });
      assert.equal(none.status, 401, none.text);
      assert.equal(errorOf(none), 'authorization failed');
      const reader = await sql(srv, 'SELECT count(usage) FROM cpu', { path, headers: basic('reader', 'r-pw') });
      assert.equal(reader.status, 403, reader.text);
      assert.equal(errorOf(reader), 'admin privileges required for internal routes');
      const admin = await rows(srv, 'SELECT count(usage) FROM cpu', { path, headers: basic('admin', 'admin-pw') });
      assert.deepEqual(admin.rows, [[5]]);
    }
  });
});
