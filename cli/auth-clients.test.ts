/**
 * Authentication with real 1.x clients (clients.md items 3, 10-12): node-influx 5.12 (Basic
 * on every request, root:root by default) and the influx CLI 1.6.7 bootstrap path (create the
 * first admin without credentials, then log in). Real server, real engine.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { InfluxDB } from 'influx';
import { seed, startRealServer, type RealServer } from './test-server.js';

function client(srv: RealServer, username?: string, password?: string): InfluxDB {
  return new InfluxDB({ host: '127.0.0.1', port: srv.port, database: 'db', ...(username ? { username, password } : {}) });
}

async function statusOf(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = err as { res?: { statusCode?: number }; message?: string };
    if (e.res?.statusCode) return e.res.statusCode;
    throw err;
  }
}

describe('node-influx against auth', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
    await seed(srv);
  });
  after(() => srv.close());

  it('a user with grants writes and reads; ping works with any credentials', async () => {
    const writer = client(srv, 'allp', 'a-pw');
    const hosts = await writer.ping(2000);
    assert.equal(hosts[0]?.online, true);
    await writer.writePoints([{ measurement: 'cpu', tags: { host: 'a' }, fields: { v: 1.5 }, timestamp: 1_000_000_000 }], { precision: 's' });
    const rows = await writer.query<{ v: number }>('SELECT v FROM cpu');
    assert.equal(rows[0]?.v, 1.5);
  });

  it('default root:root (no such user) is 401; a read-only user gets 403 on write', async () => {
    assert.equal(await statusOf(client(srv).getDatabaseNames()), 401);
    assert.equal(await statusOf(client(srv, 'admin', 'wrong').getDatabaseNames()), 401);
    const reader = client(srv, 'reader', 'r-pw');
    assert.equal(await statusOf(reader.writePoints([{ measurement: 'cpu', fields: { v: 1 } }])), 403);
    assert.deepEqual(await reader.getDatabaseNames(), ['db']);
    assert.equal(await statusOf(reader.createDatabase('x')), 403);
  });
});

const PYTHON = '/usr/bin/python3';

function hasPythonInfluxdb(): boolean {
  if (!existsSync(PYTHON)) return false;
  try {
    execFileSync(PYTHON, ['-c', 'import influxdb']);
    return true;
  } catch {
    return false;
  }
}

describe('python3-influxdb against auth (Basic)', { skip: !hasPythonInfluxdb() && 'python3-influxdb not installed', timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
    await seed(srv);
  });
  after(() => srv.close());

  it('writes and reads with a granted user; 401 and 403 where 1.x gives them', async () => {
    const out = await new Promise<string>((resolve) => {
      execFile(PYTHON, ['fixtures/clients/python_auth_client.py', String(srv.port)], { timeout: 30_000 }, (_err, stdout, stderr) => resolve(stdout + stderr));
    });
    const lines = out.trim().split('\n');
    assert.equal(lines.filter((l) => l.startsWith('ok ')).length, 4, out);
  });
});

const INFLUX = '/usr/bin/influx';

function influxCli(port: number, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(INFLUX, ['-host', '127.0.0.1', '-port', String(port), ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

describe('influx CLI 1.6.7: first admin, then login', { skip: !existsSync(INFLUX) && 'influx CLI not installed', timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
  });
  after(() => srv.close());

  it('creates the admin unauthenticated, then needs credentials', async () => {
    const denied = await influxCli(srv.port, ['-execute', 'SHOW DATABASES']);
    assert.match(denied.out, /create admin user first or disable authentication/);
    const created = await influxCli(srv.port, ['-execute', "CREATE USER admin WITH PASSWORD 'pw' WITH ALL PRIVILEGES"]);
    assert.equal(created.code, 0, created.out);
    const anonymous = await influxCli(srv.port, ['-execute', 'SHOW DATABASES']);
    assert.match(anonymous.out, /unable to parse authentication credentials/);
    const ok = await influxCli(srv.port, ['-username', 'admin', '-password', 'pw', '-execute', 'CREATE DATABASE db; SHOW DATABASES']);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /\bdb\b/);
    const bad = await influxCli(srv.port, ['-username', 'admin', '-password', 'nope', '-execute', 'SHOW DATABASES']);
    assert.match(bad.out, /authorization failed/);
  });
});
