/** StatsBlock with a decoded-block cache: timestamps readers share one decode; values readers keep nothing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeBlock } from '../encoding/block.js';
import { CorruptionError } from '../errors.js';
import { FieldType } from '../point.js';
import { DecodedBlocks } from './decoded-blocks.js';
import { StatsBlock } from './stats-block.js';

const BASE = 1_000_000n;
const N = 50;
const offsets = Float64Array.from({ length: N }, (_, i) => i * 10);
const values = Float64Array.from({ length: N }, (_, i) => (i * 7) % 13);
const payload = encodeBlock(BASE, offsets, { type: FieldType.Float, values }, 0, N);
const stats = (count = N) => ({ count, firstOffset: 0, lastOffset: (N - 1) * 10 });
const block = (kept: DecodedBlocks | undefined, ascending = true, count = N) => new StatsBlock(BASE, payload, ascending, stats(count), 'test', kept);

test('a timestamps read decodes the whole block; the second decode of the payload is kept and later blocks over it share it', () => {
  const kept = new DecodedBlocks();
  const once = block(kept);
  assert.deepEqual([...once.offsets], [...offsets]);
  assert.equal(kept.size, 0, 'the first decode only remembers the payload');
  const first = block(kept);
  assert.notEqual(first.offsets, once.offsets, 'decoded again');
  assert.equal(kept.size, 1);
  const second = block(kept);
  assert.equal(second.offsets, first.offsets, 'the kept arrays, not a new decode');
  assert.equal(second.column.values, first.column.values);
  assert.deepEqual([...second.column.values], [...values]);
});

test('descending blocks get reversed copies; the kept arrays stay ascending', () => {
  const kept = new DecodedBlocks();
  assert.deepEqual([...block(kept, false).offsets], [...offsets].reverse());
  const desc = block(kept, false);
  assert.deepEqual([...desc.column.values], [...values].reverse());
  assert.deepEqual([...desc.offsets], [...offsets].reverse());
  const asc = block(kept);
  assert.deepEqual([...asc.offsets], [...offsets]);
  assert.deepEqual([...asc.column.values], [...values]);
});

test('a values-only read decodes the values and keeps nothing; without a cache nothing is shared', () => {
  const kept = new DecodedBlocks();
  assert.deepEqual([...block(kept).column.values], [...values]);
  assert.equal(kept.size, 0);
  const a = block(undefined);
  const b = block(undefined);
  assert.notEqual(a.offsets, b.offsets);
  assert.deepEqual([...a.offsets], [...b.offsets]);
});

test('an index entry whose count disagrees with the block is corruption, kept or not', () => {
  assert.throws(() => block(new DecodedBlocks(), true, N + 1).offsets, CorruptionError);
  assert.throws(() => block(undefined, true, N + 1).offsets, CorruptionError);
});

test('head(): element 0 is the batch first row, ascending and descending, integer and float blocks; nothing is kept', () => {
  const walk = Float64Array.from({ length: N }, (_, i) => 100 + ((i * 5) % 7) - 3 + i);
  const intPayload = encodeBlock(BASE, offsets, { type: FieldType.Integer, values: walk }, 0, N);
  for (const [bytes, vals] of [
    [payload, values],
    [intPayload, walk],
  ] as const) {
    for (const ascending of [true, false]) {
      const kept = new DecodedBlocks();
      const b = new StatsBlock(BASE, bytes, ascending, stats(), 'test', kept);
      assert.equal(b.head().values[0], ascending ? vals[0] : vals[N - 1]);
      assert.equal(kept.size, 0);
      assert.equal(b.column.values[0], b.head().values[0], 'the same row once the column is decoded');
    }
  }
  assert.throws(() => new StatsBlock(BASE, payload, false, stats(N + 1), 'test').head(), CorruptionError);
});

test('a descending head() keeps the last value with the decoded blocks: later blocks over the payload share it, whole blocks are not kept', () => {
  const kept = new DecodedBlocks();
  const first = new StatsBlock(BASE, payload, false, stats(), 'test', kept).head();
  assert.equal(first.values[0], values[N - 1]);
  assert.equal(new StatsBlock(BASE, payload, false, stats(), 'test', kept).head(), first, 'the kept column, not a new decode');
  assert.equal(kept.size, 0);
  assert.notEqual(new StatsBlock(BASE, payload, false, stats(), 'test', undefined).head(), first, 'without a cache nothing is shared');
});
