/** PlainHistogram's exposition equals prom-client's Histogram fed the same observations. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { PlainHistogram } from './plain-histogram.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function pair(): { ours: PlainHistogram; theirs: Histogram; oursRegistry: Registry; theirsRegistry: Registry } {
  const oursRegistry = new Registry();
  const theirsRegistry = new Registry();
  const ours = new PlainHistogram('x_duration_seconds', 'Time to do x.', BUCKETS, oursRegistry);
  const theirs = new Histogram({ name: 'x_duration_seconds', help: 'Time to do x.', buckets: BUCKETS, registers: [theirsRegistry] });
  return { ours, theirs, oursRegistry, theirsRegistry };
}

// Bounds themselves (a value equal to a bound belongs to that bucket), values above every bound, zero and tiny values.
const value = fc.oneof(fc.constantFrom(0, ...BUCKETS, 31, 1e9), fc.double({ min: 0, max: 40, noNaN: true }));

describe('PlainHistogram', () => {
  it('exposes the same text and JSON as prom-client for any observations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { maxLength: 60 }), async (values) => {
        const { ours, theirs, oursRegistry, theirsRegistry } = pair();
        for (const v of values) {
          ours.observe(v);
          theirs.observe(v);
        }
        assert.equal(await oursRegistry.metrics(), await theirsRegistry.metrics());
        assert.equal(JSON.stringify(await oursRegistry.getMetricsAsJSON()), JSON.stringify(await theirsRegistry.getMetricsAsJSON()));
      }),
    );
  });

  it('is all zero before the first observation and after reset()', async () => {
    const { ours, theirs, oursRegistry, theirsRegistry } = pair();
    assert.equal(await oursRegistry.metrics(), await theirsRegistry.metrics());
    ours.observe(0.3);
    ours.reset();
    theirs.observe(0.3);
    theirs.reset();
    theirs.zero({});
    assert.equal(await oursRegistry.metrics(), await theirsRegistry.metrics());
  });

  it('times with startTimer() into the count and sum', async () => {
    const { ours, oursRegistry } = pair();
    const seconds = ours.startTimer()();
    ours.observe(0.02);
    const text = await oursRegistry.metrics();
    assert.match(text, /^x_duration_seconds_count 2$/m);
    const sum = Number(/^x_duration_seconds_sum (.+)$/m.exec(text)![1]);
    assert.ok(sum >= 0.02 + seconds && sum < 1, `sum ${sum}`);
    // The immediate timer is under 10 ms unless the machine stalled it; the 20 ms one never is.
    const underTen = seconds <= 0.01 ? 1 : 0;
    assert.match(text, new RegExp(`^x_duration_seconds_bucket\\{le="0.01"\\} ${underTen}$`, 'm'), 'the 20 ms observation is above 0.01');
  });

  it('refuses a value that is not a finite number', () => {
    const { ours } = pair();
    assert.throws(() => ours.observe(Number.NaN), TypeError);
    assert.throws(() => ours.observe(Infinity), TypeError);
  });
});
