/** SQL → TimeseriesQL planning (no engine): the statement printed, columns, sorting, refusals. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { printStatement } from '../ast/print-statement.js';
import { parseSql, planSql, type SqlPlan, type SqlSchema } from './plan.js';
import { loadSqlParser } from './parser-loader.js';
import { shapeRows } from './rows.js';

const SCHEMA: SqlSchema = { tags: ['host', 'region'], fields: ['big', 'usage'] };

function plan(sql: string, schema = SCHEMA): SqlPlan {
  return planSql(parseSql(sql), schema);
}

function printed(sql: string): string {
  const p = plan(sql);
  assert.ok(p.statement);
  return printStatement(p.statement);
}

function refusal(sql: string, pattern: RegExp, schema = SCHEMA): void {
  assert.throws(() => plan(sql, schema), (err: Error & { status?: number }) => {
    assert.equal(err.status, 400, err.message);
    assert.match(err.message, pattern);
    return true;
  });
}

before(loadSqlParser);

describe('SQL planning', () => {
  it('projection: tags get ::tag, expressions keep their text as column names', () => {
    assert.equal(printed('SELECT time, host, usage * 2 FROM cpu'), 'SELECT host::tag AS __sql0, usage * 2 AS __sql1 FROM cpu');
    assert.deepEqual(plan('SELECT time, host, usage * 2 FROM cpu').columns.map((c) => c.name), ['time', 'host', 'usage * 2']);
    assert.deepEqual(plan('SELECT * FROM cpu').columns.map((c) => c.name), ['time', 'host', 'region', 'big', 'usage']);
  });

  it('only tags selected: every field is read so each point is a row', () => {
    assert.equal(printed('SELECT host FROM cpu'), 'SELECT host::tag AS __sql0, *::field FROM cpu');
  });

  it('AND binds tighter than OR; IN, BETWEEN, NOT, LIKE, intervals', () => {
    assert.equal(
      printed("SELECT usage FROM cpu WHERE usage > 5 AND region = 'us' OR host = 'a' AND usage < 2"),
      "SELECT usage AS __sql0 FROM cpu WHERE usage > 5 AND region::tag = 'us' OR host::tag = 'a' AND usage < 2",
    );
    assert.equal(
      printed("SELECT usage FROM cpu WHERE (host = 'a' OR host = 'b') AND usage > 1"),
      "SELECT usage AS __sql0 FROM cpu WHERE (host::tag = 'a' OR host::tag = 'b') AND usage > 1",
    );
    assert.equal(
      printed("SELECT usage FROM cpu WHERE host IN ('a', 'b') AND NOT usage BETWEEN 1 AND 2"),
      "SELECT usage AS __sql0 FROM cpu WHERE (host::tag = 'a' OR host::tag = 'b') AND (usage < 1 OR usage > 2)",
    );
    assert.equal(printed("SELECT usage FROM cpu WHERE host LIKE 'a%'"), 'SELECT usage AS __sql0 FROM cpu WHERE host::tag =~ /^a.*$/');
    assert.equal(printed("SELECT usage FROM cpu WHERE time > now() - interval '90 minutes'"), 'SELECT usage AS __sql0 FROM cpu WHERE time > now() - 90m');
  });

  it('aggregates: avg → mean, GROUP BY tags and time_bucket', () => {
    assert.equal(
      printed("SELECT host, avg(usage), count(DISTINCT big) FROM cpu GROUP BY host, time_bucket('5 minutes', time)"),
      'SELECT mean(usage) AS __sql0, count(distinct(big)) AS __sql1 FROM cpu GROUP BY host, time(5m) fill(none)',
    );
    const byPosition = plan("SELECT time_bucket('1h', time) AS b, host, max(usage) FROM cpu GROUP BY b, 2 ORDER BY b");
    assert.ok(byPosition.statement);
    assert.equal(printStatement(byPosition.statement), 'SELECT max(usage) AS __sql0 FROM cpu GROUP BY time(1h), host fill(none)');
    assert.deepEqual(byPosition.columns.map((c) => [c.name, c.source.kind]), [['b', 'time'], ['host', 'tag'], ['max(usage)', 'cell']]);
  });

  it('ORDER BY time and LIMIT/OFFSET are pushed down on raw rows; anything else sorts after', () => {
    const down = plan('SELECT usage FROM cpu ORDER BY time DESC LIMIT 3 OFFSET 1');
    assert.ok(down.statement);
    assert.equal(printStatement(down.statement), 'SELECT usage AS __sql0 FROM cpu ORDER BY time DESC LIMIT 3 OFFSET 1');
    assert.deepEqual([down.sort, down.limit, down.offset], [[], 0, 0]);
    const after = plan('SELECT host, count(usage) AS n FROM cpu GROUP BY host ORDER BY n DESC LIMIT 1');
    assert.deepEqual(after.sort, [{ index: 1, ascending: false }]);
    assert.equal(after.limit, 1);
  });

  it('rows: series flattened with tags, sorted, paged, hidden sort keys dropped', () => {
    const p = plan('SELECT host, count(usage) AS n FROM cpu GROUP BY host ORDER BY n DESC, host LIMIT 2');
    const out = shapeRows(p, {
      statementId: 0,
      series: [
        { name: 'cpu', tags: { host: 'a' }, columns: ['time', '__sql0'], values: [[0n, 2]] },
        { name: 'cpu', tags: { host: 'b' }, columns: ['time', '__sql0'], values: [[0n, 3]] },
        { name: 'cpu', tags: { host: 'c' }, columns: ['time', '__sql0'], values: [[0n, 2]] },
      ],
    });
    assert.deepEqual(out.columns, ['host', 'n']);
    assert.deepEqual(out.rows, [
      ['b', 3],
      ['a', 2],
    ]);
    const hidden = plan('SELECT host FROM cpu ORDER BY usage');
    assert.deepEqual(
      shapeRows(hidden, { statementId: 0, series: [{ columns: ['time', '__sql0', '__sql1', 'big'], values: [[1n, 'x', 9, 1], [2n, 'y', 3, 1]] }] }).rows,
      [['y'], ['x']],
    );
  });

  it('refusals name the construct', () => {
    refusal('INSERT INTO cpu (usage) VALUES (1)', /only SELECT is supported/);
    refusal('UPDATE cpu SET usage = 1', /only SELECT is supported/);
    refusal('CREATE TABLE t (a int)', /only SELECT is supported/);
    refusal('SELECT usage FROM cpu; SELECT usage FROM cpu', /single SELECT/);
    refusal('SELECT FROM WHERE', /error parsing SQL/);
    refusal('SELECT DISTINCT host FROM cpu', /DISTINCT/);
    refusal('SELECT host, count(usage) FROM cpu GROUP BY host HAVING count(usage) > 1', /HAVING/);
    refusal('SELECT usage FROM cpu UNION SELECT usage FROM mem', /UNION/);
    refusal('SELECT usage FROM (SELECT usage FROM cpu) s', /subquery|FROM/);
    refusal('SELECT usage FROM db.cpu', /qualified table/);
    refusal('SELECT usage FROM cpu WHERE usage IS NULL', /IS NULL/);
    refusal('SELECT lower(host) FROM cpu', /function lower\(\)/);
    refusal('SELECT sum(usage * 2) FROM cpu', /aggregates take a field/);
    refusal('SELECT time, count(usage) FROM cpu', /must appear in GROUP BY/);
    refusal('SELECT host, count(usage) FROM cpu GROUP BY host ORDER BY usage', /ORDER BY usage/);
  });
});
