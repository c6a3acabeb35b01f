/** Continuous query and materialized view definitions: catalog records and SHOW output (1.x texts). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestEngine, run, series1, type TestEngine } from './test-support.js';

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE d2; CREATE DATABASE d3');
});
after(async () => t.close());

const CQ1 = 'CREATE CONTINUOUS QUERY cq1 ON d3 BEGIN SELECT mean(v) INTO m_mean FROM m GROUP BY time(10m), * END';
const CQ2 = "CREATE CONTINUOUS QUERY \"cq 2\" ON d3 RESAMPLE EVERY 1h FOR 2h BEGIN SELECT count(v) INTO d3.autogen.cnt FROM /m/ WHERE host='a' GROUP BY time(30m) fill(0) END";
const err = async (text: string) => (await run(t.engine, text))[0]?.error;

test('CREATE CONTINUOUS QUERY stores the qualified SELECT and resample defaults; SHOW prints 1.x text', async () => {
  assert.deepEqual(await run(t.engine, `${CQ1}; ${CQ2}`), [{}, {}]);
  const [a, b] = t.engine.catalog.continuousQueries();
  assert.deepEqual(
    { ...a, createdAt: '' },
    { name: 'cq1', database: 'd3', queryText: 'SELECT mean(v) INTO d3.autogen.m_mean FROM d3.autogen.m GROUP BY time(10m), *', resampleEverySec: 600, resampleForSec: 600, resampleGiven: { every: false, for: false }, createdAt: '' },
  );
  assert.equal(b?.resampleEverySec, 3600);
  assert.equal(b?.resampleForSec, 7200);
  assert.deepEqual(await series1(t.engine, 'SHOW CONTINUOUS QUERIES'), [
    { name: 'd2', columns: ['name', 'query'] },
    {
      name: 'd3',
      columns: ['name', 'query'],
      values: [
        ['cq1', 'CREATE CONTINUOUS QUERY cq1 ON d3 BEGIN SELECT mean(v) INTO d3.autogen.m_mean FROM d3.autogen.m GROUP BY time(10m), * END'],
        ['cq 2', `CREATE CONTINUOUS QUERY "cq 2" ON d3 RESAMPLE EVERY 1h FOR 2h BEGIN SELECT count(v) INTO d3.autogen.cnt FROM d3.autogen./m/ WHERE host = 'a' GROUP BY time(30m) fill(0) END`],
      ],
    },
  ]);
});

test('CONTINUOUS QUERY idempotence, errors, DROP', async () => {
  assert.deepEqual(await run(t.engine, CQ1), [{}]);
  assert.equal(await err('CREATE CONTINUOUS QUERY cq1 ON d3 BEGIN SELECT max(v) INTO m_mean FROM m GROUP BY time(10m) END'), 'continuous query already exists');
  assert.equal(await err('CREATE CONTINUOUS QUERY cq1 ON d3 RESAMPLE EVERY 5m BEGIN SELECT mean(v) INTO m_mean FROM m GROUP BY time(10m), * END'), 'continuous query already exists');
  // 1.x compares the statement as written: an EVERY equal to the interval is another text
  assert.equal(await err('CREATE CONTINUOUS QUERY cq1 ON d3 RESAMPLE EVERY 10m BEGIN SELECT mean(v) INTO m_mean FROM m GROUP BY time(10m), * END'), 'continuous query already exists');
  assert.equal(await err('CREATE CONTINUOUS QUERY cq3 ON nope BEGIN SELECT max(v) INTO m_mean FROM m GROUP BY time(10m) END'), 'database not found: nope');
  assert.deepEqual(await run(t.engine, 'DROP CONTINUOUS QUERY nope ON d3; DROP CONTINUOUS QUERY cq1 ON nope; DROP CONTINUOUS QUERY cq1 ON d3'), [{}, {}, {}]);
  assert.deepEqual(t.engine.catalog.continuousQueries().map((c) => c.name), ['cq 2']);
  await run(t.engine, 'DROP DATABASE d3; CREATE DATABASE d3');
  assert.deepEqual(t.engine.catalog.continuousQueries(), []);
});

test('a raw CONTINUOUS QUERY without GROUP BY time is accepted and shown as written (1.x never runs it)', async () => {
  assert.deepEqual(await run(t.engine, 'CREATE CONTINUOUS QUERY raw ON d2 BEGIN SELECT v INTO x FROM m END'), [{}]);
  const shown = ((await series1(t.engine, 'SHOW CONTINUOUS QUERIES')) as { name?: string; values?: unknown[] }[]).find((s) => s.name === 'd2');
  assert.deepEqual(shown?.values, [['raw', 'CREATE CONTINUOUS QUERY raw ON d2 BEGIN SELECT v INTO d2.autogen.x FROM d2.autogen.m END']]);
  assert.deepEqual(await run(t.engine, 'DROP CONTINUOUS QUERY raw ON d2'), [{}]);
});

test('MATERIALIZED VIEW definitions', async () => {
  assert.deepEqual(await run(t.engine, 'CREATE MATERIALIZED VIEW mv ON d2 AS SELECT mean(v) INTO x FROM m GROUP BY time(1h)'), [{}]);
  const row = ['mv', 'SELECT mean(v) INTO d2.autogen.x FROM d2.autogen.m GROUP BY time(1h)', 'd2.autogen.x'];
  assert.deepEqual(await series1(t.engine, 'SHOW MATERIALIZED VIEWS ON d2'), [{ name: 'd2', columns: ['name', 'query', 'target'], values: [row] }]);
  assert.deepEqual(await series1(t.engine, 'SHOW MATERIALIZED VIEWS'), [
    { name: 'd2', columns: ['name', 'query', 'target'], values: [row] },
    { name: 'd3', columns: ['name', 'query', 'target'] },
  ]);
  assert.equal(await err('CREATE MATERIALIZED VIEW mv ON d2 AS SELECT mean(v) INTO y FROM m GROUP BY time(1h)'), 'materialized view already exists');
  assert.equal(await err('CREATE MATERIALIZED VIEW mv ON nope AS SELECT mean(v) INTO y FROM m GROUP BY time(1h)'), 'database not found: nope');
  assert.equal(await err('SHOW MATERIALIZED VIEWS ON nope'), 'database not found: nope');
  assert.deepEqual(await run(t.engine, 'DROP MATERIALIZED VIEW mv ON d2'), [{}]);
  assert.equal(await err('DROP MATERIALIZED VIEW mv ON d2'), 'materialized view not found');
});
