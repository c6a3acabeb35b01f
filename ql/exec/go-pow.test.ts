import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../engine/random.js';
import { frexp, goPow, ldexp } from './go-pow.js';

describe('frexp / ldexp (Go math semantics)', () => {
  it('splits into a mantissa in [0.5, 1) and back, normal and subnormal numbers alike', () => {
    const rnd = mulberry32(11);
    const samples = [1, -1, 0.5, 3, 1e-310, -4.9e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1];
    for (let i = 0; i < 2000; i++) samples.push((rnd() - 0.5) * 2 ** Math.floor(rnd() * 2000 - 1000));
    for (const x of samples) {
      const [m, e] = frexp(x);
      if (x !== 0) assert.ok(Math.abs(m) >= 0.5 && Math.abs(m) < 1, `mantissa of ${x}: ${m}`);
      assert.equal(ldexp(m, e), x, `round trip of ${x}`);
    }
  });

  it('keeps zeros, infinities and NaN', () => {
    assert.deepEqual(frexp(0), [0, 0]);
    assert.equal(ldexp(Infinity, 3), Infinity);
    assert.ok(Number.isNaN(ldexp(NaN, 1)));
    assert.equal(ldexp(0.75, 2000), Infinity);
    assert.equal(ldexp(-0.75, -2000), -0);
  });
});

describe('goPow with integer exponents', () => {
  it('equals repeated multiplication wherever nothing over- or underflows', () => {
    const rnd = mulberry32(5);
    for (let i = 0; i < 5000; i++) {
      const x = rnd() * 2 - 1;
      const n = 1 + Math.floor(rnd() * 40);
      let a = 1;
      let b = x;
      for (let k = n; k > 0; k = Math.floor(k / 2)) {
        if (k % 2 === 1) a *= b;
        b *= b;
      }
      if (Math.abs(a) > 1e-300) assert.equal(goPow(x, n), a, `${x}^${n}`);
    }
  });

  it('follows Go for the special cases', () => {
    assert.equal(goPow(0.3, 0), 1);
    assert.equal(goPow(1, 12345), 1);
    assert.equal(goPow(0, 3), 0);
    assert.ok(Object.is(goPow(-0, 3), -0));
    assert.equal(goPow(-Infinity, 2), Infinity);
    assert.equal(goPow(-Infinity, 3), -Infinity);
    assert.ok(Number.isNaN(goPow(NaN, 2)));
    // Deep underflow saturates to zero instead of wandering through subnormals.
    assert.equal(goPow(0.3, 5000), 0);
  });
});

describe('goPow', () => {
  it('gives Go float64 results where V8 rounds differently (1.6.7: pow(95, 10) prints 59873693923837895000)', () => {
    assert.equal(String(goPow(95, 10)), '59873693923837895000');
    assert.notEqual(goPow(95, 10), 95 ** 10);
  });

  it('follows Go for the special cases', () => {
    assert.equal(goPow(2, 0.5), Math.SQRT2);
    assert.equal(goPow(4, -0.5), 0.5);
    assert.ok(Number.isNaN(goPow(-8, 1 / 3)));
    assert.equal(goPow(-0, -3), -Infinity);
    assert.equal(goPow(0, -2), Infinity);
    assert.equal(goPow(-1, Infinity), 1);
    assert.equal(goPow(0.5, Infinity), 0);
    assert.equal(goPow(-Infinity, -3), -0);
    assert.equal(goPow(2, -2), 0.25);
    assert.ok(Math.abs(goPow(2, 2.5) - 5.656854249492381) < 1e-15);
  });
});
