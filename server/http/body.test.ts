/**
 * Body reading over real loopback HTTP: size cap, gzip (including a decompression bomb), bad
 * gzip and the request timeout. RecordingDeps stands in for the engine (HTTP layer only).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createGzip, gzipSync } from 'node:zlib';
import { request, startTestServer, type TestServer } from '../testing.js';

const CAP = 1024 * 1024;

async function gzipOfZeros(bytes: number): Promise<Buffer> {
  const gz = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gz.on('end', resolve));
  const block = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < bytes; written += block.length) {
    if (!gz.write(block)) await new Promise((r) => gz.once('drain', r));
  }
  gz.end();
  await done;
  return Buffer.concat(out);
}

describe('request body', { timeout: 20_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer({ max_body_size_bytes: CAP, request_timeout_secs: 1 });
    srv.deps.databases.add('d');
  });
  after(() => srv.close());

  it('passes a plain body through byte for byte', async () => {
    srv.deps.writes.length = 0;
    const body = 'cpu,host=a v=1 1\ncpu,host=b v=2 2\n';
    const res = await request(srv.port, { method: 'POST', path: '/write?db=d', body });
    assert.equal(res.status, 204);
    assert.equal(Buffer.from(srv.deps.writes[0]!.body).toString(), body);
  });

  it('accepts an empty body', async () => {
    srv.deps.writes.length = 0;
    const res = await request(srv.port, { method: 'POST', path: '/write?db=d' });
    assert.equal(res.status, 204);
    assert.equal(srv.deps.writes[0]!.body.byteLength, 0);
  });

  it('accepts a body of exactly the cap and rejects one byte more with 413', async () => {
    srv.deps.writes.length = 0;
    const ok = await request(srv.port, { method: 'POST', path: '/write?db=d', body: Buffer.alloc(CAP, 0x61) });
    assert.equal(ok.status, 204);
    const big = await request(srv.port, { method: 'POST', path: '/write?db=d', body: Buffer.alloc(CAP + 1, 0x61) });
    assert.equal(big.status, 413);
    assert.equal(big.text, '{"error":"request entity too large"}\n');
    assert.equal(srv.deps.writes.length, 1);
  });

  it('gunzips a Content-Encoding: gzip body', async () => {
    srv.deps.writes.length = 0;
    const text = 'cpu v=1 1\n'.repeat(1000);
    const res = await request(srv.port, {
      method: 'POST',
      path: '/write?db=d',
      headers: { 'Content-Encoding': 'GZIP' },
      body: gzipSync(text),
    });
    assert.equal(res.status, 204);
    assert.equal(Buffer.from(srv.deps.writes[0]!.body).toString(), text);
  });

  it('rejects a gzip bomb with 413 without inflating it into memory', async () => {
    srv.deps.writes.length = 0;
    const bomb = await gzipOfZeros(256 * 1024 * 1024);
    assert.ok(bomb.length < CAP, `compressed bomb is ${bomb.length} bytes`);
    const base = process.memoryUsage().arrayBuffers;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2);
    const res = await request(srv.port, {
      method: 'POST',
      path: '/write?db=d',
      headers: { 'Content-Encoding': 'gzip' },
      body: bomb,
    });
    clearInterval(sampler);
    assert.equal(res.status, 413);
    assert.equal(res.text, '{"error":"request entity too large"}\n');
    assert.equal(srv.deps.writes.length, 0);
    assert.ok(peak - base < 64 * 1024 * 1024, `array buffers grew by ${peak - base} bytes`);
  });

  it('rejects a corrupt gzip body with 400', async () => {
    const res = await request(srv.port, {
      method: 'POST',
      path: '/write?db=d',
      headers: { 'Content-Encoding': 'gzip' },
      body: 'this is not gzip',
    });
    assert.equal(res.status, 400);
    assert.equal(res.text, '{"error":"gzip: invalid header"}\n');
  });

  it('rejects a truncated gzip body with 400 and Go\'s text', async () => {
    const gz = gzipSync('cpu v=1 1\n'.repeat(100));
    const res = await request(srv.port, {
      method: 'POST',
      path: '/write?db=d',
      headers: { 'Content-Encoding': 'gzip' },
      body: gz.subarray(0, gz.length - 10),
    });
    assert.equal(res.status, 400);
    assert.equal(res.text, '{"error":"unexpected EOF"}\n');
  });

  it('rejects a gzip body with a wrong checksum as 1.x does', async () => {
    const gz = gzipSync('cpu v=1 1\n');
    gz[gz.length - 8]! ^= 0xff;
    const res = await request(srv.port, { method: 'POST', path: '/write?db=d', headers: { 'Content-Encoding': 'gzip' }, body: gz });
    assert.equal(res.status, 400);
    assert.equal(res.text, '{"error":"gzip: invalid checksum"}\n');
  });

  it('rejects an empty gzip body with 1.x\'s `EOF` (no gzip header to read)', async () => {
    srv.deps.writes.length = 0;
    const res = await request(srv.port, { method: 'POST', path: '/write?db=d', headers: { 'Content-Encoding': 'gzip' } });
    assert.equal(res.status, 400);
    assert.equal(res.text, '{"error":"EOF"}\n');
    assert.equal(srv.deps.writes.length, 0);
  });

  it('names a missing database before a corrupt gzip body, as 1.x checks it first', async () => {
    const res = await request(srv.port, { method: 'POST', path: '/write?db=nope', headers: { 'Content-Encoding': 'gzip' }, body: 'this is not gzip' });
    assert.equal(res.status, 404);
    assert.equal(res.text, '{"error":"database not found: \\"nope\\""}\n');
  });

  it('ignores Content-Encoding: gzip on body-less GETs', async () => {
    const res = await request(srv.port, { path: '/ping', headers: { 'Content-Encoding': 'gzip' } });
    assert.equal(res.status, 204);
  });

  it('answers 408 and closes the connection when the body does not arrive in time', async () => {
    const sock = connect(srv.port, '127.0.0.1');
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    sock.write('POST /write?db=d HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\ncpu v=1');
    const started = Date.now();
    await closed;
    assert.ok(Date.now() - started >= 900, 'timed out too early');
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.match(received, /X-Service-Version: strata-/i);
    assert.match(received, /\{"error":"request timeout: body not received in time"\}/);
  });
});

describe('request body limits without reading', { timeout: 20_000 }, () => {
  it('rejects a declared Content-Length above the cap before the body arrives', async () => {
    const srv = await startTestServer({ max_body_size_bytes: 1000 });
    try {
      const sock = connect(srv.port, '127.0.0.1');
      let received = '';
      sock.on('data', (d: Buffer) => (received += d.toString()));
      const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
      // Announce 10 MB but send nothing: the answer must not wait for the body.
      sock.write('POST /write?db=d HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n');
      await closed;
      assert.match(received, /^HTTP\/1\.1 413 /);
      assert.match(received, /\{"error":"request entity too large"\}/);
      assert.equal(srv.deps.writes.length, 0);
    } finally {
      await srv.close();
    }
  });

  it('closes keep-alive connections on responses sent while stopping', async () => {
    const srv = await startTestServer();
    let release!: () => void;
    srv.deps.onWrite = () => new Promise<void>((resolve) => (release = resolve));
    const sock = connect(srv.port, '127.0.0.1');
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString()));
    const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    sock.write('POST /write?db=d HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nm v=1');
    while (srv.deps.writes.length === 0) await new Promise((r) => setTimeout(r, 5));
    const closing = srv.close();
    release();
    await closed;
    await closing;
    assert.match(received, /^HTTP\/1\.1 204 /);
    assert.match(received, /\r\nConnection: close\r\n/i);
  });
});
