/**
 * TechnicalTransform with a period far beyond the points: the rings of kaufmans_* and
 * chande_momentum_oscillator hold only the moves written, so a period of 10^9 answers (nothing
 * past the hold) instead of allocating 10^9 slots first, which took the server's heap. What
 * short periods answer is pinned by the goldens recorded from 1.6.7 (fixtures/).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { TECHNICAL, TechnicalTransform } from './technical.js';

it('a period of 10^9 holds every row back without allocating the period', { timeout: 20_000 }, () => {
  for (const name of TECHNICAL) {
    const t = new TechnicalTransform(name, { period: 1_000_000_000, hold: -1 });
    for (let i = 0; i < 1000; i++) assert.equal(t.push(BigInt(i), i % 7), null, name);
  }
});

