/**
 * EXPLAIN and EXPLAIN ANALYZE through a real server (fixtures/queries/a0-explain.test pins the
 * single-read paragraphs against 1.6.7 with the data in memory). Here: the costs once the data
 * is in TSM files, deletes, several reads in field order, and EXPLAIN ANALYZE's tree.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, q, startRealServer, type RealServer } from './test-server.js';

let srv: RealServer;

before(async () => {
  srv = await startRealServer({ 'flush.interval_secs': 3600 });
  await call(srv, { method: 'POST', path: q('CREATE DATABASE g') });
  const lines = [
    'cpu,host=a,region=eu v=1,i=2i 1700000000000000000',
    'cpu,host=b,region=us v=3,i=4i 1700000060000000000',
    'cpu,host=c v=7 1600000000000000000',
    'mem,host=a free=10 1700000000000000000',
  ];
  const res = await call(srv, { method: 'POST', path: '/write?db=g', body: lines.join('\n') });
  assert.equal(res.status, 204, res.text);
});

after(() => srv.close());

async function rows(text: string): Promise<string[]> {
  const res = await call(srv, { path: q(text, 'g') });
  assert.equal(res.status, 200, res.text);
  const body = JSON.parse(res.text) as { results: { error?: string; series?: { values: string[][] }[] }[] };
  const r = body.results[0]!;
  assert.equal(r.error, undefined, `${text}: ${r.error}`);
  return r.series![0]!.values.map((v) => v[0]!);
}

/** `NAME: n` lines of a paragraph as numbers. */
function counts(lines: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of lines) {
    const m = /^([A-Z ]+): (\d+)$/.exec(l);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

test('costs move from the cache to files and blocks when the data is flushed, and a delete hides its blocks', async () => {
  const before = counts(await rows('EXPLAIN SELECT mean(v) FROM cpu'));
  assert.deepEqual(before, { 'NUMBER OF SHARDS': 2, 'NUMBER OF SERIES': 6, 'CACHED VALUES': 3, 'NUMBER OF FILES': 0, 'NUMBER OF BLOCKS': 0, 'SIZE OF BLOCKS': 0 });
  await srv.deps.flush();
  const flushed = counts(await rows('EXPLAIN SELECT mean(v) FROM cpu'));
  // One block per series-field, in one file per shard: three series hold v.
  assert.equal(flushed['CACHED VALUES'], 0);
  assert.equal(flushed['NUMBER OF FILES'], 3);
  assert.equal(flushed['NUMBER OF BLOCKS'], 3);
  assert.ok(flushed['SIZE OF BLOCKS']! > 3 * 4, 'each block is at least its checksum');
  // A new point is cached beside the files.
  assert.equal((await call(srv, { method: 'POST', path: '/write?db=g', body: 'cpu,host=a,region=eu v=5 1700000030000000000' })).status, 204);
  const mixed = counts(await rows('EXPLAIN SELECT mean(v) FROM cpu'));
  assert.equal(mixed['CACHED VALUES'], 1);
  assert.equal(mixed['NUMBER OF BLOCKS'], 3);
  // The range decides which blocks count: only host=c's shard is before 1650000000 s.
  const early = counts(await rows('EXPLAIN SELECT mean(v) FROM cpu WHERE time < 1650000000s'));
  assert.deepEqual([early['NUMBER OF SHARDS'], early['NUMBER OF BLOCKS'], early['CACHED VALUES']], [1, 1, 0]);
  // A block a delete hides entirely is not read.
  const del = await call(srv, { method: 'POST', path: q("DELETE FROM cpu WHERE host = 'c'", 'g') });
  assert.equal(del.status, 200, del.text);
  const afterDelete = counts(await rows('EXPLAIN SELECT mean(v) FROM cpu'));
  assert.equal(afterDelete['NUMBER OF BLOCKS'], 2);
});

test('several reads print one paragraph each, in field order, per source', async () => {
  const lines = await rows('EXPLAIN SELECT count(v), max(i) FROM cpu, mem');
  const expressions = lines.filter((l) => l.startsWith('EXPRESSION: '));
  assert.deepEqual(expressions, ['EXPRESSION: count(v::float)', 'EXPRESSION: count(v::float)', 'EXPRESSION: max(i::integer)', 'EXPRESSION: max(i::integer)']);
  assert.equal(lines.filter((l) => l === '').length, 3, 'paragraphs are separated by one empty row');
  const wildcard = (await rows('EXPLAIN SELECT count(*) FROM cpu')).filter((l) => l.startsWith('EXPRESSION: '));
  assert.deepEqual(wildcard, ['EXPRESSION: count(i::integer)', 'EXPRESSION: count(v::float)']);
});

test('EXPLAIN ANALYZE runs the statement and draws 1.x tree of its reads', async () => {
  const lines = await rows('EXPLAIN ANALYZE SELECT max(v), count(i) FROM cpu WHERE time > 0 AND v > 0');
  assert.equal(lines[0], '.');
  assert.equal(lines[1], '└── select');
  assert.equal(lines.at(-1), '', 'a last empty row, as 1.x');
  for (const name of ['execution_time', 'planning_time', 'total_time']) {
    const line = lines.find((l) => l.includes(`${name}: `));
    assert.match(line ?? '', /: \d+(\.\d+)?(ns|µs|ms|s)$/, name);
  }
  assert.ok(lines.includes('        │   └── statement: SELECT max(v::float), count(i::integer) FROM g.autogen.cpu WHERE v::float > 0'), lines.join('\n'));
  assert.deepEqual(lines.filter((l) => l.includes('expr: ')).map((l) => l.trim().replace(/^[│├└─ ]+/, '')), ['expr: max(v::float)', 'expr: count(i::integer)']);
  // A create_iterator per shard where the read finds data: i is in one shard, and so is v
  // since host=c, the other shard's only series, was deleted above.
  assert.equal(lines.filter((l) => l.endsWith('create_iterator')).length, 2);
  const conds = lines.filter((l) => l.includes('cursors_cond: ')).map((l) => Number(l.split(': ')[1]));
  assert.ok(conds.every((n) => n > 0), 'the row condition v > 0 opens a cursor per series');
});

test('EXPLAIN keeps the statement errors of SELECT', async () => {
  const res = await call(srv, { path: q('EXPLAIN SELECT v, mean(v) FROM cpu', 'g') });
  assert.match(res.text, /mixing aggregate and non-aggregate queries is not supported/);
  const db = await call(srv, { path: q('EXPLAIN SELECT v FROM nodb.autogen.cpu') });
  assert.match(db.text, /database not found: nodb/);
});
