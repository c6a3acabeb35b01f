/**
 * BlockIndex.parse is the last line of defence behind the index checksum (a writer bug or a
 * foreign file with a valid checksum): each row breaks one structural rule of format.ts and
 * expects a CorruptionError naming the file offset of the broken field (or of its record).
 * Version 1 indexes are built here by hand (the writer only writes version 2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { CorruptionError } from '../errors.js';
import { FieldType } from '../point.js';
import { BlockIndex } from './block-index.js';
import type { IndexLayout } from './block-index.js';
import {
  ENTRY_COUNT_OFFSET,
  ENTRY_MAX_TIME_OFFSET,
  ENTRY_MIN_TIME_OFFSET,
  ENTRY_OFFSET_OFFSET,
  ENTRY_SIZE,
  ENTRY_SIZE_OFFSET,
  HEADER_SIZE,
  VERSION,
  VERSION_1,
} from './format.js';
import { IndexBuilder } from './index-builder.js';

const INDEX_OFFSET = 1000;
// Record of key 'a' at 0: keyLen 0..2, key 2, type 3, entryCount 4..8, entries 8..72.
// Record of key 'b' at 72: keyLen 72..74, key 74, type 75, entryCount 76..80, entries 80..144.
const A_TYPE = 3;
const A_COUNT = 4;
const A_E0 = 8;
const A_E1 = A_E0 + ENTRY_SIZE;
const B_KEY = 74;

/** Version 1: keys 'a' and 'b', float, blocks [0, 10] and [100, 110] of 10 values each. */
function sample(): { bytes: Buffer; layout: IndexLayout } {
  const bytes = Buffer.alloc(144);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = HEADER_SIZE;
  let pos = 0;
  for (const key of ['a', 'b']) {
    v.setUint16(pos, 1);
    v.setUint8(pos + 2, key.charCodeAt(0));
    v.setUint8(pos + 3, FieldType.Float);
    v.setUint32(pos + 4, 2);
    pos += 8;
    for (const t of [0n, 100n]) {
      v.setBigInt64(pos + ENTRY_MIN_TIME_OFFSET, t);
      v.setBigInt64(pos + ENTRY_MAX_TIME_OFFSET, t + 10n);
      v.setBigUint64(pos + ENTRY_OFFSET_OFFSET, BigInt(offset));
      v.setUint32(pos + ENTRY_SIZE_OFFSET, 100);
      v.setUint32(pos + ENTRY_COUNT_OFFSET, 10);
      pos += ENTRY_SIZE;
      offset += 104;
    }
  }
  return { bytes, layout: { file: 'f.tsm', indexOffset: INDEX_OFFSET, keyCount: 2, blockCount: 4 } };
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
  { name: 'block count disagrees', edit: (bytes, l) => ({ bytes, layout: { ...l, blockCount: 3 } }), at: 112, reason: /more blocks than the footer's 3/ },
  { name: 'forged huge block count', edit: (bytes, l) => ({ bytes, layout: { ...l, blockCount: 5 } }), at: 0, reason: /do not fit/ },
  { name: 'keys out of order', edit: poke((v) => v.setUint8(B_KEY, 'a'.charCodeAt(0))), at: 72, reason: /ascending byte order/ },
  { name: 'empty key', edit: poke((v) => v.setUint16(0, 0)), at: 0, reason: /empty key/ },
  { name: 'unknown type', edit: poke((v) => v.setUint8(A_TYPE, 9)), at: 0, reason: /unknown block type 9/ },
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
  const index = BlockIndex.parse(bytes, layout, VERSION_1);
  assert.deepEqual([...index.keys()], ['a', 'b']);
  assert.deepEqual([index.blockCount, index.valueCount, index.minTime, index.maxTime], [4, 40, 0n, 110n]);
  assert.deepEqual(index.entryRangeAt(0, 11n, 99n), { start: 1, end: 1 });
  assert.deepEqual(index.entryRangeAt(0, 10n, 100n), { start: 0, end: 2 });
  assert.deepEqual(index.entryRangeAt(1, 111n, 2n ** 62n), { start: 2, end: 2 });
  assert.deepEqual(index.entryRangeAt(1, -(2n ** 63n), -1n), { start: 0, end: 0 });
});

for (const row of ROWS) {
  test(`index structure v1: ${row.name}`, () => {
    const s = sample();
    const { bytes, layout } = row.edit(s.bytes, s.layout);
    assert.throws(
      () => BlockIndex.parse(bytes, layout, VERSION_1),
      (err) => err instanceof CorruptionError && err.offset === INDEX_OFFSET + row.at && row.reason.test(err.message),
    );
  });
}

// ── version 2 ─────────────────────────────────────────────────────────────────────────────
// Keys 'a' (float, blocks [0,10] and [100,110]) and 'b' (integer, one block [0,10] with stats),
// blocks of 100 payload bytes back to back, so the index starts at 8 + 3 × 104 = 320.
// 'a' at 0: shared 0, len 1, 'a', type 3, scale 4 (= 1: times in units of 10 ns), count 2;
// entries at 6 (4 bytes) and 10 (4 bytes).
// 'b' at 14: shared 0, len 1, 'b' at 16, type 17, scale 18, count 19; entry at 20: minTime 20,
// span 21, size 22, countFlag 23, minIndex 24, maxIndex 25, min 26, max − min 27, sum 28.
const V2_INDEX_OFFSET = HEADER_SIZE + 3 * 104;

function sampleV2(): { bytes: Buffer; layout: IndexLayout } {
  const b = new IndexBuilder();
  let offset = HEADER_SIZE;
  for (const t of [0n, 100n]) {
    b.add('a', { type: FieldType.Float, minTime: t, maxTime: t + 10n, offset, size: 100, count: 10 });
    offset += 104;
  }
  b.add('b', { type: FieldType.Integer, minTime: 0n, maxTime: 10n, offset, size: 100, count: 10, stats: { min: 1, max: 5, minIndex: 0, maxIndex: 1, sum: 9 } });
  return { bytes: Buffer.from(b.bytes()), layout: { file: 'f.tsm', indexOffset: V2_INDEX_OFFSET, keyCount: 2, blockCount: 3 } };
}

const ROWS_V2: { name: string; edit: Edit; at: number; reason: RegExp }[] = [
  { name: 'zero keys', edit: (bytes, l) => ({ bytes: bytes.subarray(0, 0), layout: { ...l, keyCount: 0 } }), at: 0, reason: /no keys/ },
  { name: 'forged huge block count', edit: (bytes, l) => ({ bytes, layout: { ...l, blockCount: 2 ** 31 } }), at: 0, reason: /do not fit/ },
  { name: 'block count disagrees', edit: (bytes, l) => ({ bytes, layout: { ...l, blockCount: 4 } }), at: 0, reason: /footer says 4/ },
  { name: 'fewer keys than records', edit: (bytes, l) => ({ bytes, layout: { ...l, keyCount: 1 } }), at: 14, reason: /after the last key/ },
  { name: 'keys out of order', edit: poke((v) => v.setUint8(16, 'a'.charCodeAt(0))), at: 14, reason: /ascending byte order/ },
  { name: 'shared prefix longer than the previous key', edit: poke((v) => v.setUint8(14, 5)), at: 14, reason: /shares 5 bytes/ },
  { name: 'unknown type', edit: poke((v) => v.setUint8(17, 9)), at: 14, reason: /unknown block type 9/ },
  { name: 'time scale beyond 10^18', edit: poke((v) => v.setUint8(4, 19)), at: 4, reason: /time scale 10\^19/ },
  { name: 'key without blocks', edit: poke((v) => v.setUint8(19, 0)), at: 14, reason: /no blocks/ },
  { name: 'empty block', edit: poke((v) => v.setUint8(22, 0)), at: 20, reason: /empty block/ },
  { name: 'blocks do not end at the index', edit: (bytes, l) => ({ bytes, layout: { ...l, indexOffset: l.indexOffset + 1 } }), at: 0, reason: /blocks end at 320/ },
  { name: 'stats position outside the block', edit: poke((v) => v.setUint8(24, 10)), at: 24, reason: /stats position/ },
  { name: 'stats on a boolean block', edit: poke((v) => v.setUint8(17, FieldType.Boolean)), at: 24, reason: /stats on a block of type 2/ },
  { name: 'truncated stats', edit: (bytes, l) => ({ bytes: bytes.subarray(0, 28), layout: l }), at: 28, reason: /truncated/ },
  { name: 'trailing bytes', edit: (bytes, l) => ({ bytes: Buffer.concat([bytes, Buffer.of(0)]), layout: l }), at: 29, reason: /1 bytes after the last key/ },
];

test('the version 2 sample index parses, with its stats', () => {
  const { bytes, layout } = sampleV2();
  assert.equal(bytes.length, 29);
  const index = BlockIndex.parse(bytes, layout, VERSION);
  assert.deepEqual([...index.keys()], ['a', 'b']);
  assert.deepEqual(index.entriesAt(0).map((e) => [e.minTime, e.maxTime, e.offset, e.size, e.count, e.stats]), [
    [0n, 10n, 8, 100, 10, undefined],
    [100n, 110n, 112, 100, 10, undefined],
  ]);
  assert.deepEqual(index.entryAt(1, 0), { minTime: 0n, maxTime: 10n, offset: 216, size: 100, count: 10, stats: { min: 1, max: 5, minIndex: 0, maxIndex: 1, sum: 9 } });
});

for (const row of ROWS_V2) {
  test(`index structure v2: ${row.name}`, () => {
    const s = sampleV2();
    const { bytes, layout } = row.edit(s.bytes, s.layout);
    assert.throws(
      () => BlockIndex.parse(bytes, layout, VERSION),
      (err) => err instanceof CorruptionError && err.offset === V2_INDEX_OFFSET + (layout.indexOffset - V2_INDEX_OFFSET) + row.at && row.reason.test(err.message),
    );
  });
}

test('findSeriesField answers as findKey of the whole key, hit or miss, also past the memo bound', () => {
  const b = new IndexBuilder();
  let offset = HEADER_SIZE;
  const keys: string[] = [];
  for (let s = 0; s < 300; s++) for (const f of ['u', 'v']) keys.push(`m,host=h${String(s).padStart(3, '0')}#!~#${f}`);
  for (const key of keys) {
    b.add(key, { type: FieldType.Float, minTime: 0n, maxTime: 10n, offset, size: 100, count: 10 });
    offset += 104;
  }
  const index = BlockIndex.parse(Buffer.from(b.bytes()), { file: 'f.tsm', indexOffset: offset, keyCount: keys.length, blockCount: keys.length }, VERSION);
  // 9,000 distinct (series, field) pairs: the memo (8,192 entries) starts over on the way.
  for (let round = 0; round < 2; round++) {
    for (let s = 0; s < 3000; s++) {
      const series = `m,host=h${String(s % 400).padStart(3, '0')}`;
      const field = ['u', 'v', 'w'][Math.floor(s / 400) % 3]!;
      const key = `${series}#!~#${field}`;
      assert.equal(index.findSeriesField(series, field, key), index.findKey(key), key);
    }
  }
  assert.equal(index.findSeriesField('m,host=h007', 'v', 'm,host=h007#!~#v'), keys.indexOf('m,host=h007#!~#v'));
  assert.equal(index.findSeriesField('m,host=h007', 'w', 'm,host=h007#!~#w'), -1);
});
