/**
 * GET/DELETE /api/v1/statements over loopback HTTP, fed by /query (RecordingDeps engine):
 * normalisation and digests, redaction, the max_entries bound, DELETE, disabled mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectingLogger } from '../../engine/index.js';
import { startServer, type ServerHandle } from '../app.js';
import { defaultServerOptions } from '../options.js';
import type { StatementSummaryEntry } from '../statements/summary.js';
import { RecordingDeps, request } from '../testing.js';

async function start(summary: { enabled: boolean; max_entries: number }): Promise<{ handle: ServerHandle; deps: RecordingDeps }> {
  const deps = new RecordingDeps();
  const base = defaultServerOptions({ server: { bind_address: '127.0.0.1', port: 0 } });
  const options = { ...base, statement_summary: { ...base.statement_summary, ...summary } };
  return { handle: await startServer(deps, options, collectingLogger()), deps };
}

const query = (port: number, q: string) => request(port, { method: 'POST', path: `/query?q=${encodeURIComponent(q)}` });

async function list(port: number): Promise<StatementSummaryEntry[]> {
  const res = await request(port, { path: '/api/v1/statements' });
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  return JSON.parse(res.text) as StatementSummaryEntry[];
}

describe('/api/v1/statements', { timeout: 20_000 }, () => {
  let srv: { handle: ServerHandle; deps: RecordingDeps };
  before(async () => {
    srv = await start({ enabled: true, max_entries: 4 });
  });
  after(() => srv.handle.close({ drainTimeoutMs: 1000 }));

  it('groups executed statements by normalized text and reports count, times and errors', async () => {
    const port = srv.handle.port;
    await request(port, { method: 'DELETE', path: '/api/v1/statements' });
    await query(port, `SELECT v FROM cpu WHERE host = 'a' LIMIT 1; SHOW DATABASES`);
    await query(port, `SELECT v FROM cpu WHERE host = 'b' LIMIT 5`);
    srv.deps.onQuery = async (req) => req.statements.map((_, i) => ({ statementId: i, error: 'database not found: nope' }));
    await query(port, `SELECT v FROM cpu WHERE host = 'c' LIMIT 9`);
    srv.deps.onQuery = async (req) => req.statements.map((_, i) => ({ statementId: i }));
    const entries = await list(port);
    const select = entries.find((e) => e.normalized_text === 'SELECT v FROM cpu WHERE host = ? LIMIT ?');
    assert.ok(select, JSON.stringify(entries));
    assert.equal(select.exec_count, 3);
    assert.equal(select.error_count, 1);
    assert.equal(select.last_error, 'database not found: nope');
    assert.equal(select.sample_text, `SELECT v FROM cpu WHERE host = 'c' LIMIT 9`);
    assert.match(select.digest, /^[0-9a-f]{64}$/);
    assert.ok(select.max_exec_ms >= select.avg_exec_ms && select.total_exec_ms >= select.max_exec_ms);
    assert.ok(!Number.isNaN(Date.parse(select.last_seen)));
    assert.ok(entries.some((e) => e.normalized_text === 'SHOW DATABASES' && e.exec_count === 1));
  });

  it('records statements that do not parse, with the parse error', async () => {
    const port = srv.handle.port;
    await request(port, { method: 'DELETE', path: '/api/v1/statements' });
    assert.equal((await query(port, 'SELEKT 1')).status, 400);
    const [e] = await list(port);
    assert.equal(e?.normalized_text, 'SELEKT ?');
    assert.match(e?.last_error ?? '', /error parsing query/);
  });

  it('never stores a password in clear', async () => {
    const port = srv.handle.port;
    await query(port, `CREATE USER bob WITH PASSWORD 'hunter2' WITH ALL PRIVILEGES`);
    await query(port, `SET PASSWORD FOR bob = 'hunter2'`);
    await query(port, `CREATE USER eve WITH PASSWORD hunter2`);
    const res = await request(port, { path: '/api/v1/statements' });
    assert.doesNotMatch(res.text, /hunter2/);
    const texts = (JSON.parse(res.text) as StatementSummaryEntry[]).flatMap((e) => [e.normalized_text, e.sample_text]);
    assert.ok(texts.includes(`SET PASSWORD FOR bob = '?'`), texts.join('\n'));
    assert.ok(texts.includes(`CREATE USER bob WITH PASSWORD '?' WITH ALL PRIVILEGES`), texts.join('\n'));
  });

  it('keeps at most max_entries digests', async () => {
    const port = srv.handle.port;
    for (let i = 0; i < 10; i++) await query(port, `SELECT v FROM m${i}`);
    const entries = await list(port);
    assert.equal(entries.length, 4);
    assert.equal(entries[0]?.normalized_text, 'SELECT v FROM m9');
  });

  it('a value the printer omits is a different statement: LIMIT 0, from the text or a bound parameter', async () => {
    const port = srv.handle.port;
    await request(port, { method: 'DELETE', path: '/api/v1/statements' });
    await query(port, 'SELECT v FROM cpu LIMIT 5');
    await query(port, 'SELECT v FROM cpu LIMIT 0');
    await query(port, 'SELECT v FROM cpu LIMIT 7');
    const bound = (n: number) => request(port, { method: 'POST', path: `/query?q=${encodeURIComponent('SELECT v FROM cpu LIMIT $n')}&params=${encodeURIComponent(JSON.stringify({ n }))}` });
    await bound(0);
    await bound(9);
    const entries = (await list(port)).map((e) => [e.normalized_text, e.sample_text, e.exec_count]);
    assert.deepEqual(entries, [
      ['SELECT v FROM cpu LIMIT ?', 'SELECT v FROM cpu LIMIT 9', 3],
      ['SELECT v FROM cpu', 'SELECT v FROM cpu', 2],
    ]);
  });

  it('DELETE clears the buffer', async () => {
    const port = srv.handle.port;
    await query(port, 'SHOW DATABASES');
    const res = await request(port, { method: 'DELETE', path: '/api/v1/statements' });
    assert.equal(res.status, 204);
    assert.deepEqual(await list(port), []);
    assert.equal((await request(port, { method: 'PUT', path: '/api/v1/statements' })).status, 405);
  });
});

describe('/api/v1/statements with statement_summary.enabled = false', { timeout: 20_000 }, () => {
  it('answers 200 [] and records nothing', async () => {
    const srv = await start({ enabled: false, max_entries: 4 });
    try {
      await query(srv.handle.port, 'SHOW DATABASES');
      assert.deepEqual(await list(srv.handle.port), []);
      assert.equal((await request(srv.handle.port, { method: 'DELETE', path: '/api/v1/statements' })).status, 204);
    } finally {
      await srv.handle.close({ drainTimeoutMs: 1000 });
    }
  });
});
