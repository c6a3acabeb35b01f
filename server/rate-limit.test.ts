import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitSectionSchema } from './options.js';
import { RateLimitedError, RateLimiter, TokenBucket } from './rate-limit.js';

function limiter(limit: number, enabled = true) {
  let now = 1_000;
  const rl = new RateLimiter(rateLimitSectionSchema.parse({ enabled, max_requests_per_second: limit }), () => now);
  const admitted = (path: string) => {
    try {
      rl.admit(path);
      return true;
    } catch (err) {
      assert.ok(err instanceof RateLimitedError);
      assert.equal(err.status, 429);
      assert.equal(err.message, 'rate limit exceeded, try again later');
      return false;
    }
  };
  return { rl, admitted, advance: (ms: number) => (now += ms) };
}

describe('TokenBucket', () => {
  it('starts full, refills continuously at capacity per second, never above capacity', () => {
    let now = 0;
    const b = new TokenBucket(5, () => now);
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => b.take()), [true, true, true, true, true, false]);
    now += 199;
    assert.equal(b.take(), false);
    now += 1;
    assert.equal(b.take(), true);
    now += 60_000;
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => b.take()), [true, true, true, true, true, false]);
  });
});

describe('RateLimiter', () => {
  it('spec example: limit 5, five rapid writes pass, the sixth is 429, writes pass again after a second', () => {
    const { rl, admitted, advance } = limiter(5);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => admitted('/write')), [true, true, true, true, true]);
    assert.equal(admitted('/write'), false);
    assert.equal(rl.deniedTotal, 1);
    advance(1000);
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => admitted('/write')), [true, true, true, true, true, false]);
    assert.equal(rl.deniedTotal, 2);
  });

  it('/write and /query have independent buckets; other routes are never limited', () => {
    const { admitted } = limiter(1);
    assert.equal(admitted('/write'), true);
    assert.equal(admitted('/write'), false);
    assert.equal(admitted('/query'), true);
    assert.equal(admitted('/query'), false);
    for (const path of ['/ping', '/health', '/health/ready', '/metrics', '/internal/x', '/cluster/y', '/api/v1/statements']) {
      for (let i = 0; i < 10; i++) assert.equal(admitted(path), true, path);
    }
  });

  it('disabled, or a limit of 0, limits nothing', () => {
    for (const [limit, enabled] of [[5, false], [0, true]] as const) {
      const { rl, admitted } = limiter(limit, enabled);
      assert.equal(rl.enabled, false);
      for (let i = 0; i < 100; i++) assert.equal(admitted('/write'), true);
    }
  });
});
