/**
 * The shared conformance dataset (../shared/conformance/dataset.mjs, 65 databases, every write
 * shape of the suite) loads into a fresh `strata serve` with zero write errors, and the loader's
 * row counts (expected/_dataset.json) are what the server then reports. Skipped when the shared
 * folder is absent (it sits next to the repository in CI).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { query, removeDir, runCmd, startServer, stopServer, type Server } from './harness.js';

// Real path: dataset.mjs runs its main only when argv[1] is its own (symlink-free) path.
const SUITE_LINK = resolve(process.cwd(), '../shared/conformance');
const SUITE = existsSync(SUITE_LINK) ? realpathSync(SUITE_LINK) : SUITE_LINK;
const SCRIPT = join(SUITE, 'dataset.mjs');
const skip = existsSync(SCRIPT) ? false : `${SCRIPT} not found (the shared conformance folder sits at ../shared next to the repo)`;

describe('shared conformance dataset', { timeout: 180_000, skip }, () => {
  let srv: Server;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('node dataset.mjs --url loads with zero write errors (exit 0)', async () => {
    const res = await runCmd(process.execPath, [SCRIPT, '--url', srv.url], { timeoutMs: 150_000 });
    assert.equal(res.code, 0, `${res.stdout}\n${res.stderr}\n--- server log ---\n${srv.log().slice(-3000)}`);
    assert.match(res.stdout + res.stderr, /\b0 errors\b/);
  });

  it('the databases are listed and the loader can be run again (drop + recreate)', async () => {
    const dbs = (await query(srv.port, 'SHOW DATABASES')) as { results: { series: { values: string[][] }[] }[] };
    const names = (dbs.results[0]?.series[0]?.values ?? []).map((v) => v[0]);
    assert.ok(names.includes('telemetry') && names.includes('archive'), names.join(','));
    const again = await runCmd(process.execPath, [SCRIPT, '--url', srv.url], { timeoutMs: 150_000 });
    assert.equal(again.code, 0, `${again.stdout}\n${again.stderr}`);
  });

  it('every probe of expected/_dataset.json returns the recorded row count', {
    skip: existsSync(join(SUITE, 'expected/_dataset.json')) ? false : 'no expected/_dataset.json',
  }, async () => {
    const expected = JSON.parse(readFileSync(join(SUITE, 'expected/_dataset.json'), 'utf8')) as { probes: { q: string; rows: number }[] };
    assert.ok(expected.probes.length > 10);
    const wrong: string[] = [];
    for (const probe of expected.probes) {
      const answer = (await query(srv.port, probe.q)) as { results: { series?: { values: unknown[] }[]; error?: string }[] };
      const result = answer.results[0];
      const n = (result?.series ?? []).reduce((sum, s) => sum + s.values.length, 0);
      if (n !== probe.rows) wrong.push(`${probe.q}: ${n} rows (expected ${probe.rows})${result?.error ? ' ' + result.error : ''}`);
    }
    assert.deepEqual(wrong, []);
  });
});
