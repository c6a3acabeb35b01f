/**
 * tuneV8ForServing() makes V8 optimize a once-per-request function sooner, set at run time.
 * Each case runs in a child process with natives syntax (to read the optimization status) and
 * synchronous optimization (so the status does not depend on a background thread's timing).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const TUNING = new URL('./v8-tuning.js', import.meta.url).href;

/** 300 calls: past the tuned budget (optimized after ~200), short of the default one (~800). */
const SCRIPT = `
if (process.argv[2] === 'tune') (await import(${JSON.stringify(TUNING)})).tuneV8ForServing();
function perRequest(o) {
  let s = '';
  for (const k of ['a', 'b', 'c', 'd']) s += k + (o[k] ?? 0) + ',';
  const parts = s.split(',');
  return parts.length + (o.a > 1 ? parts[0].length : parts[1].length) + JSON.stringify(o).length;
}
for (let i = 0; i < 300; i++) perRequest({ a: i % 3, b: 'x', c: i, d: null });
process.stdout.write(String((%GetOptimizationStatus(perRequest) & 16) !== 0));
`;

function optimizedAfter300Calls(mode: 'tune' | 'default'): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'v8-tuning-'));
  try {
    const file = join(dir, 'probe.mjs');
    writeFileSync(file, SCRIPT);
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', file, mode], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout === 'true';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('tuneV8ForServing', () => {
  it('optimizes a function called once per request after fewer calls than V8 by default', () => {
    assert.equal(optimizedAfter300Calls('default'), false);
    assert.equal(optimizedAfter300Calls('tune'), true);
  });
});
