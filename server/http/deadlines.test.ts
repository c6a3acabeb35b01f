/** Deadlines fire once, not before their time and at most a tick after; removed ones never fire. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Deadlines } from './deadlines.js';

test('Deadlines: fire once after their time, removed ones never; the timer stops when idle', async () => {
  const d = new Deadlines(10);
  const fired: string[] = [];
  const t0 = performance.now();
  let firedAt = 0;
  d.add(40, () => {
    fired.push('a');
    firedAt = performance.now() - t0;
  });
  const b = d.add(40, () => fired.push('b'));
  d.add(1000, () => fired.push('late'));
  d.remove(b);
  await sleep(20);
  // On a busy machine the sleep itself can end past the deadline: only then may it have fired.
  if (performance.now() - t0 < 40) assert.equal(fired.length, 0);
  await sleep(80);
  assert.deepEqual(fired, ['a']);
  assert.ok(firedAt >= 40, `fired at ${firedAt} ms`);
  assert.equal(d.size, 1);
  d.remove(3);
  await sleep(40);
  assert.equal(d.size, 0);
  // Idle: a new deadline restarts the sweep.
  d.add(5, () => fired.push('c'));
  await sleep(60);
  assert.deepEqual(fired, ['a', 'c']);
});
