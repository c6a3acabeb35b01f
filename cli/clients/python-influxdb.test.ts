/**
 * python3-influxdb 5.3.1 (Debian python3-influxdb, run with /usr/bin/python3) against a real
 * `strata serve`. The checks live in fixtures/clients/python_influxdb_client.py (ping, create /
 * list / drop database, write_points with every field type and every time precision, exact
 * query values, gzip=True, error codes); this test runs it and reports each check. Skipped with
 * a reason when the interpreter or the module is missing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { executable, FIXTURES, http, removeDir, runCmd, startServer, stopServer, type Server } from './harness.js';

const PYTHON = '/usr/bin/python3';

function skipReason(): string | false {
  if (!executable(PYTHON)) return `${PYTHON} not installed`;
  const probe = spawnSync(PYTHON, ['-c', 'import influxdb; print(influxdb.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) return 'python module influxdb missing (apt-get install python3-influxdb, see .ci/run)';
  return false;
}

describe('python3-influxdb', { timeout: 120_000, skip: skipReason() }, () => {
  let srv: Server;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('runs every client check against strata', async (t) => {
    const res = await runCmd(PYTHON, [join(FIXTURES, 'python_influxdb_client.py'), String(srv.port)], {
      timeoutMs: 90_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
    });
    const out = res.stdout + res.stderr;
    // One subtest per check of the script, so the report names them.
    for (const m of res.stdout.matchAll(/^(ok|FAILED) (.*)$/gm)) {
      const [, verdict, name] = m;
      await t.test(`python: ${name}`, () => assert.equal(verdict, 'ok', out));
    }
    assert.equal(res.code, 0, `${out}\n--- server log ---\n${srv.log().slice(-3000)}`);
    const last = res.stdout.trim().split('\n').at(-1) ?? '';
    const summary = JSON.parse(last) as { version: string; checks: number };
    const ping = await http(srv.port, 'GET', '/ping');
    assert.equal(summary.version, ping.headers['x-influxdb-version']);
    assert.equal(summary.checks, (res.stdout.match(/^ok /gm) ?? []).length);
    assert.ok(summary.checks >= 16, out);
  });
});
