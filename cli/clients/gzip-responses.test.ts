/**
 * gzip-compressed answers (Accept-Encoding: gzip, [server] gzip_responses) from a real
 * `strata serve`, read by raw HTTP clients that do not inflate on their own: every compressed
 * body must inflate to exactly the bytes of the same request sent without Accept-Encoding; what
 * 1.x leaves uncompressed (errors, 204s, small answers here) must carry no Content-Encoding;
 * a chunked=true answer must be inflatable line by line as its bytes arrive; a client that
 * goes away mid-stream must not leave the query running.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { constants, gunzipSync } from 'node:zlib';
import { exec, http, query, removeDir, startServer, stopServer, type Server } from './harness.js';

const SERIES = 4;
const PER_SERIES = 3000;
const BASE_S = 1_600_000_000;

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** GET without any decoding of the body (node:http does not inflate). */
function getRaw(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

const GZIP = { 'accept-encoding': 'gzip' };
const q = (text: string, extra = '') => `/query?db=gz${extra}&q=${encodeURIComponent(text)}`;

/** The same request with and without gzip: the compressed one must inflate to the other's bytes. */
async function assertSameGzipped(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const plain = await getRaw(port, path, headers);
  const zipped = await getRaw(port, path, { ...headers, ...GZIP });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(zipped.status, plain.status);
  assert.equal(zipped.headers['content-type'], plain.headers['content-type']);
  assert.equal(zipped.headers['content-encoding'], 'gzip', `${path}: ${zipped.body.subarray(0, 80).toString()}`);
  assert.equal(zipped.headers['vary'], 'Accept-Encoding');
  assert.ok(zipped.body.length < plain.body.length / 3, `${zipped.body.length} compressed bytes of ${plain.body.length}`);
  assert.ok(gunzipSync(zipped.body).equals(plain.body), `${path}: inflated body differs`);
  return zipped;
}

/** The body of a chunked transfer-encoded HTTP/1.1 answer, one Buffer per HTTP chunk, read off a raw socket. */
function rawChunks(port: number, path: string, headers: Record<string, string>): Promise<{ head: string; chunks: Buffer[] }> {
  return new Promise((ok, fail) => {
    const sock = connect(port, '127.0.0.1');
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`);
    const parts: Buffer[] = [];
    sock.on('data', (d: Buffer) => parts.push(d));
    sock.on('error', fail);
    sock.on('close', () => {
      const all = Buffer.concat(parts);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end).toString();
      const chunks: Buffer[] = [];
      let at = end + 4;
      for (;;) {
        const eol = all.indexOf('\r\n', at);
        const size = parseInt(all.subarray(at, eol).toString(), 16);
        if (!(size > 0)) break;
        chunks.push(all.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      ok({ head, chunks });
    });
  });
}

describe('gzip-compressed answers', { timeout: 120_000 }, () => {
  let srv: Server;
  before(async () => {
    srv = await startServer({ env: { SERVICE__LOGGING__LEVEL: 'warn' } });
    await exec(srv.port, 'CREATE DATABASE gz');
    const lines: string[] = [];
    for (let s = 0; s < SERIES; s++) {
      for (let i = 0; i < PER_SERIES; i++) lines.push(`cpu,host=h${s},dc=eu-${s % 2} usage=${(i * 0.37) % 100},idle=${i % 97}i,note="n${i % 13}" ${BASE_S + i}`);
    }
    const res = await http(srv.port, 'POST', '/write?db=gz&precision=s', lines.join('\n'));
    assert.equal(res.status, 204, res.body);
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('compact JSON, pretty JSON and CSV inflate to the uncompressed bytes', async () => {
    await assertSameGzipped(srv.port, q('SELECT * FROM cpu GROUP BY host'));
    await assertSameGzipped(srv.port, q('SELECT usage, note FROM cpu', '&epoch=ms'));
    await assertSameGzipped(srv.port, q('SELECT * FROM cpu', '&pretty=true'));
    await assertSameGzipped(srv.port, q('SELECT * FROM cpu GROUP BY host'), { accept: 'application/csv' });
    // a buffered answer past the size compressed on the event loop (it goes through the zlib stream)
    const big = await assertSameGzipped(srv.port, q('SELECT * FROM cpu; SELECT * FROM cpu', '&pretty=true'));
    assert.equal(big.headers['content-length'], undefined);
    // a small compressed one keeps its Content-Length
    const small = await assertSameGzipped(srv.port, q('SELECT usage FROM cpu WHERE host = \'h1\' LIMIT 60'));
    assert.equal(Number(small.headers['content-length']), small.body.length);
  });

  it('a large unchunked answer (streamed as it is made) inflates to the same bytes', async () => {
    // 4 x 3000 rows x 5 columns is below the streaming threshold; a cross join of statements is not
    // needed: repeat the statement until the answer streams (500,000 cells).
    const stmts = Array.from({ length: 9 }, () => 'SELECT * FROM cpu').join('; ');
    const z = await assertSameGzipped(srv.port, q(stmts));
    assert.equal(z.headers['transfer-encoding'], 'chunked');
  });

  it('chunked=true: same bytes, and every chunk line can be inflated from the bytes sent before the next one', async () => {
    const path = q('SELECT * FROM cpu', '&chunked=true&chunk_size=500');
    await assertSameGzipped(srv.port, path);
    const plain = (await getRaw(srv.port, path)).body.toString();
    const lineEnds: number[] = [];
    for (let i = plain.indexOf('\n'); i >= 0; i = plain.indexOf('\n', i + 1)) lineEnds.push(i + 1);
    assert.ok(lineEnds.length >= (SERIES * PER_SERIES) / 500, `${lineEnds.length} lines`);
    const { head, chunks } = await rawChunks(srv.port, path, GZIP);
    assert.match(head, /\r\ncontent-encoding: gzip\r\n/i);
    // Inflate the bytes up to each HTTP chunk's end (a sync flush makes a prefix inflatable):
    // each line must be whole at some chunk boundary before any of the next line's text.
    const seen = new Set<number>();
    let sent = Buffer.alloc(0);
    for (const c of chunks) {
      sent = Buffer.concat([sent, c]);
      seen.add(gunzipSync(sent, { finishFlush: constants.Z_SYNC_FLUSH }).length);
    }
    const unflushed = lineEnds.filter((end) => !seen.has(end));
    assert.deepEqual(unflushed, [], `lines not readable on their own: ${unflushed.length} of ${lineEnds.length}`);
  });

  it('errors, 204s and small answers go out uncompressed, as 1.x sends them', async () => {
    // the long one: an error body past the size a 200 would be compressed at
    for (const path of [q('SELEC x'), q('SELECT * FROM cpu', `&epoch=${'x'.repeat(2000)}`), '/query?db=nope&q=SELECT+*+FROM+cpu', '/query', '/nothing']) {
      const plain = await getRaw(srv.port, path);
      const zipped = await getRaw(srv.port, path, GZIP);
      assert.ok(plain.status >= 400, `${path}: ${plain.status}`);
      assert.equal(zipped.status, plain.status);
      assert.equal(zipped.headers['content-encoding'], undefined, path);
      assert.ok(zipped.body.equals(plain.body), path);
    }
    const ping = await getRaw(srv.port, '/ping', GZIP);
    assert.equal(ping.status, 204);
    assert.equal(ping.headers['content-encoding'], undefined);
    const write = await http(srv.port, 'POST', '/write?db=gz', 'other v=1 1', GZIP);
    assert.equal(write.status, 204);
    assert.equal(write.headers['content-encoding'], undefined);
    const small = await getRaw(srv.port, q('SELECT count(usage) FROM cpu'), GZIP);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.deepEqual(JSON.parse(small.body.toString()).results[0].series[0].values[0][1], SERIES * PER_SERIES);
  });

  it('/metrics is compressed, as 1.x compresses its Prometheus answer', async () => {
    const zipped = await getRaw(srv.port, '/metrics', GZIP);
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers['vary'], 'Accept-Encoding');
    assert.match(gunzipSync(zipped.body).toString(), /^# (HELP|TYPE) /m);
  });

  it('Accept-Encoding: listed gzip or x-gzip with q > 0 compresses; gzip;q=0, identity and * do not', async () => {
    const path = q('SELECT * FROM cpu LIMIT 400');
    for (const [value, compressed] of [
      ['gzip', true],
      ['gzip, deflate, br', true],
      ['x-gzip', true],
      ['GZIP', true],
      ['br;q=1.0, gzip;q=0.8', true],
      ['gzip;q=0', false],
      ['identity', false],
      ['*', false],
      ['deflate', false],
    ] as const) {
      const res = await getRaw(srv.port, path, { 'accept-encoding': value });
      assert.equal(res.headers['content-encoding'], compressed ? 'gzip' : undefined, value);
      assert.equal(res.body[0] === 0x1f && res.body[1] === 0x8b, compressed, value);
    }
  });

  it('fetch (which asks for gzip) reads the same answer', async () => {
    const path = q('SELECT * FROM cpu GROUP BY host');
    const res = await fetch(`${srv.url}${path}`);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.equal(await res.text(), (await getRaw(srv.port, path)).body.toString());
  });

  it('a client that stops reading and goes away mid-stream ends its query; the server keeps answering', async () => {
    // ~10 MB of chunk lines: far more than the socket buffers hold, so the server is mid-stream.
    const stmts = Array.from({ length: 30 }, () => 'SELECT * FROM cpu').join('; ');
    await new Promise<void>((ok, fail) => {
      const req = request({ host: '127.0.0.1', port: srv.port, path: q(stmts, '&chunked=true&chunk_size=100'), headers: GZIP, agent: false }, (res) => {
        assert.equal(res.headers['content-encoding'], 'gzip');
        // stop reading (the server waits on the socket, a compressed write in flight), then leave
        res.once('data', () => {
          res.pause();
          setTimeout(() => {
            req.destroy();
            ok();
          }, 300);
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : fail(err)));
      req.end();
    });
    const deadline = Date.now() + 10_000;
    let running: unknown[][] = [];
    do {
      await new Promise((r) => setTimeout(r, 100));
      const shown = (await query(srv.port, 'SHOW QUERIES')) as { results: { series?: { values: unknown[][] }[] }[] };
      running = (shown.results[0]?.series?.[0]?.values ?? []).filter((row) => String(row[1]).includes('FROM cpu'));
    } while (running.length > 0 && Date.now() < deadline);
    assert.deepEqual(running, [], 'the query still runs after its client left');
    await assertSameGzipped(srv.port, q('SELECT * FROM cpu GROUP BY host'));
  });
});

describe('[server] gzip_responses = false', { timeout: 60_000 }, () => {
  it('answers uncompressed even when the client asks for gzip', async () => {
    const srv = await startServer({ env: { SERVICE__SERVER__GZIP_RESPONSES: 'false' } });
    try {
      const res = await getRaw(srv.port, '/metrics', GZIP);
      assert.equal(res.status, 200);
      assert.ok(res.body.length > 1024);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.match(res.body.toString(), /^# (HELP|TYPE) /m);
    } finally {
      await stopServer(srv);
      removeDir(srv.dir);
    }
  });
});
