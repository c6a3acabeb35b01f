/** QueryStop: first reason wins, listeners run once (also when added after the stop). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryStop } from './stop.js';

test('QueryStop: aborted and reason as AbortController; listeners called once with the first reason', () => {
  const stop = new QueryStop();
  const seen: unknown[] = [];
  stop.onStop((r) => seen.push(['early', r]));
  assert.equal(stop.aborted, false);
  assert.equal(stop.reason, undefined);
  const first = new Error('timeout');
  stop.abort(first);
  stop.abort(new Error('killed'));
  assert.equal(stop.aborted, true);
  assert.equal(stop.reason, first);
  stop.onStop((r) => seen.push(['late', r]));
  assert.deepEqual(seen, [
    ['early', first],
    ['late', first],
  ]);
});
