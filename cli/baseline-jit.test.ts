/**
 * cli/baseline-jit.ts: the run-time switch takes effect in this Node. A function first called
 * after compileBaselineOnFirstCall() has baseline code after that one call; without the switch it
 * is still interpreted. (A Node whose V8 renamed or dropped the flag fails here, where a serve
 * test would only see slower first queries.)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

const MODULE = new URL('./baseline-jit.js', import.meta.url).href;

/** V8's %GetOptimizationStatus bit for "has baseline (Sparkplug) code". */
const BASELINE_BIT = 1 << 15;

function statusAfterOneCall(withSwitch: boolean): number {
  const script = `
    import { setFlagsFromString } from 'node:v8';
    import { compileBaselineOnFirstCall } from ${JSON.stringify(MODULE)};
    setFlagsFromString('--allow-natives-syntax');
    const status = new Function('f', 'return %GetOptimizationStatus(f)');
    if (${withSwitch}) compileBaselineOnFirstCall();
    const f = new Function('a', 'return a + 1');
    f(1);
    process.stdout.write(String(status(f)));
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('compileBaselineOnFirstCall', () => {
  it('gives a function first called afterwards baseline code after one call', () => {
    assert.notEqual(statusAfterOneCall(true) & BASELINE_BIT, 0);
  });

  it('leaves V8 interpreting such a function without the switch', () => {
    assert.equal(statusAfterOneCall(false) & BASELINE_BIT, 0);
  });
});
