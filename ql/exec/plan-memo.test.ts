/**
 * The compiled-plan memo: a repeated statement reuses its plan while the schema stays, and
 * answers with the new schema as soon as a field, a field type, a tag key, a measurement or a
 * shard appears (the statement AST is the same object throughout, as the parse cache gives it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SelectStatement } from '../ast/nodes.js';
import { parseQuery } from '../index.js';
import type { QueryContext } from './context.js';
import { at, T, withDbEngine } from './test-support.js';
import { executeStatements } from './executor.js';
import { compiledSelect } from './plan-memo.js';

test('plan memo: the same plan while nothing changes; plain writes to known series change nothing', async () => {
  await withDbEngine('strata-memo-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(`m,host=a v=1 ${T}`) });
    const stmt = parseQuery(`SELECT max(v) FROM m WHERE time >= ${at(T)} AND time < ${at(T + 3600)} GROUP BY time(1m)`)[0] as SelectStatement;
    const ctx: QueryContext = { engine, database: 'db', retentionPolicy: '', nowNs: 1n };
    let resolved = 0;
    const resolve = async () => {
      resolved++;
      return [];
    };
    const first = await compiledSelect(stmt, ctx, false, resolve);
    const version = engine.schemaVersion;
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(`m,host=a v=2 ${T + 60}`) });
    assert.equal(engine.schemaVersion, version, 'a point of a known series and field is no schema change');
    const second = await compiledSelect(stmt, { ...ctx, nowNs: 2n }, false, resolve);
    assert.equal(second.plan, first.plan);
    assert.equal(resolved, 1);
    // Other defaults, a nested run, or a statement reading now(): compiled again.
    await compiledSelect(stmt, { ...ctx, retentionPolicy: 'autogen' }, false, resolve);
    await compiledSelect(stmt, ctx, true, resolve);
    const open = parseQuery(`SELECT max(v) FROM m WHERE time >= ${at(T)} GROUP BY time(1m)`)[0] as SelectStatement;
    await compiledSelect(open, ctx, false, resolve);
    await compiledSelect(open, ctx, false, resolve);
    assert.equal(resolved, 5);
  });
});

test('plan memo: a new field, tag key, measurement or shard shows in the next answer of the same statement', async () => {
  await withDbEngine('strata-memo-', async (engine) => {
    const run = async (stmt: ReturnType<typeof parseQuery>) => {
      const [r] = await executeStatements(stmt, { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
      return JSON.parse(JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as { series?: { name: string; columns: string[]; values: unknown[][] }[] };
    };
    const write = (lines: string) => engine.write({ db: 'db', precision: 's', body: Buffer.from(lines) });
    await write(`m,host=a v=1 ${T}`);
    const raw = parseQuery(`SELECT * FROM m WHERE time >= ${at(T)} AND time < ${at(T + 3600)}`);
    assert.deepEqual((await run(raw)).series?.[0]?.columns, ['time', 'host', 'v']);
    assert.deepEqual((await run(raw)).series?.[0]?.columns, ['time', 'host', 'v']);

    await write(`m,host=a w=2.5 ${T + 1}`); // a new field
    assert.deepEqual((await run(raw)).series?.[0]?.columns, ['time', 'host', 'v', 'w']);
    await write(`m,host=a,dc=x v=3 ${T + 2}`); // a new tag key
    assert.deepEqual((await run(raw)).series?.[0]?.columns, ['time', 'dc', 'host', 'v', 'w']);

    // A field that has no type yet: null windows, then its values once written.
    const agg = parseQuery(`SELECT max(u) FROM m WHERE time >= ${at(T)} AND time < ${at(T + 180)} GROUP BY time(1m)`);
    assert.equal((await run(agg)).series?.length ?? 0, 0);
    await write(`m,host=a u=7i ${T + 61}`);
    assert.deepEqual((await run(agg)).series?.[0]?.values.map((r) => r[1]), [null, 7, null]);

    // A measurement matched by a regex source.
    const regex = parseQuery(`SELECT count(v) FROM /^m/ WHERE time >= ${at(T)} AND time < ${at(T + 3600)}`);
    assert.deepEqual((await run(regex)).series?.map((s) => s.name), ['m']);
    await write(`m2 v=1 ${T}`);
    assert.deepEqual((await run(regex)).series?.map((s) => s.name), ['m', 'm2']);

    // A range no shard covers answers nothing until a write creates one there.
    const later = T + 30 * 86_400;
    const far = parseQuery(`SELECT v FROM m WHERE time >= ${at(later)} AND time < ${at(later + 60)}`);
    assert.equal((await run(far)).series?.length ?? 0, 0);
    await write(`m,host=a v=9 ${later}`);
    assert.deepEqual((await run(far)).series?.[0]?.values, [[later * 1e9, 9]]);
  });
});
