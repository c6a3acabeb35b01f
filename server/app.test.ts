/**
 * HTTP-layer tests over real loopback HTTP. The engine is replaced by RecordingDeps
 * (server/testing.ts): these tests cover the HTTP layer only; end-to-end tests with the real
 * engine are added by the engine team after merging.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { collectingLogger, StorageIoError } from '../engine/index.js';
import { startServer } from './app.js';
import { defaultServerOptions } from './options.js';
import { ListenError } from './errors.js';
import { RecordingDeps, request, startTestServer, type TestResponse, type TestServer } from './testing.js';
import { SERVICE_VERSION } from './version.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function assertCommonHeaders(res: TestResponse): void {
  assert.match(SERVICE_VERSION, /^\d+\.\d+\.\d+/);
  assert.equal(res.headers['x-service-version'], `strata-${SERVICE_VERSION}`);
  assert.equal(res.headers['x-service-build'], 'OSS');
  assert.equal(res.headers['x-influxdb-version'], `strata-${SERVICE_VERSION}`);
  assert.equal(res.headers['x-influxdb-build'], 'OSS');
  const id = res.headers['request-id'];
  assert.match(String(id), UUID);
  assert.equal(res.headers['x-request-id'], id);
}

describe('server app', { timeout: 20_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer({ max_body_size_bytes: 1024 });
  });
  after(() => srv.close());

  it('GET and HEAD /ping (and 1.x\'s older /status) answer 204 without body and with the common headers', async () => {
    for (const path of ['/ping', '/status']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await request(srv.port, { method, path });
        assert.equal(res.status, 204, `${method} ${path}`);
        assert.equal(res.body.length, 0);
        assert.equal(res.headers['content-type'], 'application/json', 'as 1.6.7 sends it');
        assertCommonHeaders(res);
      }
      assert.equal((await request(srv.port, { method: 'POST', path })).status, 405);
    }
  });

  it('logs each request at debug level with method, url and status', async () => {
    await request(srv.port, { path: '/ping?x=1' });
    const entry = srv.log.entries.findLast((e) => e.msg === 'request');
    assert.equal(entry?.level, 'debug');
    assert.deepEqual({ ...entry?.obj, ms: 0 }, { method: 'get', url: '/ping', status: 204, ms: 0 });
  });

  it('gives each response its own request id', async () => {
    const a = await request(srv.port, { path: '/ping' });
    const b = await request(srv.port, { path: '/ping' });
    assert.notEqual(a.headers['request-id'], b.headers['request-id']);
  });

  it('GET /ping?verbose=true is 204 too (1.6.7)', async () => {
    const res = await request(srv.port, { path: '/ping?verbose=true' });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
  });

  it('/health is 200 pass, and 503 fail when read-only or stopping', async () => {
    let res = await request(srv.port, { path: '/health' });
    assert.equal(res.status, 200);
    assertCommonHeaders(res);
    assert.equal(res.headers['content-type'], 'application/json');
    const body = JSON.parse(res.text) as Record<string, unknown>;
    assert.equal(body['status'], 'pass');
    assert.equal(body['message'], 'ready for queries and writes');

    const head = await request(srv.port, { method: 'HEAD', path: '/health' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);

    for (const state of [
      { readOnly: true, stopping: false },
      { readOnly: false, stopping: true },
    ]) {
      srv.deps.state = state;
      res = await request(srv.port, { path: '/health' });
      assert.equal(res.status, 503);
      assert.equal((JSON.parse(res.text) as Record<string, unknown>)['status'], 'fail');
    }
    srv.deps.state = { readOnly: false, stopping: false };
  });

  it('/health/ready follows the readiness callback', async () => {
    let res = await request(srv.port, { path: '/health/ready' });
    assert.equal(res.status, 200);
    srv.deps.isReady = async () => false;
    res = await request(srv.port, { path: '/health/ready' });
    assert.equal(res.status, 503);
    assertCommonHeaders(res);
    srv.deps.isReady = async () => {
      throw new Error('engine exploded');
    };
    res = await request(srv.port, { path: '/health/ready' });
    assert.equal(res.status, 503);
    srv.deps.isReady = async () => true;
  });

  it('GET /write is 405 plain text like 1.x', async () => {
    const res = await request(srv.port, { path: '/write?db=x' });
    assert.equal(res.status, 405);
    assert.equal(res.text, 'Method Not Allowed\n');
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.equal(res.headers['allow'], 'OPTIONS, POST');
    assertCommonHeaders(res);
  });

  it('PUT /query is 405 with Allow; OPTIONS /query and /write are 200 (CORS preflight)', async () => {
    const put = await request(srv.port, { method: 'PUT', path: '/query?q=SHOW+DATABASES' });
    assert.equal(put.status, 405);
    assert.equal(put.headers['allow'], 'OPTIONS, GET, POST');
    for (const path of ['/query', '/write']) {
      const res = await request(srv.port, { method: 'OPTIONS', path, headers: { origin: 'http://dash.example' } });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['access-control-allow-origin'], 'http://dash.example');
      assert.equal(res.headers['access-control-allow-methods'], 'DELETE, GET, OPTIONS, POST, PUT');
    }
  });

  it('a request with an Origin gets 1.x CORS headers; one without gets none', async () => {
    const withOrigin = await request(srv.port, { path: '/ping', headers: { origin: 'http://dash.example' } });
    assert.equal(withOrigin.headers['access-control-allow-origin'], 'http://dash.example');
    assert.equal(withOrigin.headers['access-control-expose-headers'], 'Date, X-InfluxDB-Version, X-InfluxDB-Build');
    assert.match(String(withOrigin.headers['access-control-allow-headers']), /Authorization/);
    const without = await request(srv.port, { path: '/ping' });
    assert.equal(without.headers['access-control-allow-origin'], undefined);
  });

  it('other methods on /ping and /health are 405 with Allow', async () => {
    for (const path of ['/ping', '/health', '/health/ready']) {
      const res = await request(srv.port, { method: 'POST', path });
      assert.equal(res.status, 405, path);
      assert.equal(res.headers['allow'], 'GET, HEAD');
      assertCommonHeaders(res);
    }
  });

  it('unknown routes are 404 with an error body and common headers', async () => {
    const res = await request(srv.port, { path: '/nope' });
    assert.equal(res.status, 404);
    assert.deepEqual(JSON.parse(res.text), { error: 'not found' });
    assertCommonHeaders(res);
  });

  it('common headers on 400, 404, 413 and 500 write answers', async () => {
    const bad = await request(srv.port, { method: 'POST', path: '/write', body: 'm v=1' });
    assert.equal(bad.status, 400);
    assertCommonHeaders(bad);

    const big = await request(srv.port, { method: 'POST', path: '/write?db=x', body: 'x'.repeat(2048) });
    assert.equal(big.status, 413);
    assert.deepEqual(JSON.parse(big.text), { error: 'request entity too large' });
    assertCommonHeaders(big);

    srv.deps.onWrite = async () => {
      throw new StorageIoError('disk on fire');
    };
    const io = await request(srv.port, { method: 'POST', path: '/write?db=x', body: 'm v=1' });
    assert.equal(io.status, 500);
    assert.deepEqual(JSON.parse(io.text), { error: 'disk on fire' });
    assertCommonHeaders(io);

    srv.deps.onWrite = async () => {
      throw new TypeError('undefined is not a function');
    };
    const bug = await request(srv.port, { method: 'POST', path: '/write?db=x', body: 'm v=1' });
    assert.equal(bug.status, 500);
    assert.match((JSON.parse(bug.text) as { error: string }).error, /internal error \(request id [0-9a-f-]+\)/);
    assertCommonHeaders(bug);
    assert.ok(srv.log.entries.some((e) => e.level === 'error' && e.msg === 'unhandled error'));
    srv.deps.onWrite = async () => {};
  });
});

describe('server listen', () => {
  it('fails with ListenError when the port is taken', async () => {
    const first = await startTestServer();
    try {
      await assert.rejects(startTestServer({ port: first.port }), (err: unknown) => {
        assert.ok(err instanceof ListenError);
        assert.match(err.message, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${first.port}`));
        return true;
      });
    } finally {
      await first.close();
    }
  });
});

describe('server close', () => {
  it('waits for in-flight requests, then refuses new connections', async () => {
    const srv = await startTestServer();
    let release!: () => void;
    srv.deps.onWrite = () => new Promise<void>((resolve) => (release = resolve));
    const pending = request(srv.port, { method: 'POST', path: '/write?db=x', body: 'm v=1' });
    while (srv.deps.writes.length === 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(srv.handle.inFlight, 1);
    const closed = srv.close();
    await new Promise((r) => setTimeout(r, 50));
    release();
    assert.equal((await pending).status, 204);
    await closed;
    await assert.rejects(
      new Promise((resolve, reject) => {
        const sock = connect(srv.port, '127.0.0.1', () => resolve(sock.destroy()));
        sock.on('error', reject);
      }),
    );
  });
});

describe('access log', () => {
  it('writes no request line when the logger says debug is off, and one when it says on', async () => {
    for (const debug of [false, true]) {
      const log = Object.assign(collectingLogger(), { isLevelEnabled: (level: string) => level !== 'debug' || debug });
      const handle = await startServer(new RecordingDeps(), defaultServerOptions({ server: { bind_address: '127.0.0.1', port: 0 } }), log);
      try {
        const res = await request(handle.port, { path: '/ping' });
        assert.equal(res.status, 204);
        assertCommonHeaders(res);
        assert.equal(log.entries.filter((e) => e.msg === 'request').length, debug ? 1 : 0);
      } finally {
        await handle.close({ drainTimeoutMs: 1000 });
      }
    }
  });
});
