/**
 * The influx CLI 1.6.7 (Debian influxdb-client) against a real `strata serve`: -execute output,
 * DDL, INSERT, -format json, errors, the interactive banner (through script(1) for a tty) and
 * `-import` of a file in the influx import format. Skipped with a reason when /usr/bin/influx
 * is not installed.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { connect, createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { executable, FIXTURES, http, query, removeDir, rows, runCmd, startServer, stopServer, type Server } from './harness.js';

const INFLUX = '/usr/bin/influx';
const SCRIPT = '/usr/bin/script';
const skip = executable(INFLUX) ? false : `${INFLUX} not installed (apt-get install influxdb-client, see .ci/run)`;

describe('influx CLI 1.6.7', { timeout: 120_000, skip }, () => {
  let srv: Server;
  let version = '';
  const influx = (args: string[], input?: string) =>
    runCmd(INFLUX, ['-host', '127.0.0.1', '-port', String(srv.port), ...args], { input, timeoutMs: 30_000 });

  before(async () => {
    srv = await startServer();
    const ping = await http(srv.port, 'GET', '/ping');
    version = String(ping.headers['x-influxdb-version']);
  });
  after(async () => {
    if (!srv) return;
    await stopServer(srv);
    removeDir(srv.dir);
  });

  it('-execute SHOW DATABASES prints the table without a banner', async () => {
    const res = await influx(['-execute', 'SHOW DATABASES']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, 'name: databases\nname\n----\n');
    assert.equal(res.stderr, '');
  });

  it('-execute CREATE DATABASE then SHOW DATABASES lists it', async () => {
    const res = await influx(['-execute', 'CREATE DATABASE x']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, '');
    const show = await influx(['-execute', 'SHOW DATABASES']);
    assert.equal(show.stdout, 'name: databases\nname\n----\nx\n');
    // SHOW DATABASES piped on stdin (not a tty): the CLI runs stdin as one -execute.
    const piped = await influx([], 'SHOW DATABASES');
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, 'name: databases\nname\n----\nx\n');
  });

  it('-execute INSERT with -database writes the point (leading-space body)', async () => {
    const res = await influx(['-database', 'x', '-execute', 'INSERT cpu,host=a value=1 1500000000000000000']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, '');
    assert.deepEqual(rows(await query(srv.port, 'SELECT * FROM cpu', { db: 'x' })), [
      ['2017-07-14T02:40:00Z', 'a', 1],
    ]);
    const sel = await influx(['-database', 'x', '-execute', 'SELECT * FROM cpu']);
    assert.equal(sel.stdout, 'name: cpu\ntime                host value\n----                ---- -----\n1500000000000000000 a    1\n');
    const s = await influx(['-database', 'x', '-precision', 's', '-execute', 'SELECT * FROM cpu']);
    assert.equal(s.stdout, 'name: cpu\ntime       host value\n----       ---- -----\n1500000000 a    1\n');
    const rfc = await influx(['-database', 'x', '-precision', 'rfc3339', '-execute', 'SELECT value FROM cpu']);
    assert.equal(rfc.stdout, 'name: cpu\ntime                 value\n----                 -----\n2017-07-14T02:40:00Z 1\n');
  });

  it('-precision s|ms|u|ns|h|m|rfc3339 on INSERT (rfc3339 sends an empty precision= = ns)', async () => {
    await influx(['-execute', 'CREATE DATABASE pp']);
    for (const p of ['s', 'ms', 'u', 'ns', 'h', 'm', 'rfc3339']) {
      const res = await influx(['-database', 'pp', '-precision', p, '-execute', `INSERT m,p=${p} v=1 7`]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, '', `${p}: ${res.stdout}`);
    }
    const sel = await influx(['-database', 'pp', '-execute', 'SELECT * FROM m']);
    assert.equal(
      sel.stdout,
      [
        'name: m',
        'time           p       v',
        '----           -       -',
        '7              ns      1',
        '7              rfc3339 1',
        '7000           u       1',
        '7000000        ms      1',
        '7000000000     s       1',
        '420000000000   m       1',
        '25200000000000 h       1',
        '',
      ].join('\n'),
    );
  });

  it('-format json re-marshals results without statement_id', async () => {
    const res = await influx(['-database', 'x', '-format', 'json', '-execute', 'SELECT * FROM cpu']);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(JSON.parse(res.stdout), {
      results: [{ series: [{ name: 'cpu', columns: ['time', 'host', 'value'], values: [[1500000000000000000, 'a', 1]] }] }],
    });
    const empty = await influx(['-database', 'x', '-format', 'json', '-execute', 'SELECT * FROM nothing']);
    assert.equal(empty.stdout.trim(), '{"results":[{}]}');
  });

  it('errors: ERR: line and exit 1 for queries; INSERT errors print the body and exit 0', async () => {
    const bad = await influx(['-database', 'x', '-execute', 'SELEKT 1']);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^ERR: error parsing query: /);
    const missing = await influx(['-database', 'x', '-execute', 'SELECT * FROM nope.autogen.cpu']);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /ERR: database not found: nope/);
    const conflict = await influx(['-database', 'x', '-execute', 'INSERT cpu,host=a value="str"']);
    assert.equal(conflict.code, 0);
    assert.match(conflict.stdout + conflict.stderr, /field type conflict/);
  });

  it('interactive session (tty): banner with the server version, use, INSERT, precision, SELECT', {
    skip: executable(SCRIPT) ? false : `${SCRIPT} (bsdutils) not installed: no pseudo-terminal for the interactive CLI`,
  }, async () => {
    const input = [
      'use x',
      'INSERT cpu,host=tty value=3 2000000000',
      'precision s',
      "SELECT * FROM cpu WHERE host = 'tty'",
      'exit',
      '',
    ].join('\n');
    const cmd = `${INFLUX} -host 127.0.0.1 -port ${srv.port}`;
    const res = await runCmd(SCRIPT, ['-qec', cmd, '/dev/null'], { input, timeoutMs: 30_000 });
    const out = res.stdout.replace(/\r/g, '');
    assert.equal(res.code, 0, out + res.stderr);
    assert.ok(out.includes(`Connected to http://127.0.0.1:${srv.port} version ${version}\n`), out);
    assert.doesNotMatch(out, /WARN: Connected/);
    assert.match(out, /InfluxDB shell version: 1\.6\.7/);
    assert.match(out, /Using database x/);
    assert.match(out, /time host value\n---- ---- -----\n2    tty  3\n/);
  });

  it('chunked answers (the CLI always sends chunked=true): 25000 rows, default chunk size 10000', async () => {
    await influx(['-execute', 'CREATE DATABASE big']);
    const lines = Array.from({ length: 25_000 }, (_, i) => `big,h=${'ab'[i % 2]} v=${i},s="x${i}" ${1_000_000_000 + i}`);
    const w = await http(srv.port, 'POST', '/write?db=big&precision=s', lines.join('\n'));
    assert.equal(w.status, 204, w.body);
    const table = await influx(['-database', 'big', '-execute', 'SELECT * FROM big']);
    assert.equal(table.code, 0, table.stderr);
    const out = table.stdout.split('\n');
    assert.equal(out.length, 25_004); // name, header, ----, 25000 rows, final ''
    assert.deepEqual(out.slice(0, 5), ['name: big', 'time                h s      v', '----                - -      -', '1000000000000000000 a x0     0', '1000000001000000000 b x1     1']);
    assert.equal(out[25_002], '1000024999000000000 b x24999 24999');
    // -format json shows one result per chunk (as 1.6.7 does with its own chunks).
    const json = await influx(['-database', 'big', '-format', 'json', '-execute', 'SELECT v FROM big GROUP BY h']);
    const parsed = JSON.parse(json.stdout) as { results: { series: { tags: { h: string }; values: [number, number][] }[] }[] };
    assert.deepEqual(
      parsed.results.map((r) => r.series.map((s) => [s.tags.h, s.values.length])),
      [[['a', 10_000]], [['a', 2_500]], [['b', 10_000]], [['b', 2_500]]],
    );
    assert.ok(json.stdout.includes('[1000024999000000000,24999]]'), 'last row, ns time printed exactly');
  });

  it('reads gzip-compressed answers (its Go transport asks for them): the same rows, chunked and not', async () => {
    // A loopback relay between the CLI and the server keeps what the server sent back.
    const seen: Buffer[] = [];
    const relay = createServer((client) => {
      const upstream = connect(srv.port, '127.0.0.1');
      client.pipe(upstream);
      upstream.on('data', (d: Buffer) => seen.push(d));
      upstream.pipe(client);
      const close = () => (client.destroy(), upstream.destroy());
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((ok) => relay.listen(0, '127.0.0.1', ok));
    const port = (relay.address() as AddressInfo).port;
    try {
      const viaRelay = (args: string[]) => runCmd(INFLUX, ['-host', '127.0.0.1', '-port', String(port), '-database', 'big', ...args], { timeoutMs: 30_000 });
      const direct = await influx(['-database', 'big', '-format', 'json', '-execute', 'SELECT * FROM big WHERE time < 1000020000s']);
      const relayed = await viaRelay(['-format', 'json', '-execute', 'SELECT * FROM big WHERE time < 1000020000s']);
      assert.equal(relayed.code, 0, relayed.stderr);
      assert.equal(relayed.stdout, direct.stdout);
      assert.equal((JSON.parse(relayed.stdout) as { results: unknown[] }).results.length, 2, 'two chunks of 10000 rows');
      const table = await viaRelay(['-execute', 'SELECT * FROM big']);
      assert.equal(table.code, 0, table.stderr);
      assert.equal(table.stdout.split('\n')[25_002], '1000024999000000000 b x24999 24999');
      const answers = Buffer.concat(seen).toString('latin1');
      assert.equal((answers.match(/\r\ncontent-encoding: gzip\r\n/gi) ?? []).length, 2, answers.slice(0, 600));
    } finally {
      relay.close();
    }
  });

  it('-version prints the shell version without contacting the server', async () => {
    const res = await runCmd(INFLUX, ['-version']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^InfluxDB shell version: 1\.6\.7/);
  });

  it('-import -precision=s loads DDL + DML (contexts, blank lines, comments) exactly', async () => {
    const res = await influx(['-import', `-path=${join(FIXTURES, 'influx-import.txt')}`, '-precision=s']);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const report = res.stdout + res.stderr; // the importer logs through Go's log package
    assert.match(report, /Processed 2 commands\n/, report);
    assert.match(report, /Processed 7 inserts\n/, report);
    assert.match(report, /Failed 0 inserts\n/, report);

    const rp = rows(await query(srv.port, 'SHOW RETENTION POLICIES ON pirates'));
    assert.deepEqual(rp, [
      ['autogen', '0s', '168h0m0s', 1, true],
      ['archive', '0s', '24h0m0s', 1, false],
    ]);
    const q = (s: string) => query(srv.port, s, { db: 'pirates', epoch: 's' });
    assert.deepEqual(rows(await q('SELECT * FROM archive.treasures')), [
      [1439856000, 'dread_pirate_roberts', 801],
      [1439856000, 'flint', 29],
      [1439856000, 'sparrow', 38],
      [1439856360, 'tetra', 47],
    ]);
    assert.deepEqual(rows(await q('SELECT * FROM archive.ships')), [
      [1439856000, 'flint', 14, 'sloop of war', 'Walrus', false],
      [1439859600, 'sparrow', 32, 'galleon', 'Black Pearl', true],
    ]);
    assert.deepEqual(rows(await q('SELECT * FROM autogen.log')), [[1439856001, 'ahoy, "matey"']]);
    // Nothing leaked into the default policy or another measurement.
    assert.deepEqual(rows(await q('SELECT count(*) FROM autogen.treasures')), []);
    assert.deepEqual(rows(await q('SHOW MEASUREMENTS')), [['log'], ['ships'], ['treasures']]);
    const fields = await query(srv.port, 'SHOW FIELD KEYS FROM archive.ships', { db: 'pirates' });
    assert.deepEqual(rows(fields), [
      ['guns', 'integer'],
      ['name', 'string'],
      ['sunk', 'boolean'],
    ]);
  });

  it('-import -compressed reads a gzipped import file', async () => {
    const text = readFileSync(join(FIXTURES, 'influx-import.txt'), 'utf8').replaceAll('pirates', 'pgz');
    const file = join(srv.dir, 'import.txt.gz');
    writeFileSync(file, gzipSync(text));
    const res = await influx(['-import', `-path=${file}`, '-compressed', '-precision=s']);
    const report = res.stdout + res.stderr;
    assert.equal(res.code, 0, report);
    assert.match(report, /Processed 7 inserts\n/, report);
    assert.match(report, /Failed 0 inserts\n/, report);
    const count = await query(srv.port, 'SELECT count(*) FROM archive.treasures', { db: 'pgz' });
    assert.deepEqual(rows(count), [['1970-01-01T00:00:00Z', 4]]);
  });
});
