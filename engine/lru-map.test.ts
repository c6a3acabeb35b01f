import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruMap } from './lru-map.js';

test('LruMap drops the least recently used entry; a hit or a set makes an entry the newest', () => {
  const m = new LruMap<string, number>(2);
  m.set('a', 1);
  m.set('b', 2);
  assert.equal(m.get('a'), 1); // b is now the oldest
  m.set('c', 3);
  assert.equal(m.get('b'), undefined);
  assert.deepEqual([m.get('a'), m.get('c'), m.size], [1, 3, 2]);
  m.set('a', 4); // c is now the oldest
  m.set('d', 5);
  assert.deepEqual([m.get('c'), m.get('a'), m.get('d'), m.size], [undefined, 4, 5, 2]);
});
