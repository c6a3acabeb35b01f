/** The decoded-block cache: found only for the same payload object and base, and never over its byte budget. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType } from '../point.js';
import { DECODED_BLOCK_OVERHEAD, DecodedBlocks } from './decoded-blocks.js';

const block = (n: number) => ({ offsets: new Float64Array(n), column: { type: FieldType.Float, values: new Float64Array(n) } as const });

test('an entry is found for its own payload object and base only', () => {
  const cache = new DecodedBlocks(1 << 20);
  const payload = new Uint8Array([1, 2, 3]);
  const b = block(10);
  cache.set(payload, 5n, b);
  assert.equal(cache.get(payload, 5n), undefined, 'a first decode is not kept (reuse-admitted-map.ts)');
  cache.set(payload, 5n, b);
  assert.equal(cache.get(payload, 5n), b);
  assert.equal(cache.get(payload, 6n), undefined, 'another shard base');
  assert.equal(cache.get(new Uint8Array([1, 2, 3]), 5n), undefined, 'equal bytes of another block (a replaced file) are another key');
  const strings = { offsets: new Float64Array(1), column: { type: FieldType.String, values: ['x'] } } as const;
  cache.set(payload, 5n, strings);
  cache.set(payload, 5n, strings);
  assert.equal(cache.get(payload, 5n), undefined, 'string blocks are not kept; the older form is gone');
});

test('the cache stays within its budget, counting arrays, payload and overhead, and keeps recently used entries longer', () => {
  const cost = 100 * 8 * 2 + 50 + DECODED_BLOCK_OVERHEAD;
  const cache = new DecodedBlocks(cost * 4);
  const payloads = Array.from({ length: 20 }, () => new Uint8Array(50));
  const hot = payloads[0]!;
  for (const p of payloads) {
    cache.set(p, 0n, block(100));
    cache.set(p, 0n, block(100));
    cache.get(hot, 0n);
    assert.ok(cache.usedBytes <= cache.maxBytes);
    assert.ok(cache.size <= 4);
  }
  assert.equal(cache.usedBytes, cost * 4);
  assert.ok(cache.get(hot, 0n), 'an entry used between inserts survives');
  assert.equal(cache.get(payloads[1]!, 0n), undefined);
  cache.set(new Uint8Array(10), 0n, block(cache.maxBytes));
  assert.ok(cache.usedBytes <= cache.maxBytes, 'a block larger than the budget is not kept');
});

test('last values: found for their own payload object only, within their own budget, apart from whole blocks', () => {
  const budget = 4 * (50 + DECODED_BLOCK_OVERHEAD);
  const cache = new DecodedBlocks(1 << 20, budget);
  const payloads = Array.from({ length: 20 }, () => new Uint8Array(50));
  const last = { type: FieldType.Integer, values: Float64Array.of(7) } as const;
  for (const p of payloads) cache.setLastValue(p, last);
  assert.equal(cache.lastValue(payloads[19]!), last);
  assert.equal(cache.lastValue(payloads[0]!), undefined, 'evicted: at most four fit');
  assert.equal(cache.lastValue(new Uint8Array(50)), undefined);
  assert.equal(cache.size, 0, 'whole blocks untouched');
  assert.equal(cache.get(payloads[19]!, 0n), undefined, 'a last value is never handed out as a whole block');
  cache.setLastValue(payloads[1]!, { type: FieldType.String, values: ['x'] });
  assert.equal(cache.lastValue(payloads[1]!), undefined, 'strings are not kept');
});
