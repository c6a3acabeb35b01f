import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../../parser/query.js';
import { executeStatements } from '../executor.js';
import { executeMetaStatement } from '../meta/index.js';
import { chunks, DirtyRanges } from './dirty-ranges.js';
import { ViewTargetWriteError } from './errors.js';
import { MaterializedViewMaintainer, type MvRun } from './mv-maintainer.js';
import { assertNotViewTarget, isViewTarget } from './mv-views.js';
import { openEngine, query, writeLines } from './test-support.js';
import { tempDir } from '../../../engine/testing/temp-dir.js';

test('dirty ranges merge overlapping and adjacent ranges and chunk by window count', () => {
  const d = new DirtyRanges();
  d.add(10n, 20n);
  d.add(40n, 50n);
  d.add(20n, 30n); // adjacent: merged
  d.add(0n, 5n);
  d.add(45n, 60n);
  assert.deepEqual(d.list(), [{ start: 0n, end: 5n }, { start: 10n, end: 30n }, { start: 40n, end: 60n }]);
  d.add(4n, 41n);
  assert.deepEqual(d.take(), [{ start: 0n, end: 60n }]);
  assert.equal(d.size, 0);
  assert.deepEqual(chunks({ start: 0n, end: 25n }, 10n), [{ start: 0n, end: 10n }, { start: 10n, end: 20n }, { start: 20n, end: 25n }]);
});

const S = 1_000_000_000n;
const T0 = 1_699_920_000; // a minute boundary, seconds
const VIEW = 'CREATE MATERIALIZED VIEW v ON db AS SELECT mean(v) AS mean, max(v) AS max, sum(v) AS sum INTO m_1m FROM m GROUP BY time(1m), host';
const viewRows = (e: Parameters<typeof query>[0]) => query(e, 'SELECT mean, max, sum FROM m_1m GROUP BY host');
const directRows = (e: Parameters<typeof query>[0], from: number, to: number) =>
  query(e, `SELECT mean(v) AS mean, max(v) AS max, sum(v) AS sum FROM m WHERE time >= ${from}s AND time < ${to}s GROUP BY time(1m), host fill(none)`);
const values = (rows: Awaited<ReturnType<typeof query>>) => rows.map((r) => [r.tags, r.values]);

test('a view follows writes incrementally with the values of a direct aggregate; restart keeps maintaining it', async (t) => {
  const root = await tempDir(t, 'strata-svc-');
  let engine = await openEngine(root);
  const now = () => BigInt(T0 + 600) * S;
  const runs: MvRun[] = [];
  await query(engine, `CREATE DATABASE db; ${VIEW}`);
  let mv = new MaterializedViewMaintainer(engine, { now, tickMs: 3_600_000, onRun: (r) => runs.push(r) });
  mv.start();
  await mv.runOnce(); // start-up catch-up over an empty source
  runs.length = 0;

  await writeLines(engine, [`m,host=a v=1 ${T0}`, `m,host=a v=3 ${T0 + 30}`, `m,host=b v=10 ${T0 + 70}`, `m,host=a v=5 ${T0 + 200}`]);
  assert.deepEqual(mv.dirtyRanges('db', 'v'), [{ start: BigInt(T0) * S, end: BigInt(T0 + 240) * S }]);
  await mv.runOnce();
  assert.deepEqual(runs.map((r) => [Number(r.startNs / S) - T0, Number(r.endNs / S) - T0, r.written]), [[0, 240, 3]]);
  assert.deepEqual(values(await viewRows(engine)), values(await directRows(engine, T0, T0 + 600)));
  assert.deepEqual((await viewRows(engine))[0]?.values, [[T0, 2, 3, 4], [T0 + 180, 5, 5, 5]]);

  // A late point into an existing window: only that window is recomputed.
  await writeLines(engine, [`m,host=a v=8 ${T0 + 45}`]);
  await mv.runOnce();
  assert.deepEqual(runs.slice(1).map((r) => [Number(r.startNs / S) - T0, Number(r.endNs / S) - T0]), [[0, 60]]);
  assert.deepEqual((await viewRows(engine))[0]?.values, [[T0, 4, 8, 12], [T0 + 180, 5, 5, 5]]);
  assert.deepEqual(values(await viewRows(engine)), values(await directRows(engine, T0, T0 + 600)));

  // Writes to other measurements leave the view alone; its target refuses direct writes.
  await writeLines(engine, [`other v=1 ${T0}`]);
  assert.deepEqual(mv.dirtyRanges('db', 'v'), []);
  assert.equal(isViewTarget(engine.catalog, 'db', undefined, 'm_1m'), true);
  assert.equal(isViewTarget(engine.catalog, 'db', 'autogen', 'm_1m'), true);
  assert.equal(isViewTarget(engine.catalog, 'db', undefined, 'm'), false);
  assert.throws(() => assertNotViewTarget(engine.catalog, 'db', '', 'm_1m'), (e: unknown) => e instanceof ViewTargetWriteError && e.status === 400);

  // A write just before shutdown is recomputed by stop(); the next process keeps maintaining.
  await writeLines(engine, [`m,host=b v=20 ${T0 + 75}`]);
  await mv.stop();
  await engine.close();
  engine = await openEngine(root);
  assert.deepEqual(engine.catalog.materializedViews().map((v) => v.name), ['v']);
  assert.deepEqual((await viewRows(engine))[1]?.values, [[T0 + 60, 15, 20, 30]]);
  mv = new MaterializedViewMaintainer(engine, { now, tickMs: 3_600_000 });
  mv.start();
  await writeLines(engine, [`m,host=b v=30 ${T0 + 400}`, `m,host=c v=1 ${T0 + 400}`]);
  await mv.runOnce();
  assert.deepEqual(values(await viewRows(engine)), values(await directRows(engine, T0, T0 + 600)));
  assert.equal((await viewRows(engine)).length, 3);

  // DROP: the view is forgotten; its target is writable again.
  await query(engine, 'DROP MATERIALIZED VIEW v ON db');
  await writeLines(engine, [`m,host=a v=1 ${T0 + 500}`]);
  await mv.runOnce();
  assert.equal(isViewTarget(engine.catalog, 'db', undefined, 'm_1m'), false);
  assert.equal(mv.counters.errors, 0);
  await mv.stop();
  await engine.close();
});

test('WITH BACKFILL computes the existing data; a failing view is retried later', async (t) => {
  const root = await tempDir(t, 'strata-svc-');
  const engine = await openEngine(root);
  let nowNs = BigInt(T0 + 3600) * S;
  await query(engine, 'CREATE DATABASE db');
  await writeLines(engine, [`m,host=a v=2 ${T0 - 86_400}`, `m,host=a v=4 ${T0 - 86_390}`, `m,host=b v=6 ${T0}`]);
  await engine.flush();
  const mv = new MaterializedViewMaintainer(engine, { now: () => nowNs, tickMs: 3_600_000, maxWindowsPerQuery: 100, retryAfterMs: 1000 });
  const meta = mv.metaExecutor(executeMetaStatement);
  const ctx = { engine, database: 'db', retentionPolicy: '', nowNs };
  const [created] = await executeStatements(parseQuery(`${VIEW} WITH BACKFILL`), ctx, meta);
  assert.equal(created?.error, undefined);
  await mv.runOnce(); // joins the background backfill
  while (mv.counters.backfills === 0) await new Promise((r) => setTimeout(r, 5));
  await mv.runOnce();
  assert.deepEqual(values(await viewRows(engine)), values(await directRows(engine, T0 - 2 * 86_400, T0 + 60)));
  assert.equal((await viewRows(engine)).length, 2);
  assert.ok(mv.counters.recomputes > 10); // the whole span of the source shards, 100 windows per statement

  // A view whose target policy is missing fails; its windows wait for the retry delay.
  await query(engine, 'CREATE MATERIALIZED VIEW bad ON db AS SELECT max(v) INTO db.nope.x FROM m GROUP BY time(1m)');
  mv.start();
  await writeLines(engine, [`m,host=a v=1 ${T0 + 10}`]);
  await mv.runOnce();
  const errors = mv.counters.errors;
  assert.ok(errors >= 1);
  assert.ok(mv.dirtyRanges('db', 'bad').length > 0);
  await mv.runOnce();
  assert.equal(mv.counters.errors, errors); // not retried before retryAfterMs
  nowNs += 2n * S;
  await mv.runOnce();
  assert.equal(mv.counters.errors, errors + 1);
  await query(engine, 'DROP MATERIALIZED VIEW bad ON db');
  await mv.stop();
  await engine.close();
});
