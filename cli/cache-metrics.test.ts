/**
 * The caches' memory on /metrics (not spec metrics; perf/README.md, section 25c): what the
 * caches hold grows with writes and falls back once a flush wrote them out, and their columns'
 * shared memory does not grow past what the caches held before the flush.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startRealServer } from './test-server.js';

const MiB = 1024 * 1024;

function gauge(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  assert.ok(m, `${name} on /metrics`);
  return Number(m[1]);
}

test('service_cache_bytes and service_cache_column_bytes follow writes and flushes', async () => {
  const srv = await startRealServer({ 'flush.interval_secs': 1, 'flush.cache_snapshot_bytes': 2 * MiB });
  try {
    const scrape = async () => (await call(srv, { path: '/metrics' })).text;
    assert.equal((await call(srv, { method: 'POST', path: '/query?q=CREATE%20DATABASE%20db' })).status, 200);
    const now = Math.floor(Date.now() / 1000);
    const body = Array.from({ length: 3000 }, (_, i) => `m,host=h${i % 300} a=${i},b=${i}i ${now - 3000 + i}`).join('\n');
    assert.equal((await call(srv, { method: 'POST', path: '/write?db=db&precision=s', body })).status, 204);
    const held = await scrape();
    assert.ok(gauge(held, 'service_cache_bytes') >= 6000 * 16, 'the written values are counted');
    assert.ok(gauge(held, 'service_cache_column_bytes') >= MiB, 'in at least one slab');
    let text = held;
    for (let i = 0; i < 60 && gauge(text, 'service_cache_bytes') > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      text = await scrape();
    }
    assert.equal(gauge(text, 'service_cache_bytes'), 0, 'flushed within the interval');
    assert.ok(gauge(text, 'service_cache_column_bytes') <= gauge(held, 'service_cache_column_bytes'), 'the flushed caches\' columns are kept for reuse, not added to');
  } finally {
    await srv.close();
  }
});
