/**
 * The shape plan memo: statements the parse cache rebinds from one shape (a new time window,
 * host or GROUP BY interval per text) answer exactly as a fresh parse and compile of the same
 * text, across time ranges with and without shards, and across catalog changes between them
 * (new fields, tag keys and measurements, DROP MEASUREMENT, retention policy changes). Every
 * text below is new when it is run, so the exact plan memo never answers it: the shape memo
 * (or the fresh compile it falls back to) does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Statement } from '../ast/statements.js';
import { ParseCache } from '../parser/parse-cache.js';
import { parseQuery } from '../parser/query.js';
import type { Engine } from '../../engine/index.js';
import { executeStatements } from './executor.js';
import { executeMetaStatement } from './meta/index.js';
import { shapePlanHits } from './shape-plan-memo.js';
import { compiledSelect } from './plan-memo.js';
import type { QueryContext } from './context.js';
import type { SelectStatement } from '../ast/nodes.js';
import { at, T, withDbEngine } from './test-support.js';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)));

async function answer(engine: Engine, statements: readonly Statement[]): Promise<unknown> {
  return plain(await executeStatements(statements, { engine, database: 'db', retentionPolicy: '', nowNs: 0n }, executeMetaStatement));
}

/** Runs texts through one parse cache (statements of a shape share their field list) and checks each against a fresh parse. */
function checker(engine: Engine) {
  const cache = new ParseCache(100);
  return async (text: string): Promise<unknown> => {
    const got = await answer(engine, cache.parse(text));
    assert.deepEqual(got, await answer(engine, parseQuery(text)), text);
    return got;
  };
}

const agg = (host: string, from: number, to: number, every = '1m') =>
  `SELECT max(v) FROM m WHERE host = '${host}' AND time >= ${at(from)} AND time < ${at(to)} GROUP BY time(${every})`;

type Answer = [{ series?: { name: string; columns: string[]; values: unknown[][] }[]; error?: string }];

test('shape plan memo: new windows, hosts and intervals answer as a fresh compile', async () => {
  await withDbEngine('strata-shape-plan-', async (engine) => {
    const lines: string[] = [];
    for (let i = 0; i < 180; i++) lines.push(`m,host=a v=${i} ${T + i * 60}`, `m,host=b v=${1000 - i} ${T + i * 60}`);
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(lines.join('\n')) });
    const check = checker(engine);
    const far = T + 40 * 86_400;
    // The first of the shape compiles over a range without shards (no sources): later texts
    // with data must not reuse its empty sources.
    assert.deepEqual(((await check(agg('a', far, far + 600))) as Answer)[0].series, []);
    const before = shapePlanHits();
    const first = (await check(agg('a', T, T + 600))) as Answer;
    assert.deepEqual(first[0].series?.[0]?.values.map((r) => r[1]), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const moved = (await check(agg('a', T + 3600, T + 3900))) as Answer;
    assert.deepEqual(moved[0].series?.[0]?.values.map((r) => r[1]), [60, 61, 62, 63, 64]);
    const other = (await check(agg('b', T + 120, T + 300))) as Answer;
    assert.deepEqual(other[0].series?.[0]?.values.map((r) => r[1]), [998, 997, 996]);
    // Another GROUP BY interval: the same field list, other dimensions.
    const wider = (await check(agg('a', T, T + 600, '5m'))) as Answer;
    assert.deepEqual(wider[0].series?.[0]?.values.map((r) => r[1]), [1, 6, 9]);
    const widerLater = (await check(agg('b', T + 600, T + 1200, '5m'))) as Answer;
    assert.deepEqual(widerLater[0].series?.[0]?.values.map((r) => r[1]), [990, 988, 983]);
    // Back to a range without shards, then one with them.
    assert.deepEqual(((await check(agg('b', far + 60, far + 600))) as Answer)[0].series, []);
    assert.equal(((await check(agg('b', T, T + 120))) as Answer)[0].series?.[0]?.values.length, 2);
    // A condition that does not compile: the fresh compile's error.
    const bad = (await check(agg('a', T, T + 60).replace(at(T), "'yesterday'"))) as Answer;
    assert.match(bad[0].error ?? '', /./);
    assert.ok(shapePlanHits() - before >= 2, 'the shape memo answered some texts');
  });
});

test('shape plan memo: a rebound statement that repeats keeps its plan (exact memo), with its own time range', async () => {
  await withDbEngine('strata-shape-plan-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(`m,host=a v=1 ${T}`) });
    const cache = new ParseCache(100);
    const ctx: QueryContext = { engine, database: 'db', retentionPolicy: '', nowNs: 0n };
    const compiled = async (text: string) => {
      const stmt = cache.parse(text)[0] as SelectStatement;
      return compiledSelect(stmt, ctx, false, async () => {
        throw new Error('compiled afresh');
      });
    };
    // The first text of the shape compiles (through executeStatements, which resolves sources).
    await answer(engine, cache.parse(agg('a', T, T + 600)));
    const before = shapePlanHits();
    const rebound = await compiled(agg('b', T + 60, T + 900));
    assert.equal(shapePlanHits(), before + 1);
    assert.equal(rebound.plan.time.min, BigInt(T + 60) * 1_000_000_000n);
    assert.equal(rebound.plan.time.max, BigInt(T + 900) * 1_000_000_000n - 1n);
    const again = await compiled(agg('b', T + 60, T + 900));
    assert.equal(again.plan, rebound.plan, 'a repeat of a rebound text gets the same plan');
    assert.equal(shapePlanHits(), before + 1);
  });
});

test('shape plan memo: catalog changes between texts of one shape show in the next answer', async () => {
  await withDbEngine('strata-shape-plan-', async (engine) => {
    const write = (body: string) => engine.write({ db: 'db', precision: 's', body: Buffer.from(body) });
    const check = checker(engine);
    const ddl = (text: string) => answer(engine, parseQuery(text));
    let n = 0;
    // A new window per text: never the exact memo's.
    const window = () => `time >= ${at(T)} AND time < ${at(T + 3600 + ++n)}`;
    // Two new texts of the shape: the first after a change compiles, the second is rebound from it.
    const columns = async (text: () => string) => {
      const names = async () => ((await check(text())) as Answer)[0].series?.map((s) => [s.name, ...s.columns].join(' '));
      const first = await names();
      assert.deepEqual(await names(), first);
      return first;
    };
    await write(`m,host=a v=1 ${T}`);
    const raw = () => `SELECT * FROM m WHERE ${window()}`;
    const before = shapePlanHits();
    assert.deepEqual(await columns(raw), ['m time host v']);
    assert.equal(shapePlanHits(), before + 1);
    await write(`m,host=a w=2.5 ${T + 1}`); // a new field
    assert.deepEqual(await columns(raw), ['m time host v w']);
    await write(`m,host=a,dc=x v=3 ${T + 2}`); // a new tag key
    assert.deepEqual(await columns(raw), ['m time dc host v w']);

    // Measurements a regex source matches: a new one, a type conflict, then DROP MEASUREMENT.
    const regex = () => `SELECT max(v) FROM /^m/ WHERE ${window()}`;
    assert.deepEqual(await columns(regex), ['m time max']);
    await write(`m2 v=7i ${T + 3}`);
    assert.deepEqual(await columns(regex), ['m time max', 'm2 time max']);
    await write(`m3 v="text" ${T + 4}`);
    assert.deepEqual(await columns(regex), ['m time max', 'm2 time max']);
    await ddl('DROP MEASUREMENT m2');
    assert.deepEqual(await columns(regex), ['m time max']);

    // Retention policies: another default holds none of the data; back to autogen; dropped.
    await ddl('CREATE RETENTION POLICY other ON db DURATION 0s REPLICATION 1 DEFAULT');
    assert.deepEqual(await columns(raw), []);
    await ddl('ALTER RETENTION POLICY autogen ON db DEFAULT');
    assert.deepEqual(await columns(raw), ['m time dc host v w']);
    const inOther = () => `SELECT * FROM db."other".m WHERE ${window()}`;
    assert.deepEqual(await columns(inOther), []);
    await ddl('DROP RETENTION POLICY other ON db');
    assert.match(((await check(inOther())) as Answer)[0].error ?? '', /retention policy not found/);
    assert.ok(shapePlanHits() - before >= 10, 'the shape memo answered some texts');
  });
});

test('shape plan memo: zone-less time strings of a rebound statement are read in its tz()', async () => {
  await withDbEngine('strata-shape-plan-tz-', async (engine) => {
    const lines: string[] = [];
    for (let i = 0; i < 180; i++) lines.push(`m,host=a v=${i} ${T + i * 60}`);
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(lines.join('\n')) });
    const check = checker(engine);
    // Wall-clock times in New York (UTC-5 in November): T is 2023-11-14T22:13:00Z = 17:13 there.
    const wall = (sec: number) => `'${new Date((sec - 5 * 3600) * 1000).toISOString().replace('T', ' ').replace(/\.000Z$/, '')}'`;
    const text = (from: number, to: number) => `SELECT max(v) FROM m WHERE time >= ${wall(from)} AND time < ${wall(to)} GROUP BY time(1m) tz('America/New_York')`;
    const before = shapePlanHits();
    const first = (await check(text(T + 60, T + 300))) as Answer;
    assert.deepEqual(first[0].series?.[0]?.values.map((r) => r[1]), [1, 2, 3, 4]);
    const moved = (await check(text(T + 3600, T + 3780))) as Answer;
    assert.deepEqual(moved[0].series?.[0]?.values.map((r) => r[1]), [60, 61, 62]);
    assert.ok(shapePlanHits() > before, 'the second text was rebound from the first');
  });
});
