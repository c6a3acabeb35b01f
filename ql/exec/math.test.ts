import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyMath, goRound } from './math.js';

describe('math functions (influxd 1.6.7 answers)', () => {
  it('integer input of abs/floor/ceil/round is returned unchanged (1.6 quirk: abs(-7i) = -7)', () => {
    assert.equal(applyMath('abs', [-7], true), -7);
    assert.equal(applyMath('ceil', [-7], true), -7);
    assert.equal(applyMath('round', [0], true), 0);
    assert.equal(applyMath('abs', [-9007199254740993n]), -9007199254740993n);
  });
  it('float results', () => {
    assert.equal(applyMath('abs', [-2.5]), 2.5);
    assert.equal(applyMath('floor', [-2.5]), -3);
    assert.equal(applyMath('round', [-2.5]), -3);
    assert.equal(applyMath('round', [2.5]), 3);
    assert.equal(applyMath('sqrt', [2.5]), 1.5811388300841898);
    assert.equal(applyMath('pow', [-7, 2], true), 49);
    assert.equal(applyMath('log', [3, 2]), 1.584962500721156);
    assert.equal(applyMath('log2', [3]), 1.5849625007211563);
    assert.equal(applyMath('log10', [3]), 0.4771212547196624);
  });
  it('trigonometric/exp results agree with Go to the last few ulps (Go uses Cephes, V8 fdlibm)', () => {
    const near = (a: unknown, b: number): void => assert.ok(Math.abs((a as number) - b) <= Math.abs(b) * 1e-15, `${String(a)} vs ${b}`);
    near(applyMath('exp', [-7], true), 0.0009118819655545162);
    near(applyMath('sin', [-7], true), -0.6569865987187891);
    near(applyMath('atan2', [-7, -2.5], true), -1.9138202672156);
    near(applyMath('atan2', [-7, 2], true), -1.2924966677897851);
  });
  it('NaN results stay NaN (printed null; an outer query over a subquery meets them as NaN, as in 1.x), non-numeric input is null', () => {
    assert.ok(Number.isNaN(applyMath('sqrt', [-7], true)));
    assert.ok(Number.isNaN(applyMath('asin', [2.5])));
    assert.equal(applyMath('abs', ['x']), null);
    assert.equal(applyMath('abs', [null]), null);
    assert.equal(applyMath('pow', [true, 2]), null);
  });
  it('infinite results stay numbers (1.6.7 fails the response on them)', () => {
    assert.equal(applyMath('ln', [0], true), -Infinity);
  });
  it('arity and unknown names are typed errors', () => {
    assert.throws(() => applyMath('pow', [1]), /expected 2, got 1/);
    assert.throws(() => applyMath('nope', [1]), /undefined function nope\(\)/);
  });
  it('Go math.Round: halves away from zero', () => {
    assert.deepEqual([0.5, 1.5, -0.5, -1.5, 0.49999999999999994, 2.4999999, -2.6].map(goRound), [1, 2, -1, -2, 0, 2, -3]);
  });
});
