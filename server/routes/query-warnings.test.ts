/**
 * /query's 1.x details around the statements: a write sent with GET runs with a deprecation
 * warning on its own result (POST and reads get none), and a missing `db` is a 404 only for
 * batches that read it (not for CREATE/DROP DATABASE or database-independent statements).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectingLogger } from '../../engine/index.js';
import { startServer, type ServerHandle } from '../app.js';
import { defaultServerOptions } from '../options.js';
import { RecordingDeps, request } from '../testing.js';

interface Body {
  results: { statement_id: number; messages?: { level: string; text: string }[]; error?: string }[];
  error?: string;
}

describe('/query warnings and database checks', { timeout: 20_000 }, () => {
  let handle: ServerHandle;
  before(async () => {
    const deps = new RecordingDeps();
    deps.databases.add('db');
    handle = await startServer(deps, defaultServerOptions({ server: { bind_address: '127.0.0.1', port: 0 } }), collectingLogger());
  });
  after(() => handle.close({ drainTimeoutMs: 1000 }));

  const ask = async (method: 'GET' | 'POST', q: string, db = 'db') => {
    const res = await request(handle.port, { method, path: `/query?db=${db}&q=${encodeURIComponent(q)}` });
    return { status: res.status, body: JSON.parse(res.text) as Body };
  };

  it('a write sent with GET gets the deprecation warning on its own result only', async () => {
    const { status, body } = await ask('GET', 'SELECT v FROM cpu; CREATE DATABASE x; SHOW DATABASES');
    assert.equal(status, 200);
    assert.equal(body.results[0]!.messages, undefined);
    assert.deepEqual(body.results[1]!.messages, [
      { level: 'warning', text: "deprecated use of 'CREATE DATABASE x' in a read only context, please use a POST request instead" },
    ]);
    assert.equal(body.results[2]!.messages, undefined);
  });

  it('no warning for POST or for reads sent with GET', async () => {
    for (const [method, q] of [
      ['POST', 'CREATE DATABASE x'],
      ['GET', 'SELECT v FROM cpu'],
      ['GET', 'SHOW DATABASES'],
    ] as const) {
      const { body } = await ask(method, q);
      assert.equal(body.results[0]!.messages, undefined, `${method} ${q}`);
    }
  });

  it('a missing database is a 404 unless the batch creates or drops one or does not read it', async () => {
    assert.equal((await ask('GET', 'SELECT v FROM cpu', 'nope')).status, 404);
    assert.equal((await ask('GET', 'SHOW DATABASES; SELECT v FROM cpu', 'nope')).status, 404);
    assert.equal((await ask('POST', 'CREATE DATABASE nope; SELECT v FROM cpu', 'nope')).status, 200);
    assert.equal((await ask('POST', 'SELECT v FROM cpu; DROP DATABASE nope', 'nope')).status, 200);
    assert.equal((await ask('GET', 'SHOW DATABASES', 'nope')).status, 200);
  });
});
