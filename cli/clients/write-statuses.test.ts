/**
 * Every /write status of the spec that applies to a single node, with the exact 1.x-style
 * bodies, end to end against a real `strata serve` (small body limit and a cardinality limit of
 * 2 tag values per measurement): 204, 400 (db missing, partial write, all lines bad, field type
 * conflict, precision, bad gzip), 404 (database, retention policy), 405, 413 (raw and
 * decompressed), 422 (cardinality, good lines kept) and 503 while stopping (a keep-alive
 * connection during the drain), with every 204 seen during shutdown durable after restart.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { exec, http, query, removeDir, rows, startServer, stopServer, type Server } from './harness.js';

const LIMITS = {
  SERVICE__SERVER__MAX_BODY_SIZE_BYTES: '2048',
  SERVICE__CARDINALITY__MAX_TAG_VALUES_PER_MEASUREMENT: '2',
};

describe('/write statuses and bodies against the real engine', { timeout: 120_000 }, () => {
  let srv: Server;
  const write = (qs: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    http(srv.port, 'POST', `/write?${qs}`, body, headers);
  const select = async (q: string) => rows(await query(srv.port, q, { db: 'w', epoch: 's' }));

  before(async () => {
    srv = await startServer({ env: LIMITS });
    await exec(srv.port, 'CREATE DATABASE w');
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('204 with an empty body and the version headers', async () => {
    const res = await write('db=w&precision=s', 'm,t=a v=1 1');
    assert.equal(res.status, 204);
    assert.equal(res.body, '');
    assert.match(String(res.headers['x-influxdb-version']), /^strata-/);
    assert.deepEqual(await select('SELECT * FROM m'), [[1, 'a', 1]]);
  });

  it('400 database is required (no db, empty db)', async () => {
    for (const qs of ['precision=s', 'db=&precision=s']) {
      const res = await write(qs, 'm v=1 1');
      assert.equal(res.status, 400);
      assert.equal(res.body, '{"error":"database is required"}\n');
      assert.match(String(res.headers['content-type']), /^application\/json/);
    }
  });

  it('400 partial write: the good lines are stored, the bad ones named, dropped=N', async () => {
    const res = await write('db=w&precision=s', 'm,t=a v=2 2\nbad line here\nm,t=a v=3 3\nm v=\n');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), {
      error: "partial write: unable to parse 'bad line here': invalid field format\nunable to parse 'm v=': missing field value dropped=2",
    });
    assert.deepEqual(await select('SELECT * FROM m'), [[1, 'a', 1], [2, 'a', 2], [3, 'a', 3]]);
  });

  it('400 unable to parse when every line is bad (nothing stored)', async () => {
    const res = await write('db=w&precision=s', 'bad line here');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), { error: "unable to parse 'bad line here': invalid field format" });
  });

  it('400 field type conflict; the other points of the batch are stored', async () => {
    const res = await write('db=w&precision=s', 'm,t=a v="s" 4\nm,t=a v=5 5\nm,t=a v=6i 6');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), {
      // 1.6.7 names the first conflict and counts both.
      error: 'partial write: field type conflict: input field "v" on measurement "m" is type string, already exists as type float dropped=2',
    });
    assert.deepEqual(await select('SELECT * FROM m WHERE time >= 4s'), [[5, 'a', 5]]);
  });

  it('400 for an unknown precision (decisions.md) and for a body that is not gzip', async () => {
    const p = await write('db=w&precision=xx', 'm v=1 7');
    assert.equal(p.status, 400);
    assert.deepEqual(JSON.parse(p.body), { error: 'invalid precision "xx": expected one of n, ns, u, us, ms, s, m, h' });
    const g = await write('db=w', 'm v=1 7', { 'content-encoding': 'gzip' });
    assert.equal(g.status, 400);
    assert.equal(JSON.parse(g.body).error, 'gzip: invalid header');
  });

  it('404 database not found: "x" and retention policy not found: x', async () => {
    const db = await write('db=x', 'm v=1');
    assert.equal(db.status, 404);
    assert.equal(db.body, '{"error":"database not found: \\"x\\""}\n');
    const rp = await write('db=w&rp=x', 'm v=1');
    assert.equal(rp.status, 404);
    assert.equal(rp.body, '{"error":"retention policy not found: x"}\n');
  });

  it('405 for GET /write', async () => {
    const res = await http(srv.port, 'GET', '/write?db=w');
    assert.equal(res.status, 405);
  });

  it('413 request entity too large, raw and after gunzip; nothing stored', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `big,k=a v=${i} ${i + 1}`).join('\n');
    assert.ok(Buffer.byteLength(lines) > 2048);
    const raw = await write('db=w&precision=s', lines);
    assert.equal(raw.status, 413);
    assert.equal(raw.body, '{"error":"request entity too large"}\n');
    const packed = gzipSync(lines);
    assert.ok(packed.length < 2048);
    const gz = await write('db=w&precision=s', packed, { 'content-encoding': 'gzip' });
    assert.equal(gz.status, 413);
    assert.equal(gz.body, '{"error":"request entity too large"}\n');
    assert.deepEqual(await select('SELECT count(v) FROM big'), []);
    // A gzip body under the limit once decompressed is fine.
    const small = await write('db=w&precision=s', gzipSync('big,k=a v=1 1\n'), { 'content-encoding': 'gzip' });
    assert.equal(small.status, 204);
  });

  it('422 cardinality: max-values-per-tag text, points within the limit stored', async () => {
    const res = await write('db=w&precision=s', 'c,k=1 v=1 1\nc,k=2 v=1 2\nc,k=3 v=1 3\nc,k=4 v=1 4');
    assert.equal(res.status, 422);
    assert.deepEqual(JSON.parse(res.body), {
      // One reason, the first met, with every refused point counted (1.6.7's shard error).
      error: 'partial write: max-values-per-tag limit exceeded (2/2): measurement="c" tag="k" value="3" dropped=2',
    });
    assert.deepEqual(await select('SELECT * FROM c'), [[1, '1', 1], [2, '2', 1]]);
    // Existing tag values keep working.
    assert.equal((await write('db=w&precision=s', 'c,k=1 v=2 5')).status, 204);
  });
});

/** A POST /write on a given agent; resolves with status and body, or status 0 when the connection failed. */
function post(port: number, agent: Agent, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((ok) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => ok({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', () => ok({ status: 0, body: '' }));
    req.end(body);
  });
}

describe('/write while stopping', { timeout: 120_000 }, () => {
  let srv: Server | undefined;
  let dir = '';
  after(async () => {
    if (srv) await stopServer(srv, 'SIGKILL');
    if (dir) removeDir(dir);
  });

  it('503 on a keep-alive connection during the drain; in-flight writes finish; every 204 is durable', async (t) => {
    const s = await startServer();
    srv = s;
    dir = s.dir;
    await exec(s.port, 'CREATE DATABASE w');
    const keep = new Agent({ keepAlive: true, maxSockets: 1 });
    assert.equal((await post(s.port, keep, '/write?db=w&precision=s', 'sd,k=warm v=1 1')).status, 204);

    // An in-flight write whose body is still arriving keeps the server draining.
    const slowLine = 'sd,k=slow v=2 2\n';
    let slowAnswer!: Promise<{ status: number; body: string }>;
    const slow = request({
      host: '127.0.0.1',
      port: s.port,
      method: 'POST',
      path: '/write?db=w&precision=s',
      agent: false,
      headers: { 'content-length': String(slowLine.length) },
    });
    slowAnswer = new Promise((ok) => {
      slow.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
      });
      slow.on('error', () => ok({ status: 0, body: '' }));
    });
    slow.write(slowLine.slice(0, 5));
    await new Promise((r) => setTimeout(r, 300));

    // Concurrent writers on fresh connections during the whole shutdown.
    const acked: string[] = [];
    const statuses = new Set<number>();
    let stop = false;
    const flood = async (w: number) => {
      for (let i = 0; !stop && i < 10_000; i++) {
        const line = `sd,k=f${w} v=${i} ${1000 + i}`;
        const res = await post(s.port, new Agent({ keepAlive: false }), '/write?db=w&precision=s', line);
        statuses.add(res.status);
        if (res.status === 204) acked.push(`f${w}|${1000 + i}|${i}`);
        if (res.status === 0) await new Promise((r) => setTimeout(r, 5));
      }
    };
    const floods = [flood(1), flood(2)];
    await new Promise((r) => setTimeout(r, 100));

    s.child.kill('SIGTERM');
    for (let i = 0; i < 100 && !s.log().includes('shutting down'); i++) await new Promise((r) => setTimeout(r, 20));
    assert.match(s.log(), /shutting down/);

    const during = await post(s.port, keep, '/write?db=w&precision=s', 'sd,k=late v=3 3');
    assert.equal(during.status, 503, `expected 503 while draining, got ${during.status} ${during.body}`);
    assert.equal(during.body, '{"error":"server is shutting down"}\n');

    slow.end(slowLine.slice(5));
    const done = await slowAnswer;
    assert.equal(done.status, 204, `in-flight write during the drain: ${done.status} ${done.body}`);
    const exit = await s.exited;
    stop = true;
    await Promise.all(floods);
    keep.destroy();
    assert.equal(exit.code, 0, s.log());
    for (const st of statuses) assert.ok(st === 204 || st === 503 || st === 0, `unexpected status ${st} during shutdown`);

    srv = await startServer({ dir });
    const stored = rows(await query(srv.port, 'SELECT k, v FROM sd', { db: 'w', epoch: 's' }));
    const keys = new Set(stored.map((r) => `${String(r[1])}|${String(r[0])}|${String(r[2])}`));
    assert.ok(keys.has('warm|1|1'));
    assert.ok(keys.has('slow|2|2'), 'the write acknowledged during the drain was lost');
    assert.ok(!keys.has('late|3|3'), 'a write answered 503 was stored');
    t.diagnostic(`${acked.length} flood writes acknowledged around the shutdown; statuses seen: ${[...statuses].sort().join(', ')}`);
    const lost = acked.filter((k) => !keys.has(k));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} writes acknowledged during shutdown were lost`);
  });
});
