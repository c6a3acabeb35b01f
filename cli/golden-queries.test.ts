/**
 * Golden query scripts (fixtures/queries/*.test, recorded from InfluxDB 1.6.7) replayed through
 * a real `strata serve` on loopback with fresh directories; one subtest per script. Any
 * difference fails, except the queries listed in KNOWN_FAILURES (which must still differ: a
 * known failure that starts passing fails too, so the list cannot go stale). Error-text
 * differences are reported as diagnostics only, as in the shared conformance runner.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { compareJSON } from './golden-json.js';
import { goldenFiles } from './golden-record.js';
import { parseScript, replay } from './golden-script.js';

/** `file: query` → why Strata's answer still differs from 1.6.7's. */
const KNOWN_FAILURES: ReadonlyMap<string, string> = new Map<string, string>([]);

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

let child: ChildProcess | undefined;
let dir = '';
let url = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-golden-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['build/cli/main.js', 'serve'], {
    env: {
      ...process.env,
      SERVICE__SERVER__PORT: String(port),
      SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
      SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
      SERVICE__LOGGING__LEVEL: 'warn',
      // 1.6.7 keeps such small writes in its cache for minutes: EXPLAIN's CACHED VALUES (a0-explain)
      // would move to files under a flush landing between a script's write and its queries.
      SERVICE__FLUSH__INTERVAL_SECS: '3600',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/ping`)).status === 204) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('strata did not come up');
});

after(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child?.once('exit', r));
  }
  await rm(dir, { recursive: true, force: true });
});

const files = await goldenFiles(process.cwd());
const seen = new Set<string>();

test('golden scripts exist', () => {
  assert.ok(files.length >= 10, `only ${files.length} scripts under fixtures/queries`);
});

for (const file of files) {
  const name = basename(file);
  test(name, { timeout: 120_000 }, async (t) => {
    const steps = parseScript(readFileSync(file, 'utf8'), name);
    const problems: string[] = [];
    await replay(url, steps, name, (step, got) => {
      const key = `${name}: ${step.q}`;
      const known = KNOWN_FAILURES.get(key);
      seen.add(key);
      const where = `${name}:${step.line} ${step.q}`;
      if (!step.expect) return void problems.push(`${where}\n  no expect block (record it with build/cli/golden-record.js)`);
      const diffs = step.expect.status === got.status ? [] : [`status: expected ${step.expect.status}, got ${got.status}`];
      const { diffs: bodyDiffs, notes } = compareJSON(step.expect.body, got.body);
      diffs.push(...bodyDiffs);
      for (const n of notes) t.diagnostic(`${where}: ${n}`);
      if (known !== undefined) {
        if (!diffs.length) problems.push(`${where}\n  listed in KNOWN_FAILURES (${known}) but now matches 1.6.7: remove it from the list`);
        else t.diagnostic(`known failure ${where}: ${known}`);
      } else if (diffs.length) {
        problems.push(`${where}\n  ${diffs.join('\n  ')}`);
      }
    });
    assert.equal(problems.length, 0, problems.join('\n'));
  });
}

test('every known failure names an existing query', () => {
  const stale = [...KNOWN_FAILURES.keys()].filter((k) => !seen.has(k));
  assert.deepEqual(stale, []);
});
