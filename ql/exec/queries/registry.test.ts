import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDurationString } from '../../ast/duration.js';
import { QueryKilledError, QueryRegistry, showQueriesDuration, TooManyQueriesError } from './registry.js';

describe('QueryRegistry', () => {
  it("counts 1.x's queryExecutor numbers: batches started, finished once each, and their summed time", () => {
    let now = 0;
    const r = new QueryRegistry(1, () => now);
    const a = r.attach('SELECT 1', 'db', new AbortController());
    assert.throws(() => r.attach('SELECT 2', 'db', new AbortController()), TooManyQueriesError);
    now = 2.5;
    r.detach(a);
    r.detach(a);
    const b = r.attach('SELECT 3', 'db', new AbortController());
    assert.deepEqual(r.counters, { queriesExecuted: 2, queriesFinished: 1, queryDurationNs: 2_500_000 });
    now = 3;
    r.detach(b);
    assert.deepEqual(r.counters, { queriesExecuted: 2, queriesFinished: 2, queryDurationNs: 3_000_000 });
  });

  it('attaches with increasing ids from 1, lists in id order, detaches', () => {
    let now = 10;
    const r = new QueryRegistry(0, () => now);
    const a = r.attach('SELECT 1', 'db', new AbortController());
    now = 20;
    const b = r.attach('SHOW QUERIES', '', new AbortController());
    assert.deepEqual([a, b], [1, 2]);
    assert.deepEqual(r.list(), [
      { id: 1, text: 'SELECT 1', database: 'db', startedMs: 10, status: 'running' },
      { id: 2, text: 'SHOW QUERIES', database: '', startedMs: 20, status: 'running' },
    ]);
    r.detach(a);
    assert.deepEqual(r.list().map((q) => q.id), [2]);
    assert.equal(r.attach('x', '', new AbortController()), 3);
  });

  it('a text given as a function is printed only when read, once, and survives a kill', () => {
    const r = new QueryRegistry();
    let calls = 0;
    r.attach(() => (calls++, 'SELECT * FROM cpu'), 'db', new AbortController());
    assert.equal(calls, 0);
    assert.equal(r.list()[0]?.text, 'SELECT * FROM cpu');
    assert.equal(r.list()[0]?.text, 'SELECT * FROM cpu');
    assert.equal(calls, 1);
    r.kill(1);
    assert.deepEqual([r.list()[0]?.text, r.list()[0]?.status, calls], ['SELECT * FROM cpu', 'killed', 1]);
  });

  it('kill aborts the controller with "query interrupted" and marks the query killed', () => {
    const r = new QueryRegistry();
    const c = new AbortController();
    const id = r.attach('SELECT 1', 'db', c);
    assert.equal(r.kill(id + 1), false);
    assert.equal(r.kill(id), true);
    assert.ok(c.signal.aborted);
    assert.ok(c.signal.reason instanceof QueryKilledError);
    assert.equal((c.signal.reason as Error).message, 'query interrupted');
    assert.equal(r.list()[0]?.status, 'killed');
  });

  it('max concurrent: the query over the limit fails with the 1.x text; 0 is unlimited', () => {
    const r = new QueryRegistry(2);
    r.attach('a', '', new AbortController());
    const b = r.attach('b', '', new AbortController());
    assert.throws(() => r.attach('c', '', new AbortController()), (err: unknown) => err instanceof TooManyQueriesError && err.message === 'max-concurrent-queries limit exceeded(2, 2)');
    r.detach(b);
    r.attach('c', '', new AbortController());
    const unlimited = new QueryRegistry(0);
    for (let i = 0; i < 100; i++) unlimited.attach('q', '', new AbortController());
    assert.equal(unlimited.size, 100);
  });

  it('durations are truncated to s, ms or µs like 1.x SHOW QUERIES', () => {
    assert.equal(goDurationString(showQueriesDuration(0.0123)), '12µs');
    assert.equal(goDurationString(showQueriesDuration(52.7)), '52ms');
    assert.equal(goDurationString(showQueriesDuration(1999)), '1s');
    assert.equal(goDurationString(showQueriesDuration(65_400)), '1m5s');
  });
});
