/**
 * The single executable (`make binary` → dist/strata) on a machine without node_modules: copy
 * the binary ALONE into an empty directory and use it as a user would. `serve` must answer
 * /ping, create a database, take a write and return the point; after a restart the point must
 * come back from the storage files (the lz4 and xxhash code paths). Skipped when dist/strata
 * was not built (`make test-only` builds it first when esbuild and postject are installed).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // build/cli/ → repository root
const BINARY = join(ROOT, 'dist', process.platform === 'win32' ? 'strata.exe' : 'strata');
const MAIN_JS = join(ROOT, 'build', 'cli', 'main.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function skipReason(): string | undefined {
  if (!existsSync(BINARY)) return `${BINARY} was not built (make binary; needs the devDependencies esbuild and postject)`;
  if (existsSync(MAIN_JS) && statSync(BINARY).mtimeMs < statSync(MAIN_JS).mtimeMs) {
    return `${BINARY} is older than build/cli/main.js (run make binary again)`;
  }
  return undefined;
}

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

interface Answer {
  status: number;
  body: string;
}

function http(port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const q = (s: string): string => encodeURIComponent(s);

describe('single executable dist/strata', { skip: skipReason(), timeout: 120_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const children: ChildProcess[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-binary-'));
    copyFileSync(BINARY, join(dir, 'strata'));
    port = await freePort();
    env = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (!k.startsWith('SERVICE__') && !k.startsWith('NODE_') && !k.startsWith('STRATA_')) env[k] = v;
    }
    Object.assign(env, {
      HOME: dir,
      XDG_CACHE_HOME: join(dir, 'cache'),
      SERVICE__SERVER__PORT: String(port),
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(dir, 'data', 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'data', 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data', 'engine'),
      SERVICE__FLUSH__INTERVAL_SECS: '1',
    });
  });
  after(async () => {
    // Every child is gone before its directory is removed, or a dying server could still write there.
    const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
    const gone = running.map((c) => new Promise((resolve) => c.once('exit', resolve)));
    for (const c of running) c.kill('SIGKILL');
    await Promise.all(gone);
    rmSync(dir, { recursive: true, force: true });
  });

  function start(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
    const child = spawn(join(dir, 'strata'), args, { cwd: dir, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  async function untilPing(output: () => string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const answer = await http(port, 'GET', '/ping').catch(() => undefined);
      if (answer) return assert.equal(answer.status, 204, output());
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`no answer on /ping:\n${output()}`);
  }

  const SELECT = `/query?db=x&q=${q('SELECT * FROM cpu')}`;
  const EXPECTED = [['2023-11-14T22:13:20Z', 'a', 'hello hello hello hello hello hello', 1.5]];

  it('prints its version from an empty directory', async () => {
    const run = start(['version']);
    assert.equal(await run.exited, 0, run.output());
    assert.equal(run.output().trim(), `strata ${VERSION}`);
    // the addons and the bundle were unpacked to $XDG_CACHE_HOME/strata/<version>-<hash>/
    const ids = readdirSync(join(dir, 'cache', 'strata'));
    assert.equal(ids.length, 1);
    assert.match(ids[0] ?? '', new RegExp(`^${VERSION.replace(/\./g, '\\.')}-[0-9a-f]{16}$`));
    const files = readdirSync(join(dir, 'cache', 'strata', ids[0] ?? ''));
    assert.ok(files.some((f) => f.startsWith('uws.') && f.endsWith('.node')), files.join(' '));
    assert.ok(files.some((f) => f.startsWith('lz4.') && f.endsWith('.node')), files.join(' '));
  });

  it('serves /ping, CREATE DATABASE, a write and a query; the point survives a restart', async () => {
    const first = start(['serve']);
    await untilPing(first.output);
    const created = await http(port, 'POST', `/query?q=${q('CREATE DATABASE x')}`);
    assert.equal(created.status, 200, created.body);
    assert.deepEqual(JSON.parse(created.body), { results: [{ statement_id: 0 }] });
    const wrote = await http(port, 'POST', '/write?db=x', 'cpu,host=a value=1.5,s="hello hello hello hello hello hello" 1700000000000000000\n');
    assert.equal(wrote.status, 204, wrote.body);
    // The /write parse worker (a bundle of its own beside the program) came up with the engine.
    assert.match(first.output(), /write parse worker online/);
    const read = await http(port, 'GET', SELECT);
    assert.equal(read.status, 200, read.body);
    const series = (JSON.parse(read.body) as { results: [{ series: [{ columns: string[]; values: unknown[][] }] }] }).results[0].series[0];
    assert.deepEqual(series.columns, ['time', 'host', 's', 'value']);
    assert.deepEqual(series.values, EXPECTED);

    // wait for the 1 s flush to write a TSM file, so the restart reads the point from storage
    const hasTsm = (d: string): boolean =>
      existsSync(d) && readdirSync(d, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.tsm'));
    for (let i = 0; i < 200 && !hasTsm(join(dir, 'data', 'engine')); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(hasTsm(join(dir, 'data', 'engine')), `no .tsm file after 10 s:\n${first.output()}`);
    // On more than one core the snapshot was encoded by the flush worker (another bundle of its own).
    if (availableParallelism() > 1) assert.match(first.output(), /flush worker online/);

    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0, first.output());
    assert.match(first.output(), /final flush/);

    const second = start(['serve']);
    await untilPing(second.output);
    const again = await http(port, 'GET', SELECT);
    assert.equal(again.status, 200, again.body);
    assert.deepEqual(
      (JSON.parse(again.body) as { results: [{ series: [{ values: unknown[][] }] }] }).results[0].series[0].values,
      EXPECTED,
    );
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0, second.output());
  });

  it('backs up and restores (when this build has those commands)', async (t) => {
    const help = start(['--help']);
    assert.equal(await help.exited, 0, help.output());
    if (!/^\s+backup\b/m.test(help.output()) || !/^\s+restore\b/m.test(help.output())) {
      t.skip('this build has no backup/restore commands');
      return;
    }
    const backup = start(['backup', '--output', join(dir, 'backup')]);
    assert.equal(await backup.exited, 0, backup.output());
    const restored = {
      SERVICE__STORAGE__WAL_DIR: join(dir, 'restored', 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'restored', 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'restored', 'engine'),
    };
    const restore = start(['restore', '--input', join(dir, 'backup')], restored);
    assert.equal(await restore.exited, 0, restore.output());
    const server = start(['serve'], restored);
    await untilPing(server.output);
    const read = await http(port, 'GET', SELECT);
    assert.equal(read.status, 200, read.body);
    assert.deepEqual((JSON.parse(read.body) as { results: [{ series: [{ values: unknown[][] }] }] }).results[0].series[0].values, EXPECTED);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output());
  });
});
