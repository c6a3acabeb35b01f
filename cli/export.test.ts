/**
 * `strata export` → `strata import` into a fresh server gives identical answers to
 * `SELECT * ... GROUP BY *` (and to the schema SHOW statements), for every field type,
 * escaped names, string values with quotes, backslashes and newlines, two retention
 * policies, two databases, and rows hidden by a DELETE (which must not come back).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { dirsUnder, queryText, runStrata, startStrata, toolEnv, write } from './tool-test-support.js';

const LINES = [
  'cpu,host=a,region=us\\ east f=1.5,i=-42i,u=18446744073709551615u,b=true,s="plain" 1600000000000000001',
  'cpu,host=a,region=us\\ east f=-0.000001,i=9007199254740993i,b=false,s="quote \\" and backslash \\\\" 1600000000000000002',
  'cpu,host=b,region=eu f=1e300,i=0i,s="multi\nline" 1600000000000000003',
  'cpu,host=b,region=eu f=2 1600000000000000004',
  'weird\\ name,tag\\,k=v\\=1 field\\ x=3i 1600000000000001000',
  'cpu,host=c f=7 1500000000000000000',
  'cpu,host=c f=8 1500000000000000001',
];

const STATEMENTS = (db: string, rps: string[]) => [
  'SHOW RETENTION POLICIES',
  'SHOW MEASUREMENTS',
  'SHOW SERIES',
  'SHOW FIELD KEYS',
  'SHOW TAG KEYS',
  ...rps.flatMap((rp) => [`SELECT * FROM "${db}"."${rp}"."cpu" GROUP BY *`, `SELECT * FROM "${db}"."${rp}"./.*/ GROUP BY *`]),
];

describe('export then import', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'strata-export-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('gives identical query answers on a fresh server', async () => {
    const a = dirsUnder(join(root, 'a'));
    let server = await startStrata(a);
    await queryText(server.port, 'CREATE DATABASE one');
    await queryText(server.port, 'CREATE RETENTION POLICY two ON one DURATION INF REPLICATION 1 SHARD DURATION 30d');
    await queryText(server.port, 'CREATE DATABASE "db two"');
    assert.equal(await write(server.port, 'one', LINES.join('\n')), 204);
    assert.equal(await write(server.port, 'one', 'cpu,host=z f=9,i=1i 1600000000000005000\nmem used=1u 1600000000000005000', 'two'), 204);
    assert.equal(await write(server.port, 'db two', 'cpu,host=q f=0.1 1600000000000000000'), 204);
    assert.match(await queryText(server.port, "DELETE FROM cpu WHERE host = 'c' AND time < 1500000000000000001", 'one'), /statement_id/);
    assert.equal(await server.stop(), 0);

    const file = join(root, 'export.lp.gz');
    const exported = await runStrata(['export', '--output', file, '--gzip'], toolEnv(a, 0));
    assert.equal(exported.code, 0, exported.stderr);
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    assert.match(text, /^# DDL\n/);
    assert.match(text, /# CONTEXT-DATABASE: one\n# CONTEXT-RETENTION-POLICY: two\n/);
    assert.doesNotMatch(text, /1500000000000000000\n/, 'the deleted row is not exported');

    // Filters: one measurement of one database, line protocol only, to stdout.
    const only = await runStrata(['export', '--database', 'one', '--retention', 'two', '--measurement', 'mem', '--lponly'], toolEnv(a, 0));
    assert.equal(only.code, 0, only.stderr);
    assert.equal(only.stdout, 'mem used=1u 1600000000000005000\n');
    const ranged = await runStrata(['export', '--database', 'one', '--lponly', '--start', '2020-09-13T12:26:40.000000002Z', '--end', '1600000000000000003'], toolEnv(a, 0));
    assert.equal(ranged.stdout.split('\n').filter((l) => l.startsWith('cpu')).length, 2, ranged.stdout);

    const b = dirsUnder(join(root, 'b'));
    const fresh = await startStrata(b);
    try {
      const imported = await runStrata(['import', '--host', `http://127.0.0.1:${fresh.port}`, file], toolEnv(b, 0));
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stderr, /imported 9 of 9 lines, 5 of 5 statements/);
      server = await startStrata(a);
      try {
        for (const [db, rps] of [['one', ['autogen', 'two']], ['db two', ['autogen']]] as const) {
          for (const q of STATEMENTS(db, [...rps])) {
            const want = await queryText(server.port, q, db);
            assert.doesNotMatch(want, /"error"/, `${q}: ${want}`);
            assert.equal(await queryText(fresh.port, q, db), want, `${db}: ${q}`);
          }
        }
        assert.equal(await queryText(fresh.port, 'SHOW DATABASES'), await queryText(server.port, 'SHOW DATABASES'));
      } finally {
        assert.equal(await server.stop(), 0);
      }
    } finally {
      assert.equal(await fresh.stop(), 0);
    }
  });

  it('imports the influx -import format straight into a data directory, from stdin', async () => {
    const c = dirsUnder(join(root, 'c'));
    const input = [
      '# DDL',
      'CREATE DATABASE direct',
      '# DML',
      '# CONTEXT-DATABASE: direct',
      '# CONTEXT-RETENTION-POLICY: autogen',
      '# a comment',
      'x v=1 1000000000',
      'x v=2 2000000000',
      '',
    ].join('\n');
    const res = await runStrata(['import', '--data-dir', c.data, '--batch-size', '1', '-'], toolEnv(c, 0), { stdin: input });
    assert.equal(res.code, 0, res.stderr);
    const server = await startStrata(c);
    try {
      assert.match(await queryText(server.port, 'SELECT sum(v) FROM x', 'direct'), /\[0,3\]|"1970-01-01T00:00:00Z",3\]/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('refuses to export while a server holds the directories', async () => {
    const d = dirsUnder(join(root, 'd'));
    const server = await startStrata(d);
    try {
      const res = await runStrata(['export'], toolEnv(d, 0));
      assert.equal(res.code, 1);
      assert.match(res.stderr, /locked by running process .*stop the server before exporting/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
