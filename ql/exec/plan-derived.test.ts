/**
 * Plan-derived values: computed once per plan object and equal to computing them afresh; a
 * schema change gives the repeated statement a new plan, and its answers stay those of the
 * same text parsed anew (which shares no memo with it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SelectStatement } from '../ast/nodes.js';
import { parseQuery } from '../index.js';
import { splitCondition } from '../plan/condition.js';
import { collectAggregates } from './agg-calls.js';
import type { QueryContext } from './context.js';
import { at, T, withDbEngine } from './test-support.js';
import { denseLayout } from './dense-windows.js';
import { executeStatements } from './executor.js';
import { compiledSelect } from './plan-memo.js';
import { aggregatesOf, conditionOf, denseLayoutOf } from './plan-derived.js';

const text = (dc: string) => `SELECT max(v), count(v) FROM m WHERE dc = '${dc}' AND time >= ${at(T)} AND time < ${at(T + 600)} GROUP BY time(1m)`;

test('plan-derived values are computed once per plan and equal a fresh computation', async () => {
  await withDbEngine('strata-derived-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(`m,host=a,dc=x v=1 ${T}`) });
    const stmt = parseQuery(text('x'))[0] as SelectStatement;
    const ctx: QueryContext = { engine, database: 'db', retentionPolicy: '', nowNs: 1n };
    const { plan } = await compiledSelect(stmt, ctx, false, async () => []);
    assert.equal(conditionOf(plan), conditionOf(plan));
    assert.equal(aggregatesOf(plan), aggregatesOf(plan));
    assert.equal(denseLayoutOf(plan), denseLayoutOf(plan));
    const fresh = collectAggregates(plan.projection.columns, plan.window?.interval);
    assert.deepEqual(conditionOf(plan), splitCondition(plan.time.rest, plan.schema));
    assert.deepEqual(aggregatesOf(plan), fresh);
    assert.deepEqual(denseLayoutOf(plan), denseLayout(plan, fresh.calls, fresh.transforms, false));
    assert.notEqual(denseLayoutOf(plan), undefined, 'max and count over GROUP BY time take the dense path');
    // Another plan object (what the memo makes after a schema change) gets its own values.
    const other = { ...plan };
    assert.notEqual(conditionOf(other), conditionOf(plan));
    assert.deepEqual(conditionOf(other), conditionOf(plan));
  });
});

test('a repeated statement answers as the same text parsed anew, before and after the schema changes', async () => {
  await withDbEngine('strata-derived-', async (engine) => {
    const write = (lines: string) => engine.write({ db: 'db', precision: 's', body: Buffer.from(lines) });
    const run = async (stmts: ReturnType<typeof parseQuery>) => {
      const [r] = await executeStatements(stmts, { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
      return JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    };
    const repeated = parseQuery(text('x'));
    const plans: unknown[] = [];
    const check = async (expectSeries: boolean) => {
      const answer = await run(repeated);
      assert.equal(answer, await run(parseQuery(text('x'))));
      assert.equal(answer.includes('"values"'), expectSeries, answer);
      plans.push((await compiledSelect(repeated[0] as SelectStatement, { engine, database: 'db', retentionPolicy: '', nowNs: 0n }, false, async () => [])).plan);
    };
    await write(`m,host=a v=1 ${T}\nm,host=a v=5 ${T + 60}`);
    await check(false); // dc is no tag key yet: a row filter over a field that does not exist
    await check(false);
    await write(`m,host=b,dc=x v=9 ${T + 30}\nm,host=c,dc=y v=4 ${T + 90}`); // dc becomes a tag key: a series selection
    await check(true);
    await write(`m,host=d,dc=x v=2 ${T + 120}`); // a new series of a known tag key
    await check(true);
    await write(`m,host=b,dc=x w=1 ${T + 150}`); // a new field
    await check(true);
    assert.equal(plans[0], plans[1], 'nothing changed: the same plan');
    assert.notEqual(plans[1], plans[2], 'a new tag key: a new plan');
  });
});
