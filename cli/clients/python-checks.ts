/**
 * Runs one of fixtures/clients/*.py against a server and reports each of its checks as a
 * subtest: the scripts print `ok <check>` / `FAILED <check>` per check and a JSON summary last.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { executable, FIXTURES, runCmd, type Server } from './harness.js';

export const PYTHON = '/usr/bin/python3';

/** Why the script cannot run here (interpreter or a module missing), or false. */
export function pythonSkipReason(modules: readonly string[], install: string): string | false {
  if (!executable(PYTHON)) return `${PYTHON} not installed`;
  const probe = spawnSync(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { encoding: 'utf8' });
  if (probe.status !== 0) return `python module(s) ${modules.join(', ')} missing (apt-get install ${install}, see .ci/run)`;
  return false;
}

/** Runs `script` against `srv`; returns the summary line, after every check passed. */
export async function runPythonChecks(t: TestContext, script: string, srv: Server): Promise<Record<string, unknown> & { checks: number }> {
  const res = await runCmd(PYTHON, [join(FIXTURES, script), String(srv.port)], {
    timeoutMs: 90_000,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
  });
  const out = res.stdout + res.stderr;
  for (const m of res.stdout.matchAll(/^(ok|FAILED) (.*)$/gm)) {
    const [, verdict, name] = m;
    await t.test(`python: ${name}`, () => assert.equal(verdict, 'ok', out));
  }
  assert.equal(res.code, 0, `${out}\n--- server log ---\n${srv.log().slice(-3000)}`);
  const summary = JSON.parse(res.stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown> & { checks: number };
  assert.equal(summary.checks, (res.stdout.match(/^ok /gm) ?? []).length);
  return summary;
}
