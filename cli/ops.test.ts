/**
 * Operations features end to end on the real engine (composition root openDeps + the HTTP
 * server): disk read-only protection driven by an injected free-space source, and the
 * engine-fed metrics (WAL sequence, free bytes per data path, flushes), and the version SHOW
 * DIAGNOSTICS reports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { startServer, type ServerHandle } from '../server/index.js';
import { loadConfig, type Config } from './config.js';
import { openDeps, type AppDeps } from './serve.js';

const MIB = 1024 * 1024;

function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function metric(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('disk protection and engine metrics (real engine)', { timeout: 60_000 }, () => {
  let dir: string;
  let config: Config;
  let deps: AppDeps;
  let server: ServerHandle;
  /** Free bytes the injected statfs reports for every path. */
  let freeBytes = 10_000 * MIB;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-ops-'));
    const env: Record<string, string> = {
      SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
      SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
      SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'engine'),
      // The test drives checks itself; the timer must not race it.
      SERVICE__DISK__CHECK_INTERVAL_SECS: '3600',
    };
    config = loadConfig({ getenv: () => env, readFile: () => undefined }).config;
    deps = await openDeps(config, pino({ level: 'silent' }), { statfs: async () => freeBytes });
    const options = {
      server: { ...config.server, bind_address: '127.0.0.1', port: 0 },
      auth: config.auth,
      rate_limit: config.rate_limit,
      statement_summary: config.statement_summary,
    };
    server = await startServer(deps, options);
    assert.equal((await call(server.port, 'POST', '/query?q=CREATE%20DATABASE%20db')).status, 200);
  });

  after(async () => {
    await server?.close({ drainTimeoutMs: 1000 });
    await deps?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const scrape = async () => (await call(server.port, 'GET', '/metrics')).text;
  const query = async () => JSON.parse((await call(server.port, 'GET', '/query?db=db&q=SELECT%20v%20FROM%20cpu')).text) as {
    results: { series?: { values: unknown[][] }[] }[];
  };

  it('reports free bytes for each data path and the WAL sequence', async () => {
    assert.equal((await call(server.port, 'POST', '/write?db=db&precision=s', 'cpu v=1 1\ncpu v=2 2')).status, 204);
    const text = await scrape();
    for (const path of [config.storage.wal_dir, config.storage.meta_dir, config.chdb.session_data_path]) {
      assert.equal(metric(text, `service_disk_free_bytes{path="${path}"}`), freeBytes, path);
    }
    assert.ok((metric(text, 'service_wal_last_sequence') ?? 0) >= 1);
    assert.equal(metric(text, 'service_ingestion_points_total'), 2);
  });

  it('below readonly_threshold_mb: /write 507, /health 503, event counted, stored data still queryable', async () => {
    freeBytes = 100 * MIB; // below the default 256 MiB
    await deps.disk.check();
    const write = await call(server.port, 'POST', '/write?db=db&precision=s', 'cpu v=3 3');
    assert.equal(write.status, 507);
    const health = await call(server.port, 'GET', '/health');
    assert.equal(health.status, 503);
    assert.equal((JSON.parse(health.text) as { status: string }).status, 'fail');
    const text = await scrape();
    assert.equal(metric(text, 'service_disk_readonly_events_total'), 1);
    assert.equal(metric(text, `service_disk_free_bytes{path="${config.storage.wal_dir}"}`), 100 * MIB);
    assert.equal(metric(text, 'service_write_errors_total'), 1);
    const values = (await query()).results[0]?.series?.[0]?.values ?? [];
    assert.equal(values.length, 2);
    await deps.disk.check(); // still low: no second event
    assert.equal(metric(await scrape(), 'service_disk_readonly_events_total'), 1);
  });

  it('after recovery writes are accepted again', async () => {
    freeBytes = 2_000 * MIB;
    await deps.disk.check();
    assert.equal((await call(server.port, 'GET', '/health')).status, 200);
    assert.equal((await call(server.port, 'POST', '/write?db=db&precision=s', 'cpu v=3 3')).status, 204);
    assert.equal((await query()).results[0]?.series?.[0]?.values.length, 3);
  });

  it("SHOW DIAGNOSTICS FOR 'build' names the product and the package's version, as /ping's header does", async () => {
    const ping = await new Promise<string | undefined>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/ping', agent: false }, (res) => {
        res.resume();
        resolve(res.headers['x-influxdb-version'] as string | undefined);
      });
      req.on('error', reject);
      req.end();
    });
    const body = JSON.parse((await call(server.port, 'GET', "/query?q=SHOW%20DIAGNOSTICS%20FOR%20'build'")).text) as {
      results: { series?: { name: string; columns: string[]; values: unknown[][] }[] }[];
    };
    const build = body.results[0]?.series?.[0];
    assert.deepEqual(build?.columns, ['Branch', 'Build Time', 'Commit', 'Product', 'Version']);
    assert.equal(build?.values[0]?.[3], 'strata');
    assert.equal(`strata-${String(build?.values[0]?.[4])}`, ping);
    assert.match(String(build?.values[0]?.[4]), /^\d+\.\d+\.\d+/);
  });

  it('counts the final flush through the engine FlushObserver', async () => {
    await server.close({ drainTimeoutMs: 1000 });
    await deps.close();
    const { text } = await deps.metrics.exposition();
    assert.ok((metric(text, 'service_flush_runs_total') ?? 0) >= 1);
    assert.equal(metric(text, 'service_flush_points_total'), 3);
  });
});
