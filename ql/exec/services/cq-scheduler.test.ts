import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContinuousQueryScheduler, type CqRun } from './cq-scheduler.js';
import { goTruncate, planCqRun, type CqTiming } from './cq-window.js';
import { openEngine, query, writeLines } from './test-support.js';
import { tempDir } from '../../../engine/testing/temp-dir.js';

const S = 1_000_000_000n;
const M = 60n * S;
const H = 60n * M;
const DAY = 24n * H;
/** 2023-11-14T08:00:00Z: a day boundary plus 8h. */
const T8 = (1_699_920_000n - (1_699_920_000n % 86_400n)) * S + 8n * H;

const timing = (interval: bigint, every = interval, forNs = interval, offset = 0n): CqTiming => ({ intervalNs: interval, offsetNs: offset, everyNs: every, forNs });
const win = (t: CqTiming, now: bigint, last?: bigint) => {
  const p = planCqRun(t, now, last);
  return p.run ? { last: p.lastRunNs, window: p.window && [p.window.startNs - T8, p.window.endNs - T8] } : 'skip';
};

test('CQ windows as 1.x computes them (documentation examples of RESAMPLE)', () => {
  // GROUP BY time(1h): at 8:00 [7:00, 8:00). A first run off the boundary (start-up, creation)
  // has an empty window, as in 1.x, and aligns the next run; a tick 7 s late changes nothing.
  assert.deepEqual(win(timing(H), T8), { last: T8, window: [-H, 0n] });
  assert.deepEqual(win(timing(H), T8 + 7n * S), { last: T8, window: null });
  assert.equal(win(timing(H), T8 + 30n * M, T8), 'skip');
  assert.deepEqual(win(timing(H), T8 + H + 7n * S, T8), { last: T8 + H, window: [0n, H] });
  // RESAMPLE EVERY 30m, GROUP BY time(1h): 8:00 [7:00, 8:00), 8:30 [8:00, 9:00), 9:00 [8:00, 9:00).
  const e30 = timing(H, 30n * M, H);
  assert.deepEqual(win(e30, T8), { last: T8, window: [-H, 0n] });
  assert.deepEqual(win(e30, T8 + 30n * M, T8), { last: T8 + 30n * M, window: [0n, H] });
  assert.deepEqual(win(e30, T8 + H, T8 + 30n * M), { last: T8 + H, window: [0n, H] });
  // RESAMPLE FOR 1h, GROUP BY time(30m): 8:00 [7:00, 8:00), 8:30 [7:30, 8:30).
  const f1h = timing(30n * M, 30n * M, H);
  assert.deepEqual(win(f1h, T8), { last: T8, window: [-H, 0n] });
  assert.deepEqual(win(f1h, T8 + 30n * M, T8), { last: T8 + 30n * M, window: [-30n * M, 30n * M] });
  // RESAMPLE EVERY 1h FOR 90m, GROUP BY time(30m): 8:00 [6:30, 8:00), 9:00 [7:30, 9:00).
  const e1f90 = timing(30n * M, H, 90n * M);
  assert.deepEqual(win(e1f90, T8), { last: T8, window: [-90n * M, 0n] });
  assert.equal(win(e1f90, T8 + 30n * M, T8), 'skip');
  assert.deepEqual(win(e1f90, T8 + H, T8), { last: T8 + H, window: [-30n * M, H] });
  // GROUP BY time(1h, 15m): windows and runs shift by the offset.
  const off = timing(H, H, H, 15n * M);
  assert.deepEqual(win(off, T8 + 20n * M), { last: T8 + 15n * M, window: null });
  assert.deepEqual(win(off, T8 + 75n * M + 5n * S, T8 + 15n * M), { last: T8 + 75n * M, window: [15n * M, 75n * M] });
  // Missed runs (a pause): the window reaches back to the missed run, as 1.x (nextRun based).
  assert.deepEqual(win(f1h, T8 + 2n * H, T8), { last: T8 + 2n * H, window: [-30n * M, 2n * H] });
});

test('Go truncation: days align to the epoch, weeks to Monday (Go zero time)', () => {
  assert.equal(goTruncate(T8, DAY), T8 - 8n * H);
  const week = 7n * DAY;
  const monday = goTruncate(T8, week);
  assert.equal(new Date(Number(monday / 1_000_000n)).getUTCDay(), 1);
  assert.equal(new Date(Number(monday / 1_000_000n)).getUTCHours(), 0);
});

const sec = (ns: bigint) => Number(ns / S);

test('scheduler: aligned windows, RESAMPLE FOR picks up late points, INTO results exact, restart keeps CQs', async (t) => {
  const root = await tempDir(t, 'strata-svc-');
  let engine = await openEngine(root);
  const B = T8; // a 10m boundary
  let now = B + 5n * S;
  const runs: CqRun[] = [];
  const make = () => new ContinuousQueryScheduler(engine, { now: () => now, onRun: (r) => runs.push(r) });
  await query(
    engine,
    'CREATE DATABASE db; CREATE CONTINUOUS QUERY cq ON db RESAMPLE EVERY 10m FOR 30m BEGIN ' +
      'SELECT mean(v) AS mean, count(v) AS n INTO db.autogen.m_10m FROM m WHERE host =~ /./ GROUP BY time(10m), host END',
  );
  const b = sec(B);
  // [B-30m, B): 1 point in the oldest window (outside the first run's FOR range), 2+1 in the others.
  await writeLines(engine, [
    `m,host=a v=100 ${b - 1700}`,
    `m,host=a v=1 ${b - 1100}`,
    `m,host=a v=3 ${b - 700}`,
    `m,host=b v=10 ${b - 500}`,
    `m,host=a v=7 ${b - 100}`,
    `m,host=a v=1000 ${b + 60}`, // current window: not computed yet
  ]);
  let cq = make();
  await cq.tick();
  assert.deepEqual(runs.map((r) => [sec(r.startNs) - b, sec(r.endNs) - b, r.written]), [[-1200, 0, 3]]);
  const view = () => query(engine, 'SELECT mean, n FROM m_10m GROUP BY host');
  assert.deepEqual(await view(), [
    { name: 'm_10m', tags: { host: 'a' }, columns: ['time', 'mean', 'n'], values: [[b - 1200, 2, 2], [b - 600, 7, 1]] },
    // INTO under fill(null) writes no row for an empty window, count()'s 0 included (1.6.7).
    { name: 'm_10m', tags: { host: 'b' }, columns: ['time', 'mean', 'n'], values: [[b - 600, 10, 1]] },
  ]);
  // Same values a direct aggregate query gives over the window, without its empty windows.
  const direct = await query(engine, `SELECT mean(v) AS mean, count(v) AS n FROM m WHERE time >= ${b - 1200}s AND time < ${b}s GROUP BY time(10m), host fill(none)`);
  assert.deepEqual(direct.map((s) => s.values), (await view()).map((s) => s.values));

  // Not due again before B+10m; a late point in [B-20m, B-10m) arrives meanwhile.
  now = B + 5n * M;
  await cq.tick();
  assert.equal(runs.length, 1);
  await writeLines(engine, [`m,host=a v=5 ${b - 1000}`]);
  now = B + 10n * M + 5n * S;
  await cq.tick();
  assert.deepEqual(runs.slice(1).map((r) => [sec(r.startNs) - b, sec(r.endNs) - b, r.written]), [[-1200, 600, 4]]);
  assert.deepEqual((await view())[0]?.values, [[b - 1200, 3, 3], [b - 600, 7, 1], [b, 1000, 1]]);
  assert.deepEqual(cq.counters, { ticks: 3, runs: 2, pointsWritten: 7, errors: 0 });

  // Restart: the definition comes back from the catalog; the first tick runs it.
  await engine.close();
  engine = await openEngine(root);
  await writeLines(engine, [`m,host=b v=20 ${b + 120}`]);
  cq = make();
  now = B + 12n * M;
  await cq.tick();
  assert.deepEqual(runs.slice(2).map((r) => [sec(r.startNs) - b, sec(r.endNs) - b]), [[-600, 600]]);
  assert.deepEqual((await view())[1]?.values, [[b - 600, 10, 1], [b, 20, 1]]);

  // DROP takes effect at the next tick; a broken definition is counted, not thrown.
  await query(engine, 'DROP CONTINUOUS QUERY cq ON db');
  now += H;
  await cq.tick();
  assert.equal(runs.length, 3);
  await engine.close();
});

test('scheduler: a failing query is counted and does not stop the others; leader gate', async (t) => {
  const root = await tempDir(t, 'strata-svc-');
  const engine = await openEngine(root);
  await query(
    engine,
    // The policy goes after the CQ is created (creation checks it, as 1.x does), so the run fails.
    'CREATE DATABASE db; CREATE RETENTION POLICY gone ON db DURATION INF REPLICATION 1; ' +
      'CREATE CONTINUOUS QUERY bad ON db BEGIN SELECT mean(v) INTO db.gone.x FROM m GROUP BY time(1m) END; DROP RETENTION POLICY gone ON db; ' +
      'CREATE CONTINUOUS QUERY good ON db BEGIN SELECT max(v) INTO mx FROM m GROUP BY time(1m) END; ' +
      // Raw, no GROUP BY time: accepted like 1.x, never run, not an error.
      'CREATE CONTINUOUS QUERY raw ON db BEGIN SELECT v INTO copy FROM m END',
  );
  await writeLines(engine, [`m v=4 ${sec(T8) - 30}`]);
  let leader = false;
  const runs: CqRun[] = [];
  const cq = new ContinuousQueryScheduler(engine, { now: () => T8, isLeader: () => leader, onRun: (r) => runs.push(r) });
  await cq.tick();
  assert.equal(runs.length, 0);
  leader = true;
  await cq.tick();
  assert.deepEqual(runs.map((r) => [r.name, r.written, r.error !== undefined]), [['bad', 0, true], ['good', 1, false]]);
  assert.equal(cq.counters.errors, 1);
  assert.deepEqual((await query(engine, 'SELECT max FROM mx'))[0]?.values, [[sec(T8) - 60, 4]]);
  await engine.close();
});
