/** ServiceMetrics without HTTP: flush observer, scrape-time sources, uptime, replication mode. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceMetrics } from './registry.js';

async function sample(m: ServiceMetrics, series: string): Promise<number | undefined> {
  const { text } = await m.exposition();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('ServiceMetrics', () => {
  it('counts flushes, flushed points and flush errors through the FlushObserver', async () => {
    const m = new ServiceMetrics({ processMetrics: false });
    m.flushObserver.onFlush({ points: 10, bytes: 100, seconds: 0.2 });
    m.flushObserver.onFlush({ points: 5, bytes: 0, seconds: 0.1, error: new Error('x') });
    assert.equal(await sample(m, 'service_flush_runs_total'), 2);
    assert.equal(await sample(m, 'service_flush_errors_total'), 1);
    assert.equal(await sample(m, 'service_flush_points_total'), 10);
    assert.equal(await sample(m, 'service_flush_duration_seconds_count'), 2);
  });

  it('reads the WAL sequence, free disk space and uptime at scrape time', async () => {
    let now = 1_000_000;
    const m = new ServiceMetrics({ processMetrics: false, now: () => now });
    let seq = 7n;
    let free = new Map([['/data/wal', 100], ['/data/meta', 200]]);
    m.bindSources({ walLastSequence: () => seq, diskFree: async () => free });
    assert.equal(await sample(m, 'service_wal_last_sequence'), 7);
    assert.equal(await sample(m, 'service_disk_free_bytes{path="/data/wal"}'), 100);
    assert.equal(await sample(m, 'service_disk_free_bytes{path="/data/meta"}'), 200);
    now += 2500;
    seq = 9n;
    free = new Map([['/data/wal', 50]]);
    assert.equal(await sample(m, 'service_wal_last_sequence'), 9);
    assert.equal(await sample(m, 'service_disk_free_bytes{path="/data/wal"}'), 50);
    assert.equal(await sample(m, 'service_disk_free_bytes{path="/data/meta"}'), undefined);
    assert.equal(await sample(m, 'service_uptime_seconds'), 2.5);
  });

  it('sets service_replication_mode to 1 for the configured mode only', async () => {
    const m = new ServiceMetrics({ processMetrics: false, replicationMode: 'sync_quorum' });
    assert.equal(await sample(m, 'service_replication_mode{mode="sync_quorum"}'), 1);
    assert.equal(await sample(m, 'service_replication_mode{mode="async"}'), 0);
  });

  it('exposes the rate-limit counter for the limiter to increment', async () => {
    const m = new ServiceMetrics({ processMetrics: false });
    m.rateLimitDenied.inc();
    assert.equal(await sample(m, 'service_rate_limit_denied_total'), 1);
  });
});
