/**
 * server.jit_warmup (cli/jit-warmup.ts): the key, priming over the real engine and server, and
 * that priming leaves nothing behind: no files in the user's or the temporary directories, no
 * database, no counted requests, no statement summaries.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server/index.js';
import { loadConfig } from './config.js';
import { primeQueryPath } from './jit-warmup.js';
import { createLogger } from './logger.js';
import { openDeps, serverOptions } from './serve.js';

const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

function configFor(dir: string, extra: Record<string, string> = {}) {
  const env: Record<string, string> = {
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
    SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
    SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
    ...extra,
  };
  return loadConfig({ getenv: () => env, readFile: () => undefined }).config;
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Spawns `strata serve` on an ephemeral port (read from its log) and waits until it listens. */
async function serveProcess(dir: string, extra: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__')) env[k] = v;
  Object.assign(env, {
    SERVICE__SERVER__PORT: '0',
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
    SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
    SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
    SERVICE__LOGGING__FORMAT: 'json',
    ...extra,
  });
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /"port":(\d+)[^\n]*"msg":"strata listening"/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    port,
    log: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
    },
  };
}

describe('server.jit_warmup', { timeout: 60_000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-jit-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to false; SERVICE__SERVER__JIT_WARMUP=true turns it on', () => {
    assert.equal(configFor(dir).server.jit_warmup, false);
    assert.equal(configFor(dir, { SERVICE__SERVER__JIT_WARMUP: 'true' }).server.jit_warmup, true);
  });

  it('primes on a scratch server and removes it: nothing in the user directories or the temporary root', async () => {
    const user = join(dir, 'user');
    const tmpRoot = mkdtempSync(join(dir, 'tmp-'));
    const config = configFor(user);
    const log = createLogger(config.logging, { write: () => true });
    const report = await primeQueryPath(
      config,
      {
        openDeps: (c) => openDeps(c, log, { processMetrics: false }),
        startServer: (deps, c) => startServer(deps, serverOptions(c), log),
      },
      // Every statement shape at least 4 times; a statement error or a non-2xx answer rejects.
      { requests: 48, budgetMs: 60_000, tmpRoot },
    );
    assert.equal(report.requests, 48);
    assert.ok(report.cpuMs > 0 && report.wallMs > 0);
    assert.deepEqual(readdirSync(tmpRoot), []);
    assert.equal(existsSync(user), false, 'the user directories must not be created by priming');
  });

  it('`strata serve` primes with the key on and shows no trace of it; with the key off it does not prime', async () => {
    for (const warmup of ['true', 'false']) {
      const home = mkdtempSync(join(dir, `serve-${warmup}-`));
      const srv = await serveProcess(home, { SERVICE__SERVER__JIT_WARMUP: warmup });
      try {
        assert.equal(/"msg":"query path primed/.test(srv.log()), warmup === 'true', srv.log());
        // The user's storage: only the user's databases (none), no data of the scratch engine.
        const dbs = await get(srv.port, `/query?q=${encodeURIComponent('SHOW DATABASES')}`);
        assert.equal(dbs.status, 200);
        assert.deepEqual(JSON.parse(dbs.body), { results: [{ statement_id: 0, series: [{ name: 'databases', columns: ['name'] }] }] });
        assert.deepEqual(readdirSync(join(home, 'data')), []);
        // The user's metrics and statement summaries: the one SHOW DATABASES above, nothing else.
        const metrics = (await get(srv.port, '/metrics')).body;
        assert.match(metrics, /^service_query_requests_total 1$/m);
        assert.match(metrics, /^service_write_requests_total 0$/m);
        const summaries = await get(srv.port, '/api/v1/statements');
        assert.doesNotMatch(summaries.body, /FROM m\b|warmup/i, summaries.body);
        assert.match(summaries.body, /SHOW DATABASES/);
      } finally {
        await srv.stop();
      }
    }
  });

  it('SIGTERM during the warm-up stops `strata serve` cleanly and leaves no scratch directory in TMPDIR', async () => {
    const home = mkdtempSync(join(dir, 'stopped-'));
    const tmp = mkdtempSync(join(dir, 'tmpdir-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__')) env[k] = v;
    Object.assign(env, {
      TMPDIR: tmp,
      SERVICE__SERVER__JIT_WARMUP: 'true',
      SERVICE__SERVER__PORT: '0',
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(home, 'wal'),
      SERVICE__STORAGE__META_DIR: join(home, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(home, 'data'),
      SERVICE__LOGGING__FORMAT: 'json',
    });
    const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      // The stop comes while the query path is being primed: its scratch directory exists.
      for (let i = 0; i < 1500 && !readdirSync(tmp).some((n) => n.startsWith('strata-jit-warmup-')); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(readdirSync(tmp).length > 0, `no scratch directory appeared in TMPDIR:\n${stderr}`);
    } finally {
      child.kill('SIGTERM');
    }
    assert.deepEqual(await exited, { code: 0, signal: null }, stderr);
    assert.deepEqual(readdirSync(tmp), [], 'the warm-up scratch directory must be removed on a stop');
    assert.doesNotMatch(stderr, /strata listening/);
  });
});
