import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RequestIds } from './request-id.js';

const V1 = /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 60-bit timestamp of a version 1 UUID in 100 ns ticks since 1582 (BigInt: test only). */
function ticksOf(id: string): bigint {
  const [low, mid, hi] = id.split('-') as [string, string, string];
  return (BigInt(`0x${hi.slice(1)}`) << 48n) | (BigInt(`0x${mid}`) << 32n) | BigInt(`0x${low}`);
}

/** The timestamp as ms since 1970. */
function timeOf(id: string): bigint {
  return ticksOf(id) / 10_000n - 12_219_292_800_000n;
}

test('request ids are version 1 UUIDs of the current time, with the RFC 4122 variant and a multicast node', () => {
  const ids = new RequestIds();
  const before = BigInt(Date.now());
  const id = ids.next();
  assert.match(id, V1);
  const t = timeOf(id);
  assert.ok(t >= before && t <= BigInt(Date.now()), `${t} within [${before}, now]`);
  assert.equal(parseInt(id.slice(24, 26), 16) & 1, 1);
});

test('ids stay unique and their timestamps strictly increase: many per ms, past 10,000 per ms, and when the clock goes back', () => {
  let now = 1_700_000_000_000;
  const ids = new RequestIds(() => now);
  const seen = new Set<string>();
  let last = -1n;
  for (let i = 0; i < 50_000; i++) {
    if (i === 30_000) now -= 5_000; // the wall clock steps back
    if (i === 40_000) now += 60_000;
    const id = ids.next();
    assert.match(id, V1);
    const ticks = ticksOf(id);
    assert.ok(ticks > last, `id ${i}: ${ticks} after ${last}`);
    last = ticks;
    seen.add(id);
  }
  assert.equal(seen.size, 50_000);
  now += 1; // the clock moved past the borrowed ms: ids follow it again
  assert.equal(timeOf(ids.next()), BigInt(now));
});

test('two processes (two generators at the same instant) give different ids', () => {
  const now = () => 1_700_000_000_000;
  assert.notEqual(new RequestIds(now).next(), new RequestIds(now).next());
});

test('the timestamp fields carry exactly the clock: any ms from 1970 until the 60-bit field ends (year 5236), any tick within it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 103_072_857_660_683 }), fc.integer({ min: 0, max: 9_999 }), (ms, ticks) => {
      const ids = new RequestIds(() => ms);
      let id = ids.next();
      for (let i = 0; i < ticks; i++) id = ids.next();
      assert.match(id, V1);
      assert.equal(ticksOf(id), (BigInt(ms) + 12_219_292_800_000n) * 10_000n + BigInt(ticks));
    }),
    { numRuns: 300 },
  );
});
