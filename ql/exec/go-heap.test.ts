import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../engine/random.js';
import { GoHeap } from './go-heap.js';

describe('GoHeap (Go container/heap)', () => {
  it('pops in order of the key', () => {
    const rnd = mulberry32(3);
    const xs = Array.from({ length: 500 }, () => Math.floor(rnd() * 50));
    const h = new GoHeap(xs.slice(0, 250), (a, b) => a < b);
    for (const x of xs.slice(250)) h.push(x);
    const out: number[] = [];
    for (let x = h.pop(); x !== undefined; x = h.pop()) out.push(x);
    assert.deepEqual(out, [...xs].sort((a, b) => a - b));
  });

  it('leaves equal keys where Go does: the first, then the last moved to the root, and so on', () => {
    const items = [0, 1, 2, 3].map((id) => ({ id, key: 7 }));
    const h = new GoHeap(items, (a, b) => a.key < b.key);
    assert.deepEqual([h.pop(), h.pop(), h.pop(), h.pop()].map((x) => x!.id), [0, 3, 2, 1]);
  });
});
