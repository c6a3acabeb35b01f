/**
 * POST /write parameter handling and engine-outcome mapping over real loopback HTTP.
 * The engine is a RecordingDeps (server/testing.ts) scripted per test: this covers the HTTP
 * layer only; the engine team adds end-to-end tests with the real engine after merging.
 */
import assert from 'node:assert/strict';
import { request as raw } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  CardinalityLimitError,
  DatabaseNotFoundError,
  EngineClosedError,
  FieldTypeConflictError,
  ReadOnlyError,
  RetentionPolicyNotFoundError,
  StorageIoError,
  StrataError,
} from '../../engine/index.js';
import { request, startTestServer, type TestServer } from '../testing.js';

describe('POST /write', { timeout: 20_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer();
  });
  after(() => srv.close());
  beforeEach(() => {
    srv.deps.writes.length = 0;
    srv.deps.state = { readOnly: false, stopping: false };
    srv.deps.onWrite = async () => {};
  });

  const write = (query: string, body = 'cpu v=1') =>
    request(srv.port, { method: 'POST', path: `/write${query}`, body });

  it('answers 400 "database is required" without db (also empty db)', async () => {
    for (const q of ['', '?db=', '?rp=autogen']) {
      const res = await write(q);
      assert.equal(res.status, 400);
      assert.equal(res.text, '{"error":"database is required"}\n');
    }
    assert.equal(srv.deps.writes.length, 0);
  });

  it('maps every accepted precision spelling', async () => {
    const cases: [string, string][] = [
      ['', 'ns'],
      ['&precision=', 'ns'],
      ['&precision=n', 'ns'],
      ['&precision=ns', 'ns'],
      ['&precision=u', 'us'],
      ['&precision=us', 'us'],
      ['&precision=ms', 'ms'],
      ['&precision=s', 's'],
      ['&precision=m', 'm'],
      ['&precision=h', 'h'],
    ];
    for (const [q, want] of cases) {
      const res = await write(`?db=d${q}`);
      assert.equal(res.status, 204, q);
      assert.equal(srv.deps.writes.at(-1)!.precision, want, q);
    }
  });

  it('rejects an unknown precision with 400 naming it', async () => {
    for (const p of ['x', 'rfc3339', 'NS', 'constructor']) {
      const res = await write(`?db=d&precision=${p}`);
      assert.equal(res.status, 400, p);
      assert.equal(
        (JSON.parse(res.text) as { error: string }).error,
        `invalid precision "${p}": expected one of n, ns, u, us, ms, s, m, h`,
      );
    }
    assert.equal(srv.deps.writes.length, 0);
  });

  it('passes db, rp (empty = default) and the body to the engine; 204 empty', async () => {
    let res = await write('?db=my%20db&rp=&u=root&p=root&consistency=all', ' cpu v=1\n\n');
    assert.equal(res.status, 204);
    assert.equal(res.body.length, 0);
    assert.equal(res.headers['content-length'], undefined);
    const first = srv.deps.writes[0]!;
    assert.equal(first.db, 'my db');
    assert.equal(first.rp, undefined);
    assert.equal(Buffer.from(first.body).toString(), ' cpu v=1\n\n');
    res = await write('?db=d&rp=week+long');
    assert.equal(res.status, 204);
    assert.equal(srv.deps.writes[1]!.rp, 'week long');
  });

  it('ignores the body Content-Type (form encoding from curl --data-binary)', async () => {
    const res = await request(srv.port, {
      method: 'POST',
      path: '/write?db=d',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'cpu v=1',
    });
    assert.equal(res.status, 204);
    assert.equal(Buffer.from(srv.deps.writes[0]!.body).toString(), 'cpu v=1');
  });

  it('renders a missing database with quotes, as 1.x /write does', async () => {
    srv.deps.onWrite = async (req) => {
      throw new DatabaseNotFoundError(req.db);
    };
    const res = await write('?db=nope');
    assert.equal(res.status, 404);
    assert.equal(res.text, '{"error":"database not found: \\"nope\\""}\n');
  });

  it('answers 204 with 1.x\'s JSON Content-Type', async () => {
    const res = await write('?db=d');
    assert.equal(res.status, 204);
    assert.equal(res.headers['content-type'], 'application/json');
  });

  it('refuses a consistency level 1.x does not know, after the database check and unless no line parses', async () => {
    srv.deps.databases.add('d');
    for (const level of ['ANY', 'one', 'Quorum', 'all', '']) assert.equal((await write(`?db=d&consistency=${level}`)).status, 204, level);
    srv.deps.writes.length = 0;
    for (const body of ['cpu v=1', '', 'bad\ncpu v=1', 'cpu,time=x v=1']) {
      const res = await write('?db=d&consistency=two', body);
      assert.equal(res.status, 400, body);
      assert.equal(res.text, '{"error":"invalid consistency level"}\n');
    }
    assert.equal(srv.deps.writes.length, 0);
    // every line malformed: the engine's parse error answers (1.x parses before the level)
    await write('?db=d&consistency=two', 'bad\nworse');
    assert.equal(srv.deps.writes.length, 1);
    assert.equal((await write('?db=nope&consistency=two')).status, 404);
  });

  it('maps each engine error to its status and text', async () => {
    const partial = 'partial write: unable to parse \'cpu v=\': missing field value dropped=1';
    const cases: [Error, number, string][] = [
      [new RetentionPolicyNotFoundError('rp1'), 404, 'retention policy not found: rp1'],
      [new StrataError('partial_write', 400, partial), 400, partial],
      [new FieldTypeConflictError('m', 'f', 'integer', 'float'), 400, new FieldTypeConflictError('m', 'f', 'integer', 'float').message],
      [new CardinalityLimitError('partial write: max-values-per-tag limit exceeded dropped=1'), 422, 'partial write: max-values-per-tag limit exceeded dropped=1'],
      [new EngineClosedError(), 503, 'engine is shutting down'],
      [new ReadOnlyError(), 507, 'insufficient storage: node is in read-only mode'],
      [new StorageIoError('fsync failed'), 500, 'fsync failed'],
    ];
    for (const [err, status, text] of cases) {
      srv.deps.onWrite = async () => {
        throw err;
      };
      const res = await write('?db=d');
      assert.equal(res.status, status, err.name);
      assert.deepEqual(JSON.parse(res.text), { error: text });
      assert.equal(res.headers['content-type'], 'application/json');
    }
  });

  it('answers 507 in read-only mode and 503 while stopping, without calling the engine', async () => {
    srv.deps.state = { readOnly: true, stopping: false };
    assert.equal((await write('?db=d')).status, 507);
    srv.deps.state = { readOnly: false, stopping: true };
    const res = await write('?db=d');
    assert.equal(res.status, 503);
    assert.deepEqual(JSON.parse(res.text), { error: 'server is shutting down' });
    assert.equal(srv.deps.writes.length, 0);
  });

  it('survives a client that disconnects while the engine is writing', async () => {
    let release!: () => void;
    srv.deps.onWrite = () => new Promise<void>((resolve) => (release = resolve));
    const req = raw({ host: '127.0.0.1', port: srv.port, method: 'POST', path: '/write?db=d', agent: false });
    req.on('error', () => {});
    req.end('cpu v=1');
    while (srv.deps.writes.length === 0) await new Promise((r) => setTimeout(r, 5));
    req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    release();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(srv.handle.inFlight, 0);
    srv.deps.onWrite = async () => {};
    assert.equal((await write('?db=d')).status, 204);
  });
});
