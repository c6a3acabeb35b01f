import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toNs, fromNs, formatGoDuration, formatRfc3339, defaultShardGroupDurationSec, shardStartSec } from './time.js';

test('ns <-> (sec, nsec) round trip over the whole int64 range', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 63n) + 2n, max: 2n ** 63n - 2n }), (ns) => {
      const { sec, nsec } = fromNs(ns);
      assert.ok(nsec >= 0 && nsec < 1e9 && Number.isInteger(sec));
      assert.equal(toNs(sec, nsec), ns);
    }),
  );
});

test('Go duration strings as 1.x prints them', () => {
  assert.equal(formatGoDuration(0), '0s');
  assert.equal(formatGoDuration(3600), '1h0m0s');
  assert.equal(formatGoDuration(86400), '24h0m0s');
  assert.equal(formatGoDuration(14 * 86400), '336h0m0s');
  assert.equal(formatGoDuration(52 * 7 * 86400), '8736h0m0s');
  assert.equal(formatGoDuration(90), '1m30s');
  assert.equal(formatGoDuration(5), '5s');
});

test('RFC 3339 trims trailing zeros', () => {
  assert.equal(formatRfc3339(1709942400, 0), '2024-03-09T00:00:00Z');
  assert.equal(formatRfc3339(1709942400, 500_000_000), '2024-03-09T00:00:00.5Z');
  assert.equal(formatRfc3339(1709942400, 123_456_789), '2024-03-09T00:00:00.123456789Z');
  assert.equal(formatRfc3339(-1, 999_999_999), '1969-12-31T23:59:59.999999999Z');
});

test('default shard group durations follow InfluxDB', () => {
  assert.equal(defaultShardGroupDurationSec(0), 7 * 86400);
  assert.equal(defaultShardGroupDurationSec(3600), 3600);
  assert.equal(defaultShardGroupDurationSec(2 * 86400 - 1), 3600);
  assert.equal(defaultShardGroupDurationSec(2 * 86400), 86400);
  assert.equal(defaultShardGroupDurationSec(180 * 86400), 86400);
  assert.equal(defaultShardGroupDurationSec(181 * 86400), 7 * 86400);
  assert.equal(shardStartSec(-1, 3600), -3600);
  assert.equal(shardStartSec(7199, 3600), 3600);
  // 7-day groups start on Mondays, as 1.6.7's SHOW SHARDS shows (2017-07-14 is in 07-10..07-17).
  assert.equal(shardStartSec(Date.UTC(2017, 6, 14, 2, 40) / 1000, 7 * 86400), Date.UTC(2017, 6, 10) / 1000);
  assert.equal(shardStartSec(0, 7 * 86400), Date.UTC(1969, 11, 29) / 1000);
});
