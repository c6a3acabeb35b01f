/**
 * GET /metrics over real loopback HTTP: every name of the spec's metric catalog with its
 * type, bounded labels, promtool's exposition check, and the counters the HTTP layer moves.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PartialWriteError, StorageIoError } from '../../engine/index.js';
import { request, startTestServer, type TestServer } from '../testing.js';

/** service-spec.md "Metric catalog (Prometheus)", names and types exactly. */
const CATALOG: Record<string, 'counter' | 'gauge' | 'histogram'> = {
  service_write_requests_total: 'counter',
  service_write_errors_total: 'counter',
  service_write_payload_bytes: 'histogram',
  service_write_duration_seconds: 'histogram',
  service_query_requests_total: 'counter',
  service_query_errors_total: 'counter',
  service_query_duration_seconds: 'histogram',
  service_rate_limit_denied_total: 'counter',
  service_ingestion_points_total: 'counter',
  service_flush_runs_total: 'counter',
  service_flush_errors_total: 'counter',
  service_flush_points_total: 'counter',
  service_flush_duration_seconds: 'histogram',
  service_wal_last_sequence: 'gauge',
  service_disk_free_bytes: 'gauge',
  service_disk_readonly_events_total: 'counter',
  service_replication_writes_total: 'counter',
  service_replication_errors_total: 'counter',
  service_replication_duration_seconds: 'histogram',
  service_replication_mutations_total: 'counter',
  service_replication_mode: 'gauge',
  service_replication_sync_acks_total: 'counter',
  service_replication_sync_duration_seconds: 'histogram',
  service_replication_sync_peer_ack_seconds: 'histogram',
  service_replication_sync_required_acks: 'gauge',
  service_replication_sync_apply_received_total: 'counter',
  service_replication_sync_apply_errors_total: 'counter',
  service_cluster_node_state: 'gauge',
  service_cluster_peers_active: 'gauge',
  service_drain_total: 'counter',
  service_uptime_seconds: 'gauge',
  service_shard_regions: 'gauge',
  service_shard_splits_total: 'counter',
  service_shard_merges_total: 'counter',
  service_shard_rebalances_total: 'counter',
  service_shard_transfers_total: 'counter',
  service_shard_transfer_bytes: 'counter',
  service_shard_forwarded_writes_applied_total: 'counter',
  service_shard_delete_applied_total: 'counter',
  service_shard_region_lag_wal_seq: 'gauge',
  service_shard_query_regions_total: 'gauge',
  service_shard_query_regions_selected: 'gauge',
  service_shard_scatter_fallback_total: 'counter',
  service_shard_scatter_peer_attempts: 'histogram',
  service_shard_primary_failover_total: 'counter',
  service_shard_primary_failover_skipped_total: 'counter',
  service_shard_mv_backfill_regions_total: 'counter',
  service_shard_transfer_parked_total: 'counter',
};

/**
 * promtool lint findings we accept: names the spec fixes (a counter without `_total`, a gauge
 * with it) and prom-client's standard Node gauges. Anything else fails the test.
 */
const ACCEPTED_LINT = [
  'service_shard_transfer_bytes counter metrics should have "_total" suffix',
  'service_shard_query_regions_total non-counter metrics should not have "_total" suffix',
  'nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
  'nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
  'nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
];

interface Exposition {
  types: Map<string, string>;
  /** `name{labels}` → value */
  samples: Map<string, number>;
}

function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    else if (line !== '' && !line.startsWith('#')) {
      const i = line.lastIndexOf(' ');
      samples.set(line.slice(0, i), Number(line.slice(i + 1)));
    }
  }
  return { types, samples };
}

describe('GET /metrics', { timeout: 30_000 }, () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer();
    srv.deps.databases.add('db');
  });
  after(() => srv.close());

  const scrape = async (): Promise<Exposition> => {
    const res = await request(srv.port, { path: '/metrics' });
    assert.equal(res.status, 200);
    return parseExposition(res.text);
  };
  const value = (e: Exposition, series: string) => e.samples.get(series) ?? 0;

  it('answers the text format with every catalog metric and its exact type', async () => {
    const res = await request(srv.port, { path: '/metrics' });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const { types, samples } = parseExposition(res.text);
    for (const [name, type] of Object.entries(CATALOG)) assert.equal(types.get(name), type, name);
    // Node process metrics are there too.
    assert.equal(types.get('process_cpu_user_seconds_total'), 'counter');
    assert.equal(types.get('nodejs_heap_size_used_bytes'), 'gauge');
    // Single node: replication mode async = 1, sync_quorum = 0; features not run stay at zero.
    assert.equal(samples.get('service_replication_mode{mode="async"}'), 1);
    assert.equal(samples.get('service_replication_mode{mode="sync_quorum"}'), 0);
    for (const outcome of ['ok', 'timeout', 'error']) assert.equal(samples.get(`service_replication_sync_acks_total{outcome="${outcome}"}`), 0);
    for (const kind of ['query', 'metadata', 'write']) assert.equal(samples.get(`service_shard_scatter_fallback_total{kind="${kind}"}`), 0);
    assert.equal(samples.get('service_shard_regions'), 0);
    assert.ok((samples.get('service_uptime_seconds') ?? -1) >= 0);
  });

  it('has no unbounded labels: only path, mode, outcome, kind, peer, reason on service_* series', async () => {
    const { samples } = await scrape();
    for (const series of samples.keys()) {
      if (!series.startsWith('service_')) continue;
      for (const m of series.matchAll(/([a-z_]+)="/g)) assert.ok(['path', 'mode', 'outcome', 'kind', 'peer', 'reason', 'le'].includes(m[1] as string), series);
    }
  });

  it('passes `promtool check metrics` (only the spec-mandated names draw lint notes)', async (t) => {
    if (spawnSync('promtool', ['--version']).error) {
      t.skip('promtool not installed (Debian package "prometheus")');
      return;
    }
    await request(srv.port, { method: 'POST', path: '/write?db=db', body: 'cpu v=1' });
    const res = await request(srv.port, { path: '/metrics' });
    const check = spawnSync('promtool', ['check', 'metrics'], { input: res.text, encoding: 'utf8' });
    // Exit 0: clean; 3: lint findings only; anything else (1: the text does not parse) fails.
    assert.ok(check.status === 0 || check.status === 3, `promtool exit ${check.status}: ${check.stderr}${check.stdout}`);
    const findings = `${check.stdout}\n${check.stderr}`.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    for (const f of findings) assert.ok(ACCEPTED_LINT.includes(f), `unexpected promtool finding: ${f}`);
  });

  it('a write moves write requests, ingestion points and the payload histogram', async () => {
    const before = await scrape();
    const body = 'cpu,host=a v=1 1\n# comment\n\ncpu,host=a v=2 2\ncpu,host=b v=3 3\n';
    const res = await request(srv.port, { method: 'POST', path: '/write?db=db', body });
    assert.equal(res.status, 204);
    const after = await scrape();
    assert.equal(value(after, 'service_write_requests_total') - value(before, 'service_write_requests_total'), 1);
    assert.equal(value(after, 'service_ingestion_points_total') - value(before, 'service_ingestion_points_total'), 3);
    assert.equal(value(after, 'service_write_payload_bytes_count') - value(before, 'service_write_payload_bytes_count'), 1);
    assert.equal(value(after, 'service_write_payload_bytes_sum') - value(before, 'service_write_payload_bytes_sum'), Buffer.byteLength(body));
    assert.equal(value(after, 'service_write_duration_seconds_count') - value(before, 'service_write_duration_seconds_count'), 1);
    assert.equal(value(after, 'service_write_errors_total'), value(before, 'service_write_errors_total'));
  });

  it('a partial write counts the points the engine says it stored', async () => {
    const before = await scrape();
    srv.deps.onWrite = async () => {
      throw new PartialWriteError("partial write: unable to parse 'cpu v=': missing field value dropped=1", 400, 1, 2);
    };
    try {
      assert.equal((await request(srv.port, { method: 'POST', path: '/write?db=db', body: 'cpu v=1 1\ncpu v=\ncpu v=3 3' })).status, 400);
    } finally {
      srv.deps.onWrite = async () => {};
    }
    const after = await scrape();
    assert.equal(value(after, 'service_ingestion_points_total') - value(before, 'service_ingestion_points_total'), 2);
  });

  it('a failing write moves write errors and stores no points', async () => {
    const before = await scrape();
    srv.deps.onWrite = async () => {
      throw new StorageIoError('disk on fire');
    };
    try {
      assert.equal((await request(srv.port, { method: 'POST', path: '/write?db=db', body: 'cpu v=1' })).status, 500);
      assert.equal((await request(srv.port, { method: 'POST', path: '/write', body: 'cpu v=1' })).status, 400);
    } finally {
      srv.deps.onWrite = async () => {};
    }
    const after = await scrape();
    assert.equal(value(after, 'service_write_requests_total') - value(before, 'service_write_requests_total'), 2);
    assert.equal(value(after, 'service_write_errors_total') - value(before, 'service_write_errors_total'), 2);
    assert.equal(value(after, 'service_ingestion_points_total'), value(before, 'service_ingestion_points_total'));
  });

  it('a query moves query requests and duration; a failing one moves query errors', async () => {
    const before = await scrape();
    assert.equal((await request(srv.port, { path: '/query?q=SHOW%20DATABASES' })).status, 200);
    assert.equal((await request(srv.port, { path: '/query?q=SELEKT' })).status, 400);
    srv.deps.onQuery = async (req) => req.statements.map((_, i) => ({ statementId: i, error: 'boom' }));
    try {
      assert.equal((await request(srv.port, { path: '/query?q=SHOW%20DATABASES' })).status, 200);
    } finally {
      srv.deps.onQuery = async (req) => req.statements.map((_, i) => ({ statementId: i }));
    }
    const after = await scrape();
    assert.equal(value(after, 'service_query_requests_total') - value(before, 'service_query_requests_total'), 3);
    assert.equal(value(after, 'service_query_duration_seconds_count') - value(before, 'service_query_duration_seconds_count'), 3);
    assert.equal(value(after, 'service_query_errors_total') - value(before, 'service_query_errors_total'), 2);
  });

  it('other methods get 405', async () => {
    const res = await request(srv.port, { method: 'POST', path: '/metrics' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET');
  });
});
