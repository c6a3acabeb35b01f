import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { holtWinters, type ForecastPoint } from './holt-winters.js';
import { nelderMead } from './nelder-mead.js';

const MIN = 60_000_000_000n;
const series = (values: number[], step = MIN): ForecastPoint[] => values.map((value, i) => ({ time: BigInt(i) * step, value }));

describe('nelderMead', () => {
  it('finds the minimum of a smooth bowl', async () => {
    const { min, params } = await nelderMead((x) => (x[0]! - 3) ** 2 + (x[1]! + 1) ** 2 + 2, [0, 0], 1e-12, 1);
    assert.ok(Math.abs(min - 2) < 1e-9, `min ${min}`);
    assert.ok(Math.abs(params[0]! - 3) < 1e-4 && Math.abs(params[1]! + 1) < 1e-4, `at ${params}`);
  });

  it('returns the vertex it evaluated last, even when the objective edits it in place', async () => {
    const clamp = (x: number[]): number => {
      x[0] = Math.max(0, x[0]!);
      return (x[0]! + 1) ** 2;
    };
    const { min, params } = await nelderMead(clamp, [0.5], 1e-10, 1);
    assert.equal(min, 1);
    assert.ok(params[0]! >= 0);
  });
});

describe('holtWinters', () => {
  const args = { h: 3, m: 0, withFit: false, interval: MIN };

  it('forecasts h points one interval apart after the last aggregate', async () => {
    const out = await holtWinters(series([1, 2, 3, 4, 5, 6, 7, 8]), args);
    assert.deepEqual(
      out.map((p) => p.time),
      [8n * MIN, 9n * MIN, 10n * MIN],
    );
    for (const p of out) assert.ok(Number.isFinite(p.value));
  });

  it('with_fit starts at the first aggregate and covers the fit and the forecast', async () => {
    const out = await holtWinters(series([5, 6, 5, 6, 5, 6]), { ...args, withFit: true });
    assert.equal(out.length, 6 + 3);
    assert.equal(out[0]!.time, 0n);
    assert.equal(out[0]!.value, 5, 'the fit starts from the first observation');
  });

  it('gives nothing for too few points, a zero horizon, a season longer than the data, or time running backwards', async () => {
    assert.deepEqual(await holtWinters(series([1]), args), []);
    assert.deepEqual(await holtWinters(series([1, 2, 3]), { ...args, h: 0 }), []);
    assert.deepEqual(await holtWinters(series([1, 2, 3]), { ...args, m: 4 }), []);
    assert.deepEqual(await holtWinters(series([1, 2, 3]).reverse(), args), []);
  });

  it('places missing windows as gaps and drops a second point in the same slot', async () => {
    const pts: ForecastPoint[] = [
      { time: 0n, value: 10 },
      { time: MIN / 4n, value: 99 },
      { time: 3n * MIN, value: 12 },
      { time: 4n * MIN, value: 13 },
    ];
    const fit = await holtWinters(pts, { ...args, h: 1, withFit: true });
    // Slots 0..4 plus one forecast; a NaN-free fit keeps every slot.
    assert.equal(fit.length, 6);
    assert.equal(fit[0]!.value, 10);
  });

  it('is deterministic', async () => {
    const data = series([3, 5, 4, 6, 5, 7, 6, 8, 7, 9, 8, 10]);
    assert.deepEqual(await holtWinters(data, { ...args, m: 4 }), await holtWinters(data, { ...args, m: 4 }));
  });
});

describe('holt_winters forecast count', () => {
  it('pauses between the iterations of its Nelder-Mead searches, and stops when the pause throws', async () => {
    const points: ForecastPoint[] = Array.from({ length: 40 }, (_, i) => ({ time: BigInt(i) * 10n, value: (i % 4) + i / 10 }));
    let pauses = 0;
    const out = await holtWinters(points, { h: 2, m: 4, withFit: false, interval: 10n }, () => {
      pauses++;
      return undefined;
    });
    assert.equal(out.length, 2);
    assert.ok(pauses > 16 * 10, `${pauses} pauses (16 searches)`);
    const stop = new Error('query timeout');
    let seen = 0;
    await assert.rejects(
      holtWinters(points, { h: 2, m: 4, withFit: false, interval: 10n }, () => {
        if (++seen === 3) throw stop;
        return Promise.resolve();
      }),
      (err) => err === stop,
    );
    assert.equal(seen, 3);
  });
  it('more forecasts than a series may have windows fail before any is made', { timeout: 20_000 }, async () => {
    const points: ForecastPoint[] = Array.from({ length: 20 }, (_, i) => ({ time: BigInt(i) * 10n, value: i % 5 }));
    await assert.rejects(holtWinters(points, { h: 100_000_000, m: 0, withFit: false, interval: 10n }), /max-select-buckets limit exceeded/);
  });
});
