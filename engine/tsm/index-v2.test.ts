/**
 * Round trip of the version-2 index codec (IndexBuilder → BlockIndex.parse): keys with long
 * shared prefixes, times anywhere in int64 (regular multiples of 10^k, so the per-key time
 * scale varies, or arbitrary), block sizes and counts, and stats of every shape, including
 * extreme float and integer values. Every field read back must equal what was written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { FieldType } from '../point.js';
import { BlockIndex } from './block-index.js';
import type { BlockStats } from './block-stats.js';
import { statsShape } from './block-stats.js';
import { BLOCK_CHECKSUM_SIZE, HEADER_SIZE, VERSION } from './format.js';
import { IndexBuilder } from './index-builder.js';
import { compareKeys } from './test-support.js';

const TYPES = [FieldType.Float, FieldType.Integer, FieldType.Boolean, FieldType.String, FieldType.Unsigned] as const;
const INT64_MAX = 2n ** 63n - 1n;

const statsFor = (type: FieldType, count: number) => {
  const shape = statsShape(type);
  if (shape === 'none') return fc.constant(undefined);
  const pos = fc.integer({ min: 0, max: count - 1 });
  const value =
    type === FieldType.Float
      ? fc.double({ noNaN: true, noDefaultInfinity: true })
      : fc.integer({ min: type === FieldType.Unsigned ? 0 : -(2 ** 51), max: 2 ** 51 });
  return fc.option(
    fc.record({ a: value, b: value, minIndex: pos, maxIndex: pos, sum: fc.integer({ min: type === FieldType.Unsigned ? 0 : -(2 ** 52), max: 2 ** 52 }) }).map(
      ({ a, b, minIndex, maxIndex, sum }): BlockStats => {
        const min = Math.min(a, b);
        const max = Math.max(a, b);
        return shape === 'minmax' ? { min, max, minIndex, maxIndex } : { min, max, minIndex, maxIndex, sum };
      },
    ),
    { nil: undefined },
  );
};

const keySpec = fc.record({
  key: fc.oneof(
    fc.string({ unit: fc.constantFrom('cpu,host=', 'a', 'b', '#!~#', 'usage_', 'é', '\u{1f600}'), minLength: 1, maxLength: 8 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  ),
  type: fc.constantFrom(...TYPES),
  start: fc.bigInt(-(2n ** 62n), 2n ** 62n),
  scale: fc.integer({ min: 0, max: 12 }),
  blocks: fc.array(
    fc.record({ gap: fc.bigInt(1n, 2n ** 40n), span: fc.bigInt(0n, 2n ** 40n), size: fc.integer({ min: 1, max: 70_000 }), count: fc.integer({ min: 1, max: 1000 }), seed: fc.nat() }),
    { minLength: 1, maxLength: 5 },
  ),
});

test('index v2 round trip: keys, times, offsets, sizes, counts and stats (fast-check)', () => {
  fc.assert(
    fc.property(fc.uniqueArray(keySpec, { minLength: 1, maxLength: 12, selector: (k) => k.key }), fc.context(), (specs, ctx) => {
      specs.sort((a, b) => compareKeys(a.key, b.key));
      const b = new IndexBuilder();
      const expected: { key: string; type: FieldType; entries: object[] }[] = [];
      let offset = HEADER_SIZE;
      for (const k of specs) {
        const unit = 10n ** BigInt(k.scale);
        let t = (k.start / unit) * unit;
        const entries: object[] = [];
        for (const blk of k.blocks) {
          const minTime = t;
          const maxTime = minTime + blk.span * unit;
          if (maxTime > INT64_MAX - 2n ** 42n * unit) break;
          const stats = fc.sample(statsFor(k.type, blk.count), { numRuns: 1, seed: blk.seed })[0];
          b.add(k.key, { type: k.type, minTime, maxTime, offset, size: blk.size, count: blk.count, stats });
          entries.push(stats ? { minTime, maxTime, offset, size: blk.size, count: blk.count, stats } : { minTime, maxTime, offset, size: blk.size, count: blk.count });
          offset += BLOCK_CHECKSUM_SIZE + blk.size;
          t = maxTime + blk.gap * unit;
        }
        if (entries.length > 0) expected.push({ key: k.key, type: k.type, entries });
      }
      fc.pre(expected.length > 0);
      const bytes = Buffer.from(b.bytes());
      ctx.log(`index of ${bytes.length} bytes`);
      const blockCount = expected.reduce((n, k) => n + k.entries.length, 0);
      const index = BlockIndex.parse(bytes, { file: 'f.tsm', indexOffset: offset, keyCount: expected.length, blockCount }, VERSION);
      assert.deepEqual([...index.keys()], expected.map((k) => k.key));
      expected.forEach((k, i) => {
        assert.equal(index.typeAt(i), k.type);
        assert.deepEqual(index.entriesAt(i), k.entries);
      });
    }),
    { numRuns: 300 },
  );
});
