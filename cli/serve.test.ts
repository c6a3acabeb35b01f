/**
 * `strata` process smoke tests: spawn build/cli/main.js as a user would. `serve` must answer
 * /ping and exit 0 on SIGTERM after draining; configuration errors and unusable TLS files must
 * stop start-up with exit 1 and a message naming the key.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Anything under `dir` named after the warm-up's scratch directory or database. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (/jit/i.test(e.name)) out.push(join(d, e.name));
      else if (e.isDirectory()) walk(join(d, e.name));
      else if (readFileSync(join(d, e.name)).includes('jit_warmup')) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

/** The parent's env minus any SERVICE__ settings, plus the given ones. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__')) env[k] = v;
  return { ...env, ...extra };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function ping(port: number): Promise<{ status: number; version: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/ping', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.headers['x-influxdb-version'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `strata serve` in `cwd`. `pinged()` waits up to 60 s for /ping (the warm-up on a loaded
 * machine takes a while); `stop()` SIGKILLs a server still running, so a failed assertion never
 * leaves it behind holding the test process (and the suite) open.
 */
function startServe(cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = Number(env.SERVICE__SERVER__PORT);
  return {
    child,
    exited,
    stderr: () => stderr,
    async pinged(): Promise<{ status: number; version: string | undefined } | undefined> {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && child.exitCode === null) {
        const answer = await ping(port).catch(() => undefined);
        if (answer) return answer;
        await new Promise((r) => setTimeout(r, 50));
      }
      return undefined;
    },
    stop(): void {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

// Seven process starts: ~5 s on a quiet machine, 6-17 s each at load 15-20 (seen in a CI run
// beside two other suites), so the bound is for a hang, not a budget.
describe('strata command line', { timeout: 240_000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serve answers /ping and exits 0 on SIGTERM (with server.jit_warmup on)', async () => {
    const port = await freePort();
    const env = envWith({
      SERVICE__SERVER__JIT_WARMUP: 'true',
      SERVICE__SERVER__BASELINE_JIT: 'false',
      SERVICE__SERVER__PORT: String(port),
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'engine'),
    });
    const srv = startServe(dir, env);
    try {
      const answer = await srv.pinged();
      assert.equal(answer?.status, 204, srv.stderr());
      assert.match(String(answer?.version), /^strata-\d+\.\d+\.\d+/);
      srv.child.kill('SIGTERM');
      assert.equal(await srv.exited, 0, srv.stderr());
    } finally {
      srv.stop();
    }
    const stderr = srv.stderr();
    assert.match(stderr, /strata listening[^\n]* baselineJit=false/);
    assert.match(stderr, /final flush/);
    assert.match(stderr, /stopped/);
    // server.jit_warmup ran before listening, in a scratch directory of its own, and left
    // nothing in the server's directories.
    assert.match(stderr, /write path warmed up lines=\d+[^\n]*\n[^\n]*strata listening/);
    assert.deepEqual(leftovers(dir), []);
  });

  it('serve starts without the warm-up by default (server.jit_warmup = false)', async () => {
    const port = await freePort();
    const root = mkdtempSync(join(dir, 'cold-'));
    const srv = startServe(root, envWith({
      SERVICE__SERVER__PORT: String(port),
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(root, 'wal'),
      SERVICE__STORAGE__META_DIR: join(root, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(root, 'engine'),
    }));
    try {
      assert.equal((await srv.pinged())?.status, 204, srv.stderr());
      srv.child.kill('SIGTERM');
      assert.equal(await srv.exited, 0, srv.stderr());
    } finally {
      srv.stop();
    }
    assert.match(srv.stderr(), /strata listening[^\n]* baselineJit=true/);
    assert.doesNotMatch(srv.stderr(), /warm/);
  });

  it('serve stops with exit 1 naming a bad env value', async () => {
    const res = await run(['serve'], dir, envWith({ SERVICE__SERVER__PORT: 'eighty' }));
    assert.equal(res.code, 1);
    assert.match(res.stderr, /server\.port = "eighty" \(from environment variable SERVICE__SERVER__PORT\)/);
  });

  it('serve stops with exit 1 when the explicit config file is missing', async () => {
    const res = await run(['serve', '-c', join(dir, 'nope.toml')], dir, envWith({}));
    assert.equal(res.code, 1);
    assert.match(res.stderr, /config file not found/);
  });

  it('serve stops with exit 1 when TLS files are unreadable', async () => {
    const port = await freePort();
    const res = await run(
      ['serve'],
      dir,
      envWith({
        SERVICE__SERVER__PORT: String(port),
        SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
        SERVICE__SERVER__TLS_ENABLED: 'true',
        SERVICE__SERVER__TLS_CERT_PATH: join(dir, 'missing-cert.pem'),
        SERVICE__SERVER__TLS_KEY_PATH: join(dir, 'missing-key.pem'),
      }),
    );
    assert.equal(res.code, 1);
    assert.match(res.stderr, /cannot read server\.tls_cert_path ".*missing-cert\.pem"/);
  });

  it('config prints the effective configuration as TOML', async () => {
    const res = await run(['config'], dir, envWith({ SERVICE__SERVER__PORT: '9999', SERVICE__CHDB__POOL_SIZE: '2' }));
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^\[server\]$/m);
    assert.match(res.stdout, /^port = 9999$/m);
    assert.match(res.stdout, /^query_pool_size = 2$/m);
    assert.match(res.stderr, /warning: configuration key chdb\.pool_size .* deprecated/);
  });

  it('version prints strata <semver>', async () => {
    const res = await run(['version'], dir, envWith({}));
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^strata \d+\.\d+\.\d+\n$/);
  });
});
