/**
 * The shared InfluxDB 1.6.7 conformance suite (../shared/conformance) run against a real
 * `strata serve` on loopback with fresh directories. The pass count is a ratchet: it may
 * only go up; README.md lists the cases that still fail and why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SUITE = resolve(process.cwd(), '../shared/conformance');
const MIN_PASSED = 180;

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

async function waitForPing(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/ping`)).status === 204) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('strata did not come up');
}

test('shared conformance suite against strata serve', { skip: !existsSync(join(SUITE, 'run.mjs')) && 'shared/conformance not present', timeout: 300_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-conformance-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['build/cli/main.js', 'serve'], {
    env: {
      ...process.env,
      SERVICE__SERVER__PORT: String(port),
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
      SERVICE__LOGGING__LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForPing(url);
    const out = await new Promise<string>((res) => {
      execFile(process.execPath, ['run.mjs', '--url', url, '--set', 'public', '--check', 'expected', '--settle-ms', '5000'], { cwd: SUITE, maxBuffer: 64 << 20 }, (_err, stdout) => res(stdout));
    });
    const m = /(\d+) passed, (\d+) failed/.exec(out);
    assert.ok(m, `no summary line in:\n${out.slice(-2000)}`);
    const passed = Number(m[1]);
    const failing = out.split('\n').filter((l) => l.startsWith('FAIL ')).join('\n');
    assert.ok(passed >= MIN_PASSED, `${passed} passed (need >= ${MIN_PASSED}); failing:\n${failing}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
});
