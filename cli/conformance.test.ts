/**
 * The shared InfluxDB 1.6.7 conformance suite (../shared/conformance) run against a real
 * `strata serve` on loopback with fresh directories. The pass count is a ratchet: it may
 * only go up; README.md lists the cases that still fail and why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, startServer, stopServer } from './clients/harness.js';

const SUITE = resolve(process.cwd(), '../shared/conformance');
const MIN_PASSED = 180;

test('shared conformance suite against strata serve', { skip: !existsSync(join(SUITE, 'run.mjs')) && 'shared/conformance not present', timeout: 300_000 }, async () => {
  const srv = await startServer({ env: { SERVICE__LOGGING__LEVEL: 'warn' } });
  try {
    const url = srv.url;
    const out = await new Promise<string>((res) => {
      execFile(process.execPath, ['run.mjs', '--url', url, '--set', 'public', '--check', 'expected', '--settle-ms', '5000'], { cwd: SUITE, maxBuffer: 64 << 20 }, (_err, stdout) => res(stdout));
    });
    const m = /(\d+) passed, (\d+) failed/.exec(out);
    assert.ok(m, `no summary line in:\n${out.slice(-2000)}`);
    const passed = Number(m[1]);
    const failing = out.split('\n').filter((l) => l.startsWith('FAIL ')).join('\n');
    assert.ok(passed >= MIN_PASSED, `${passed} passed (need >= ${MIN_PASSED}); failing:\n${failing}`);
  } finally {
    await stopServer(srv);
    removeDir(srv.dir);
  }
});
