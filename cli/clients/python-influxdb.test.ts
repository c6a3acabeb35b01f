/**
 * python3-influxdb 5.3.1 (Debian python3-influxdb, run with /usr/bin/python3) against a real
 * `strata serve`, through scripts in fixtures/clients/ that run each check themselves:
 * - python_influxdb_client.py: ping, create / list / drop database, write_points with every
 *   field type and every time precision, exact query values, gzip=True, error codes;
 * - python_dataframe_client.py: the DataFrameClient with pandas (Debian python3-pandas):
 *   DataFrames written with tag columns, every dtype and several precisions, answers read back
 *   as DataFrames with a UTC index.
 * Each is skipped with a reason when the interpreter or a module is missing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { http, removeDir, startServer, stopServer, type Server } from './harness.js';
import { pythonSkipReason, runPythonChecks } from './python-checks.js';

describe('python3-influxdb', { timeout: 180_000, skip: pythonSkipReason(['influxdb'], 'python3-influxdb') }, () => {
  let srv: Server;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('runs every client check against strata', async (t) => {
    const summary = await runPythonChecks(t, 'python_influxdb_client.py', srv);
    const ping = await http(srv.port, 'GET', '/ping');
    assert.equal(summary.version, ping.headers['x-influxdb-version']);
    assert.ok(summary.checks >= 16);
  });

  it('DataFrameClient writes and reads DataFrames', { skip: pythonSkipReason(['pandas'], 'python3-pandas') }, async (t) => {
    const summary = await runPythonChecks(t, 'python_dataframe_client.py', srv);
    assert.equal(summary.checks, 10);
  });
});
