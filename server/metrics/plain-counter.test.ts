/** PlainCounter's exposition equals prom-client's Counter incremented as often. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Counter, Registry } from 'prom-client';
import { PlainCounter } from './plain-counter.js';

function pair(): { ours: PlainCounter; theirs: Counter; oursRegistry: Registry; theirsRegistry: Registry } {
  const oursRegistry = new Registry();
  const theirsRegistry = new Registry();
  const ours = new PlainCounter('x_requests_total', 'Requests of x.', oursRegistry);
  const theirs = new Counter({ name: 'x_requests_total', help: 'Requests of x.', registers: [theirsRegistry] });
  return { ours, theirs, oursRegistry, theirsRegistry };
}

async function assertSameExposition(ours: Registry, theirs: Registry): Promise<void> {
  assert.equal(await ours.metrics(), await theirs.metrics());
  assert.equal(JSON.stringify(await ours.getMetricsAsJSON()), JSON.stringify(await theirs.getMetricsAsJSON()));
}

describe('PlainCounter', () => {
  it('exposes the same text and JSON as prom-client for any number of increments and resets', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant('inc' as const), fc.constant('reset' as const)), { maxLength: 40 }), async (ops) => {
        const { ours, theirs, oursRegistry, theirsRegistry } = pair();
        await assertSameExposition(oursRegistry, theirsRegistry);
        for (const op of ops) {
          if (op === 'inc') {
            ours.inc();
            theirs.inc();
          } else {
            ours.reset();
            theirs.reset();
          }
        }
        await assertSameExposition(oursRegistry, theirsRegistry);
      }),
    );
  });
});
