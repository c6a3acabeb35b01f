import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defer, tempDir, tempDirSync } from './temp-dir.js';
import type { CleanupScope } from './temp-dir.js';

/** A scope whose end the test triggers itself, to look at the directories before and after. */
function manualScope(): CleanupScope & { end(): Promise<void> } {
  const hooks: Array<() => unknown> = [];
  return {
    after: (fn) => void hooks.push(fn),
    async end() {
      for (const fn of hooks) await fn();
    },
  };
}

test('a directory lives until its test ends, then goes with its contents', async (t) => {
  let dir = '';
  let syncDir = '';
  await t.test('inner', async (inner) => {
    dir = await tempDir(inner, 'strata-tempdir-');
    syncDir = tempDirSync(inner, 'strata-tempdir-sync-');
    await writeFile(join(dir, 'f'), 'x');
    writeFileSync(join(syncDir, 'f'), 'x');
    assert.ok(existsSync(join(dir, 'f')) && existsSync(join(syncDir, 'f')));
  });
  assert.equal(existsSync(dir), false, `${dir} is still there after its test ended`);
  assert.equal(existsSync(syncDir), false, `${syncDir} is still there after its test ended`);
});

test('cleanups run last-registered first, so a close registered after tempDir still sees the directory', async () => {
  const scope = manualScope();
  const dir = await tempDir(scope, 'strata-tempdir-order-');
  let seen: boolean | undefined;
  defer(scope, () => (seen = existsSync(dir)));
  await scope.end();
  assert.equal(seen, true, 'the later cleanup ran after the directory was removed');
  assert.equal(existsSync(dir), false);
});

test('a failing cleanup does not keep the directory; its error is reported', async () => {
  const scope = manualScope();
  const dir = await tempDir(scope, 'strata-tempdir-fail-');
  defer(scope, () => {
    throw new Error('close failed');
  });
  await assert.rejects(scope.end(), /close failed/);
  assert.equal(existsSync(dir), false);
});

test('a test that fails (thrown assertion) still leaves nothing in TMPDIR', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'strata-tempdir-run-'));
  try {
    const scratch = join(tmp, 'scratch');
    const file = join(tmp, 'failing.test.mjs');
    writeFileSync(
      file,
      `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tempDir } from ${JSON.stringify(new URL('./temp-dir.js', import.meta.url).href)};
test('fails after making a directory', async (t) => {
  const dir = await tempDir(t, 'strata-failing-');
  await writeFile(dir + '/data', 'x');
  assert.equal(1, 2);
});
`,
    );
    // A fresh TMPDIR: whatever the failing test leaves behind is there afterwards.
    mkdirSync(scratch);
    // NODE_TEST_CONTEXT would make the inner runner report to ours in its binary protocol.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { env: { ...env, TMPDIR: scratch }, encoding: 'utf8' });
    assert.equal(r.status, 1, `the inner test must fail:\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /not ok 1 - fails after making a directory/);
    assert.deepEqual(readdirSync(scratch), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
