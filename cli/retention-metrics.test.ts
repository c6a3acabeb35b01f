import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startRealServer } from './test-server.js';

test('retention enforcement counters are exported on /metrics', async () => {
  const srv = await startRealServer({});
  try {
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = (await call(srv, { path: '/metrics' })).text;
      if (/^service_retention_runs_total [1-9]/m.test(text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(text, /^service_retention_runs_total [1-9]/m, 'the pass at start-up is counted');
    for (const name of ['service_retention_shards_dropped_total', 'service_retention_tombstones_total', 'service_retention_errors_total']) {
      assert.match(text, new RegExp(`^# TYPE ${name} counter$`, 'm'));
    }
  } finally {
    await srv.close();
  }
});
