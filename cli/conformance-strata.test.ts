/**
 * Strata's own differential cases (fixtures/conformance, recorded from InfluxDB 1.6.7) run with
 * the shared runner against a real `strata serve`. Every difference must be listed in
 * known-differences.json with its reason, and a listed case that no longer differs must be
 * taken off the list, so the list stays the truth.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, startServer, stopServer } from './clients/harness.js';

const SUITE = resolve(process.cwd(), '../shared/conformance');
const CASES = resolve(process.cwd(), 'fixtures/conformance');

test('Strata differential cases against strata serve', { skip: !existsSync(join(SUITE, 'run.mjs')) && 'shared/conformance not present', timeout: 600_000 }, async () => {
  const known = JSON.parse(readFileSync(join(CASES, 'known-differences.json'), 'utf8')) as Record<string, string>;
  const cases = JSON.parse(readFileSync(join(CASES, 'cases.strata.json'), 'utf8')) as { id: string }[];
  const ids = new Set(cases.map((c) => c.id));
  for (const id of Object.keys(known)) assert.ok(ids.has(id), `known-differences.json names ${id}, which is not a case`);
  // A flush between a case's writes and its query would move EXPLAIN's CACHED VALUES to files (s-x076).
  const srv = await startServer({ env: { SERVICE__LOGGING__LEVEL: 'warn', SERVICE__FLUSH__INTERVAL_SECS: '3600' } });
  try {
    const args = ['run.mjs', '--url', srv.url, '--cases', join(CASES, 'cases.strata.json'), '--check', join(CASES, 'expected'), '--settle-ms', '5000', '--verbose'];
    const out = await new Promise<string>((res) => {
      execFile(process.execPath, args, { cwd: SUITE, maxBuffer: 256 << 20 }, (_err, stdout) => res(stdout));
    });
    const m = /(\d+) passed, (\d+) failed/.exec(out);
    assert.ok(m, `no summary line in:\n${out.slice(-2000)}`);
    const failing = new Set(out.split('\n').filter((l) => l.startsWith('FAIL ')).map((l) => l.split(' ')[1]!));
    const unexpected = [...failing].filter((id) => !(id in known));
    const details = (id: string): string => out.split('\n\n').find((b) => b.startsWith(`FAIL ${id} [`)) ?? id;
    assert.deepEqual(unexpected, [], `differences from 1.6.7 not in known-differences.json:\n${unexpected.map(details).join('\n\n')}`);
    const fixed = Object.keys(known).filter((id) => !failing.has(id));
    assert.deepEqual(fixed, [], 'these cases now match 1.6.7: take them off known-differences.json');
    assert.equal(Number(m[1]), cases.length - failing.size);
  } finally {
    await stopServer(srv);
    removeDir(srv.dir);
  }
});
