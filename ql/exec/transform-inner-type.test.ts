/**
 * Which type error a transform over an aggregate of a string or boolean field reports, through
 * a real engine (texts recorded from 1.6.7): the aggregate's own when it refuses the type (1.x
 * builds it first), else the transform's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engine } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { withDbEngine } from './test-support.js';

const withEvents = (fn: (engine: Engine) => Promise<void>): Promise<void> =>
  withDbEngine('strata-tinner-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from('e s="a",b=true 10\ne s="b",b=false 3700') });
    await fn(engine);
  });

/** The error of `fields` over a string field `s` and a boolean field `b`, per hour. */
async function errorOf(engine: Engine, fields: string): Promise<string | undefined> {
  const [r] = await executeStatements(parseQuery(`SELECT ${fields} FROM e WHERE time >= 0s AND time < 2h GROUP BY time(1h)`), { engine, database: 'db', retentionPolicy: '', nowNs: 0n });
  return r?.error;
}

describe('a transform over an aggregate of a string or boolean (1.6.7 texts)', () => {
  it('an aggregate that refuses the type reports its own error first', () =>
    withEvents(async (engine) => {
      assert.equal(await errorOf(engine, 'double_exponential_moving_average(max(s), 2)'), 'unsupported max iterator type: *query.stringInterruptIterator');
      assert.equal(await errorOf(engine, 'holt_winters(min(s), 2, 1)'), 'unsupported min iterator type: *query.stringInterruptIterator');
      assert.equal(await errorOf(engine, 'cumulative_sum(max(s))'), 'unsupported max iterator type: *query.stringInterruptIterator');
    }));

  it('an aggregate that keeps the type leaves the error to the transform', () =>
    withEvents(async (engine) => {
      assert.equal(await errorOf(engine, 'derivative(first(s))'), 'unsupported derivative iterator type: *query.stringInterruptIterator');
      assert.equal(await errorOf(engine, 'difference(max(b))'), 'unsupported difference iterator type: *query.booleanInterruptIterator');
      assert.equal(await errorOf(engine, 'holt_winters(last(b), 2, 1)'), 'unsupported elapsed iterator type: *query.booleanInterruptIterator');
    }));
});
