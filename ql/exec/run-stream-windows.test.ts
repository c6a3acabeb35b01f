/**
 * An outer GROUP BY time over the runs of an interleaved inner fill (run-stream-windows.ts),
 * through a real engine. The expected rows are influxd 1.6.7's answers to the same statements
 * over the same points (case s-k311).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { withDbEngine } from './test-support.js';

// Two hosts whose points alternate: 1.x's fill iterator makes six runs of them, each over every window.
const POINTS = 'r,h=a v=1 0\nr,h=b v=10 0\nr,h=a v=2 600\nr,h=b v=20 1200\nr,h=a v=3 1800\nr,h=b v=30 2400';
const INNER = 'SELECT max(v) AS m FROM r WHERE time >= 0s AND time < 3000s GROUP BY time(10m), h fill(previous)';

const m = (min: number): string => `1970-01-01T00:${String(min).padStart(2, '0')}:00Z`;

test('an outer GROUP BY time reduces stretches of the runs and fills only before the rows go back in time', async () => {
  await withDbEngine('strata-runstream-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(POINTS) });
    const q = [
      `SELECT sum(m) FROM (${INNER}) WHERE time >= 0s AND time < 3000s GROUP BY time(20m)`,
      `SELECT count(m), last(m) FROM (${INNER}) WHERE time >= 0s AND time < 3000s GROUP BY time(20m) fill(-1)`,
      `SELECT spread(m) FROM (${INNER}) WHERE time >= 0s AND time < 3000s GROUP BY time(20m)`,
    ].join('; ');
    const results = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
    const rows = results.map((r) => (r.series?.[0]?.values ?? []).map((row) => [new Date(Number((row[0] as bigint) / 1_000_000n)).toISOString().replace('.000', ''), ...row.slice(1)]));
    // Runs a(1), b(10), a(2 from 10m), b(20 from 20m), a(3 from 30m), b(30 from 40m): the last two
    // runs' 40m values join in sum() (its second pass merges consecutive partials of one window).
    assert.deepEqual(rows[0], [[m(0), 2], [m(20), 2], [m(40), 1], [m(0), 20], [m(20), 20], [m(40), 10], [m(0), 2], [m(20), 4], [m(40), 2], [m(20), 40], [m(40), 20], [m(20), 3], [m(40), 33]]);
    assert.deepEqual(rows[1], [[m(0), 2, 1], [m(20), 2, 1], [m(40), 1, 1], [m(0), 2, 10], [m(20), 2, 10], [m(40), 1, 10], [m(0), 1, 2], [m(20), 2, 2], [m(40), 1, 2], [m(20), 2, 20], [m(40), 1, 20], [m(20), 1, 3], [m(40), 2, 30]]);
    // spread() runs once: the value-less start of the last run splits the 40m window.
    assert.equal(rows[2]!.length, 14);
    assert.deepEqual(rows[2]!.slice(-2), [[m(40), 0], [m(40), 0]]);
  });
});

test('the stream order holds under ORDER BY time DESC, and math, LIMIT and OFFSET apply to the rows as they come', async () => {
  await withDbEngine('strata-runstream-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(POINTS) });
    const q = [
      `SELECT sum(m) FROM (${INNER}) WHERE time >= 0s AND time < 3000s GROUP BY time(20m) ORDER BY time DESC`,
      `SELECT sum(m) * 2 FROM (${INNER}) WHERE time >= 0s AND time < 3000s GROUP BY time(20m) fill(previous) LIMIT 2 OFFSET 1`,
      `SELECT count(m) FROM (${INNER}) WHERE time >= -2400s AND time < 3000s GROUP BY time(20m) fill(linear) LIMIT 3`,
    ].join('; ');
    const results = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
    const rows = results.map((r) => (r.series?.[0]?.values ?? []).map((row) => [new Date(Number((row[0] as bigint) / 1_000_000n)).toISOString().replace('.000', ''), ...row.slice(1)]));
    // influxd 1.6.7 (cases s-k411-s-k413)
    assert.deepEqual(rows[0], [[m(40), 30], [m(20), 60], [m(0), 60], [m(20), 6], [m(0), 6], [m(20), 20], [m(0), 53]]);
    assert.deepEqual(rows[1], [[m(20), 4], [m(40), 2]]);
    // the windows before the first rows are filled; linear has no row before them
    assert.deepEqual(rows[2], [['1969-12-31T23:20:00Z', null], ['1969-12-31T23:40:00Z', null], [m(0), 2]]);
  });
});
