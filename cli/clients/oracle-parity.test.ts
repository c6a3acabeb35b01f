/**
 * Differential check: the same influx CLI 1.6.7 commands and the same python3-influxdb script
 * against Strata and against the reference InfluxDB 1.6.7 (Debian `influxdb`, started on
 * loopback by ../shared/conformance/oracle.sh, which stops only the PID it started). Outputs
 * must be identical apart from the documented deviations, which are left out of the list
 * (server-specific SHOW DIAGNOSTICS/STATS/SHARDS, /write bodies ending in a newline in 1.x,
 * writes to a missing retention policy: 1.x 500, Strata 404). Skipped when influxd, the CLI,
 * the python module or the shared folder is missing (CI installs only the clients).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InfluxDB } from 'influx';
import { executable, FIXTURES, freePort, http, removeDir, runCmd, startServer, stopServer, type Server } from './harness.js';

const INFLUXD = '/usr/bin/influxd';
const INFLUX = '/usr/bin/influx';
const PYTHON = '/usr/bin/python3';
const ORACLE_SH = resolve(process.cwd(), '../shared/conformance/oracle.sh');

function skipReason(): string | false {
  if (!executable(INFLUXD)) return `${INFLUXD} not installed (reference InfluxDB 1.6.7: apt-get install influxdb)`;
  if (!executable(INFLUX)) return `${INFLUX} not installed`;
  if (!existsSync(ORACLE_SH)) return `${ORACLE_SH} not found`;
  return false;
}

/** CLI invocations, run in order on both servers (state carries over from one to the next). */
const COMMANDS: string[][] = [
  ['-execute', 'SHOW DATABASES'],
  ['-execute', 'CREATE DATABASE x'],
  ['-database', 'x', '-execute', 'INSERT cpu,host=a value=1 1500000000000000000'],
  ['-database', 'x', '-execute', 'INSERT cpu,host=b value=2,s="x y" 1500000001000000000'],
  ['-database', 'x', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-format', 'json', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-format', 'csv', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-format', 'json', '-pretty', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-precision', 'rfc3339', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-precision', 'ms', '-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-execute', 'SELECT * FROM nothing'],
  ['-database', 'x', '-format', 'json', '-execute', 'SELECT * FROM nothing'],
  ['-database', 'x', '-execute', 'SHOW MEASUREMENTS'],
  ['-database', 'x', '-execute', 'SHOW SERIES'],
  ['-database', 'x', '-execute', 'SHOW TAG KEYS'],
  ['-database', 'x', '-execute', 'SHOW TAG VALUES WITH KEY = host'],
  ['-database', 'x', '-execute', 'SHOW FIELD KEYS'],
  ['-database', 'x', '-execute', 'SHOW RETENTION POLICIES'],
  ['-database', 'x', '-execute', 'SHOW USERS'],
  ['-database', 'x', '-execute', 'SELECT mean(value) FROM cpu'],
  ['-database', 'x', '-execute', 'SELECT mean(value) FROM cpu GROUP BY host'],
  ['-database', 'x', '-execute', 'SELECT count(value) FROM cpu WHERE time > 0 GROUP BY time(1h) LIMIT 2'],
  ['-database', 'x', '-execute', 'SELEKT 1'],
  ['-database', 'nope', '-execute', 'SELECT * FROM nope.autogen.cpu'],
  ['-execute', 'SELECT * FROM cpu'],
  ['-database', 'x', '-execute', 'INSERT cpu,host=a value="str" 1500000000000000000'],
  ['-database', 'x', '-execute', 'INSERT bad line'],
  ['-database', 'nope', '-execute', 'INSERT cpu value=1'],
  ['-database', 'x', '-execute', 'CREATE DATABASE x; SHOW DATABASES'],
  ['-database', 'x', '-execute', 'SELECT count(value) FROM cpu; SELECT * FROM nope.autogen.x'],
  // A failing statement followed by more: the CLI asks for chunks, and 1.6.7 sends a
  // {"error":"not executed"} chunk for each later statement (server/format/not-executed.ts).
  ['-database', 'x', '-execute', 'SELECT * FROM nope.autogen.x; SELECT count(value) FROM cpu; SHOW DATABASES'],
  ['-database', 'x', '-format', 'json', '-execute', 'SELECT percentile(value) FROM cpu; SELECT count(value) FROM cpu'],
  ['-database', 'x', '-format', 'csv', '-execute', 'SELECT count(value) FROM cpu; SELECT mean(value) FROM cpu'],
  ['-database', 'x', '-execute', 'DROP MEASUREMENT nope'],
  ['-import', `-path=${join(FIXTURES, 'influx-import.txt')}`, '-precision=s'],
  ['-database', 'pirates', '-execute', 'SELECT * FROM archive.treasures'],
  ['-database', 'pirates', '-precision', 's', '-execute', 'SELECT * FROM archive.ships; SELECT * FROM autogen.log'],
  ['-database', 'pirates', '-format', 'json', '-execute', 'SHOW RETENTION POLICIES'],
  ['-username', 'bob', '-password', 'x', '-execute', 'SHOW DATABASES'],
  ['-database', 'x', '-execute', "CREATE USER bob WITH PASSWORD 'pw'"],
  ['-database', 'x', '-execute', 'GRANT READ ON x TO bob'],
  ['-database', 'x', '-execute', 'SHOW GRANTS FOR bob'],
  ['-database', 'x', '-execute', 'SHOW USERS'],
  ['-database', 'x', '-execute', 'DROP DATABASE x'],
  ['-execute', 'SHOW GRANTS FOR bob'],
  ['-execute', 'DROP USER bob'],
  ['-execute', 'SHOW USERS'],
  ['-execute', 'SHOW DATABASES'],
];

/** node-influx calls whose outcome (value or error class + status + message) is compared. */
async function nodeScenario(port: number): Promise<string[]> {
  const db = new InfluxDB({ host: '127.0.0.1', port, database: 'ndb' });
  const out: string[] = [];
  const rec = async (name: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      out.push(`${name} ok ${JSON.stringify(await fn())}`);
    } catch (e) {
      const err = e as Error & { res?: { statusCode?: number } };
      out.push(`${name} ${err.constructor.name} ${err.res?.statusCode ?? ''} ${err.message.trim()}`);
    }
  };
  const nano = (rows: { time: { toNanoISOString(): string } }[]) => rows.map((r) => ({ ...r, time: r.time.toNanoISOString() }));
  await rec('names-before', () => db.getDatabaseNames());
  await rec('write-missing-db', () => db.writePoints([{ measurement: 'm', fields: { v: 1 } }]));
  await rec('create', () => db.createDatabase('ndb'));
  await rec('write', () =>
    db.writePoints([
      { measurement: 'm', tags: { h: 'a' }, fields: { v: 1, s: 'x', b: true }, timestamp: '1700000000000000001' },
      { measurement: 'm', tags: { h: 'b' }, fields: { v: 2.5, s: 'y', b: false }, timestamp: '1700000000000000002' },
    ]),
  );
  await rec('write-s', () => db.writePoints([{ measurement: 'p', fields: { v: 1 }, timestamp: new Date(1700000000123) }], { precision: 's' }));
  await rec('write-ms', () => db.writePoints([{ measurement: 'p', fields: { v: 2 }, timestamp: new Date(1700000001123) }], { precision: 'ms' }));
  await rec('query', async () => nano(await db.query('select * from m')));
  await rec('query-p', async () => nano(await db.query('select * from p', { precision: 'ms' })));
  await rec('groups', async () => (await db.query('select mean(v) from m group by h')).groups());
  await rec('raw', () => db.queryRaw('select * from m; select count(v) from m'));
  await rec('multi', async () => (await db.query(['select * from m', 'select count(v) from m'])).map((r) => nano(r)));
  await rec('placeholders', async () => nano(await db.query('select v from m where h = $h', { placeholders: { h: 'b' } })));
  await rec('bad-stmt', () => db.query('select * from'));
  await rec('bad-target', () => db.query('select * from nope.autogen.m'));
  await rec('measurements', () => db.getMeasurements());
  await rec('series', () => db.getSeries());
  await rec('create-rp', () => db.createRetentionPolicy('two', { duration: '2d', replication: 1, database: 'ndb' }));
  await rec('rps', () => db.showRetentionPolicies());
  await rec('alter-rp', () => db.alterRetentionPolicy('two', { duration: '3d', replication: 1, isDefault: true, database: 'ndb' }));
  await rec('rps2', () => db.showRetentionPolicies());
  await rec('write-rp', () => db.writePoints([{ measurement: 'r', fields: { v: 1 }, timestamp: new Date() }]));
  await rec('query-rp', async () => (await db.query('select count(v) from two.r')).map((r) => r['count' as keyof typeof r]));
  // Dropping the default policy behaves differently (see the report / todo below): restore autogen first.
  await rec('autogen-default', () => db.alterRetentionPolicy('autogen', { duration: 'INF', replication: 1, isDefault: true, database: 'ndb' }));
  await rec('drop-r', () => db.dropMeasurement('r'));
  await rec('drop-rp', () => db.dropRetentionPolicy('two', 'ndb'));
  await rec('rps3', () => db.showRetentionPolicies());
  await rec('users', () => db.getUsers());
  await rec('create-user', () => db.createUser('bob', 'pw', false));
  await rec('grant', () => db.grantPrivilege('bob', 'READ', 'ndb'));
  await rec('users2', () => db.getUsers());
  await rec('set-password', () => db.setPassword('bob', 'pw2'));
  await rec('revoke', () => db.revokePrivilege('bob', 'READ', 'ndb'));
  await rec('drop-user', () => db.dropUser('bob'));
  await rec('cq', () => db.createContinuousQuery('cq1', 'select mean(v) into m2 from m group by time(1h)'));
  await rec('cqs', () => db.showContinousQueries());
  await rec('drop-cq', () => db.dropContinuousQuery('cq1'));
  await rec('show-cq', async () => (await db.queryRaw('show continuous queries')) as unknown);
  await rec('drop-series', () => db.dropSeries({ measurement: 'm', where: `"h" = 'a'` }));
  await rec('series2', () => db.getSeries());
  await rec('drop-meas', () => db.dropMeasurement('m'));
  await rec('measurements2', () => db.getMeasurements());
  await rec('drop-db', () => db.dropDatabase('ndb'));
  await rec('names-after', () => db.getDatabaseNames());
  return out;
}

/** Exit code + output, without the importer's log timestamps and trailing blank lines. */
function normalise(res: { code: number | null; stdout: string; stderr: string }): string {
  const text = (res.stdout + '\n--stderr--\n' + res.stderr).replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /gm, '');
  return `exit ${res.code}\n${text.replace(/\n+(--stderr--)/, '\n$1').trimEnd()}`;
}

describe('parity with InfluxDB 1.6.7 (same client, both servers)', { timeout: 180_000, skip: skipReason() }, () => {
  let srv: Server;
  let oracleDir = '';
  let oraclePort = 0;
  before(async () => {
    srv = await startServer();
    oracleDir = mkdtempSync(join(tmpdir(), 'strata-oracle-'));
    oraclePort = await freePort();
    const rpc = await freePort();
    const res = await runCmd('/bin/sh', [ORACLE_SH, 'start', String(oraclePort), String(rpc)], {
      env: { ...process.env, ORACLE_DIR: oracleDir },
      timeoutMs: 60_000,
    });
    assert.equal(res.code, 0, `oracle did not start: ${res.stdout}${res.stderr}`);
  });
  after(async () => {
    if (oraclePort) {
      await runCmd('/bin/sh', [ORACLE_SH, 'stop', String(oraclePort)], { env: { ...process.env, ORACLE_DIR: oracleDir }, timeoutMs: 60_000 });
    }
    if (oracleDir) removeDir(oracleDir);
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('the oracle answers /ping as 1.6.7', async () => {
    const ping = await http(oraclePort, 'GET', '/ping');
    assert.equal(ping.status, 204);
    assert.match(String(ping.headers['x-influxdb-version']), /^1\.6\./);
  });

  it('influx CLI: identical output and exit code for every command', async () => {
    const diffs: string[] = [];
    for (const args of COMMANDS) {
      const run = (port: number) => runCmd(INFLUX, ['-host', '127.0.0.1', '-port', String(port), ...args], { timeoutMs: 30_000 });
      const [ours, theirs] = [normalise(await run(srv.port)), normalise(await run(oraclePort))];
      if (ours !== theirs) diffs.push(`influx ${args.join(' ')}\n--- strata ---\n${ours}\n--- influxdb 1.6.7 ---\n${theirs}`);
    }
    assert.equal(diffs.length, 0, diffs.join('\n\n'));
  });

  it('python3-influxdb: the client script passes against 1.6.7 too (its expectations are 1.x-true)', {
    skip: spawnSync(PYTHON, ['-c', 'import influxdb'], { encoding: 'utf8' }).status === 0 ? false : 'python3-influxdb missing',
  }, async () => {
    const res = await runCmd(PYTHON, [join(FIXTURES, 'python_influxdb_client.py'), String(oraclePort)], {
      timeoutMs: 90_000,
      env: { ...process.env, STRATA_ORACLE: '1', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
    });
    assert.equal(res.code, 0, res.stdout + res.stderr);
  });

  it('node-influx: identical outcome for every call', async () => {
    const [ours, theirs] = [await nodeScenario(srv.port), await nodeScenario(oraclePort)];
    assert.deepEqual(ours, theirs);
  });

  it('SHOW SERIES after the default policy was dropped names that policy, as 1.6.7 does', async () => {
    const answers: string[] = [];
    for (const port of [srv.port, oraclePort]) {
      const q = (text: string) => http(port, 'POST', `/query?${new URLSearchParams({ db: 'dd', q: text }).toString()}`);
      await q('CREATE DATABASE dd');
      await q('CREATE RETENTION POLICY two ON dd DURATION 2d REPLICATION 1 DEFAULT');
      await q('DROP RETENTION POLICY two ON dd');
      answers.push((await q('SHOW SERIES')).body.trim());
      await q('DROP DATABASE dd');
    }
    assert.equal(answers[1], '{"results":[{"statement_id":0,"error":"retention policy not found: two"}]}');
    assert.equal(answers[0], answers[1]);
  });
});
