/**
 * BlockIndex.parse is the last line of defence behind the index checksum (a writer bug or a
 * foreign file with a valid checksum): each row breaks one structural rule of format.ts and
 * expects a CorruptionError naming the file offset of the broken field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { CorruptionError } from '../errors.js';
import { FieldType } from '../point.js';
import { BlockIndex } from './block-index.js';
import type { IndexLayout } from './block-index.js';
import { ENTRY_MAX_TIME_OFFSET, ENTRY_MIN_TIME_OFFSET, ENTRY_OFFSET_OFFSET, ENTRY_SIZE, ENTRY_SIZE_OFFSET, HEADER_SIZE } from './format.js';
import { IndexBuilder } from './index-builder.js';

const INDEX_OFFSET = 1000;
// Record of key 'a' at 0: keyLen 0..2, key 2, type 3, entryCount 4..8, entries 8..72.
// Record of key 'b' at 72: keyLen 72..74, key 74, type 75, entryCount 76..80, entries 80..144.
const A_TYPE = 3;
const A_COUNT = 4;
const A_E0 = 8;
const A_E1 = A_E0 + ENTRY_SIZE;
const B_KEY = 74;

function sample(): { bytes: Buffer; layout: IndexLayout } {
  const b = new IndexBuilder();
  let offset = HEADER_SIZE;
  for (const key of ['a', 'b']) {
    for (const t of [0n, 100n]) {
      b.add(key, { type: FieldType.Float, minTime: t, maxTime: t + 10n, offset, size: 100, count: 10 });
      offset += 104;
    }
  }
  return { bytes: Buffer.from(b.bytes()), layout: { file: 'f.tsm', indexOffset: INDEX_OFFSET, keyCount: 2, blockCount: 4 } };
}

type Edit = (bytes: Buffer, layout: IndexLayout) => { bytes: Buffer; layout: IndexLayout };
const poke = (fn: (v: DataView) => void): Edit => (bytes, layout) => {
  fn(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { bytes, layout };
};

const ROWS: { name: string; edit: Edit; at: number; reason: RegExp }[] = [
  { name: 'zero keys', edit: (bytes, l) => ({ bytes: bytes.subarray(0, 0), layout: { ...l, keyCount: 0 } }), at: 0, reason: /no keys/ },
  { name: 'more keys than records', edit: (bytes, l) => ({ bytes, layout: { ...l, keyCount: 3 } }), at: 144, reason: /past the index end/ },
  { name: 'fewer keys than records', edit: (bytes, l) => ({ bytes, layout: { ...l, keyCount: 1 } }), at: 72, reason: /after the last key/ },
  { name: 'block count disagrees', edit: (bytes, l) => ({ bytes, layout: { ...l, blockCount: 5 } }), at: 0, reason: /footer says 5/ },
  { name: 'keys out of order', edit: poke((v) => v.setUint8(B_KEY, 'a'.charCodeAt(0))), at: 72, reason: /ascending byte order/ },
  { name: 'empty key', edit: poke((v) => v.setUint16(0, 0)), at: 0, reason: /empty key/ },
  { name: 'unknown type', edit: poke((v) => v.setUint8(A_TYPE, 9)), at: A_TYPE, reason: /unknown block type 9/ },
  { name: 'key without blocks', edit: poke((v) => v.setUint32(A_COUNT, 0)), at: A_COUNT, reason: /no blocks/ },
  { name: 'minTime after maxTime', edit: poke((v) => v.setBigInt64(A_E0 + ENTRY_MIN_TIME_OFFSET, 11n)), at: A_E0, reason: /minTime after maxTime/ },
  { name: 'overlapping blocks', edit: poke((v) => v.setBigInt64(A_E1 + ENTRY_MIN_TIME_OFFSET, 10n)), at: A_E1, reason: /overlap/ },
  { name: 'blocks out of time order', edit: poke((v) => v.setBigInt64(A_E0 + ENTRY_MAX_TIME_OFFSET, 500n)), at: A_E1, reason: /overlap/ },
  { name: 'block inside the header', edit: poke((v) => v.setBigUint64(A_E0 + ENTRY_OFFSET_OFFSET, 2n)), at: A_E0, reason: /outside the blocks/ },
  { name: 'block past the index start', edit: poke((v) => v.setBigUint64(A_E1 + ENTRY_OFFSET_OFFSET, 990n)), at: A_E1, reason: /outside the blocks/ },
  { name: 'offset beyond 2^53', edit: poke((v) => v.setBigUint64(A_E0 + ENTRY_OFFSET_OFFSET, 2n ** 60n)), at: A_E0, reason: /outside the blocks/ },
  { name: 'empty block', edit: poke((v) => v.setUint32(A_E0 + ENTRY_SIZE_OFFSET, 0)), at: A_E0, reason: /empty block/ },
];

test('the sample index parses', () => {
  const { bytes, layout } = sample();
  const index = BlockIndex.parse(bytes, layout);
  assert.deepEqual([...index.keys()], ['a', 'b']);
  assert.deepEqual([index.blockCount, index.valueCount, index.minTime, index.maxTime], [4, 40, 0n, 110n]);
  assert.deepEqual(index.entryRangeAt(0, 11n, 99n), { start: 1, end: 1 });
  assert.deepEqual(index.entryRangeAt(0, 10n, 100n), { start: 0, end: 2 });
  assert.deepEqual(index.entryRangeAt(1, 111n, 2n ** 62n), { start: 2, end: 2 });
  assert.deepEqual(index.entryRangeAt(1, -(2n ** 63n), -1n), { start: 0, end: 0 });
});

for (const row of ROWS) {
  test(`index structure: ${row.name}`, () => {
    const s = sample();
    const { bytes, layout } = row.edit(s.bytes, s.layout);
    assert.throws(
      () => BlockIndex.parse(bytes, layout),
      (err) => err instanceof CorruptionError && err.offset === INDEX_OFFSET + row.at && row.reason.test(err.message),
    );
  });
}
