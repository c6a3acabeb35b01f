/** ReuseAdmittedMap: a value is kept from the second set of its key on; scans larger than half the budget keep nothing and evict nothing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReuseAdmittedMap } from './reuse-admitted-map.js';

const COST = 100;

test('the first set remembers the key only; a second set while remembered keeps the value', () => {
  const m = new ReuseAdmittedMap<string, number>(10 * COST);
  m.set('a', 1, COST);
  assert.equal(m.get('a'), undefined);
  assert.equal(m.size, 0);
  assert.equal(m.usedBytes, 0, 'a remembered key costs no budget');
  m.set('a', 2, COST);
  assert.equal(m.get('a'), 2);
  assert.equal(m.usedBytes, COST);
  m.set('a', 3, COST);
  assert.equal(m.get('a'), undefined, 'setting a kept key anew starts over: its old value is gone');
  m.set('a', 4, COST);
  assert.equal(m.get('a'), 4);
  m.delete('a');
  assert.equal(m.get('a'), undefined);
  m.set('a', 5, COST);
  assert.equal(m.get('a'), undefined, 'delete forgets the key too');
});

test('a cycle over more keys than half the budget keeps nothing and leaves the kept entries alone', () => {
  const m = new ReuseAdmittedMap<number, number>(10 * COST);
  m.set(-1, 0, COST);
  m.set(-1, 0, COST);
  for (let pass = 0; pass < 5; pass++) {
    for (let k = 0; k < 6; k++) m.set(k, pass, COST);
    assert.equal(m.get(-1), 0, 'the hot entry survives every pass');
  }
  assert.equal(m.size, 1, 'nothing of the scan is kept');
  assert.ok(m.ghostCount <= 5);
});

test('a cycle within half the budget is kept from its second pass on', () => {
  const m = new ReuseAdmittedMap<number, string>(10 * COST);
  for (let k = 0; k < 5; k++) m.set(k, `first ${k}`, COST);
  for (let k = 0; k < 5; k++) assert.equal(m.get(k), undefined);
  for (let k = 0; k < 5; k++) m.set(k, `second ${k}`, COST);
  for (let k = 0; k < 5; k++) assert.equal(m.get(k), `second ${k}`);
});

test('property: never over budget, ghosts bounded by half of it, get answers only the last value set', () => {
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let round = 0; round < 20; round++) {
    const budget = 200 + rand(2000);
    const m = new ReuseAdmittedMap<number, number>(budget);
    const last = new Map<number, number>();
    for (let op = 0; op < 2000; op++) {
      const k = rand(40);
      if (rand(10) === 0) {
        m.delete(k);
        last.delete(k);
      } else if (rand(2) === 0) {
        const v = op;
        m.set(k, v, 1 + rand(300));
        last.set(k, v);
      } else {
        const got = m.get(k);
        if (got !== undefined) assert.equal(got, last.get(k));
      }
      assert.ok(m.usedBytes <= budget);
      assert.ok(m.ghostCount <= Math.floor(budget / 2));
    }
  }
});
