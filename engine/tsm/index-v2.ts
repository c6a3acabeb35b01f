/**
 * Codec of version-2 index sections: prefix-compressed keys, varint entries with implied block
 * offsets, per-block stats (layout in format.ts, stats in block-stats.ts). The encoder half
 * (`appendKeyRecord`, `appendEntry`) is driven by IndexBuilder, which owns ordering checks;
 * `parseIndexV2` is the exact inverse and validates everything it reads.
 */
import type { Buffer } from 'node:buffer';
import { FieldType } from '../point.js';
import { ByteReader, ByteWriter } from '../encoding/varint.js';
import { statsShape, type BlockStats } from './block-stats.js';
import { BLOCK_CHECKSUM_SIZE, HEADER_SIZE, MAX_KEY_BYTES } from './format.js';
import { TablesBuilder, type IndexLayout, type IndexTables } from './index-tables.js';

const MASK32 = 0xffffffffn;
const INT64_MAX = 2n ** 63n - 1n;
/** Each of minTime, span, size and countFlag takes at least one byte. */
const MIN_ENTRY_BYTES = 4;
/** Times of a key are stored in units of 10^scale ns; 10^18 ns is the largest power below 2^63. */
const MAX_TIME_SCALE = 18;
const POW10 = Array.from({ length: MAX_TIME_SCALE + 1 }, (_, e) => 10n ** BigInt(e));

export interface EntryV2 {
  readonly minTime: bigint;
  readonly maxTime: bigint;
  readonly size: number;
  readonly count: number;
  readonly stats?: BlockStats;
}

/**
 * One key record: header (shared prefix, suffix, type, time scale, entry count) and its
 * entries. `anchor` is the previous key's first minTime (0 for the first key).
 */
export function appendKeyRecord(w: ByteWriter, previous: Uint8Array, key: Uint8Array, type: FieldType, entries: readonly EntryV2[], anchor: bigint): void {
  const limit = Math.min(previous.length, key.length);
  let shared = 0;
  while (shared < limit && previous[shared] === key[shared]) shared++;
  w.uvarint(shared);
  w.uvarint(key.length - shared);
  w.bytes(key.subarray(shared));
  w.byte(type);
  const scale = timeScale(entries);
  const unit = 10n ** BigInt(scale);
  w.byte(scale);
  w.uvarint(entries.length);
  let prevMax = 0n;
  // Plain loops here and in timeScale: a closure per key was optimised anew for each key.
  for (let j = 0; j < entries.length; j++) {
    const e = entries[j]!;
    if (j === 0) {
      const d = BigInt.asIntN(64, e.minTime - anchor);
      w.svarint64(Number(d & MASK32), Number(d >> 32n));
    } else {
      bigUvarint(w, (e.minTime - prevMax) / unit - 1n);
    }
    bigUvarint(w, (e.maxTime - e.minTime) / unit);
    appendBlockFields(w, type, e);
    prevMax = e.maxTime;
  }
}

/** Largest e ≤ MAX_TIME_SCALE with 10^e dividing every span and every gap between blocks. */
function timeScale(entries: readonly EntryV2[]): number {
  let e = MAX_TIME_SCALE;
  let prevMax = 0n;
  for (let j = 0; j < entries.length; j++) {
    const x = entries[j]!;
    const span = x.maxTime - x.minTime;
    const step = j === 0 ? 0n : x.minTime - prevMax;
    while (e > 0 && (span % POW10[e]! !== 0n || step % POW10[e]! !== 0n)) e--;
    prevMax = x.maxTime;
  }
  return e;
}

function appendBlockFields(w: ByteWriter, type: FieldType, e: EntryV2): void {
  w.uvarint(e.size);
  const s = statsShape(type) === 'none' ? undefined : e.stats;
  w.uvarint(e.count * 2 + (s ? 1 : 0));
  if (!s) return;
  w.uvarint(s.minIndex);
  w.uvarint(s.maxIndex);
  if (type === FieldType.Float) {
    w.ensure(16);
    const v = new DataView(w.buf.buffer, w.buf.byteOffset + w.len, 16);
    v.setFloat64(0, s.min);
    v.setFloat64(8, s.max);
    w.len += 16;
  } else if (type === FieldType.Integer) {
    w.svarint(s.min);
    w.uvarint(s.max - s.min);
    w.svarint(s.sum ?? 0);
  } else {
    w.uvarint(s.min);
    w.uvarint(s.max - s.min);
    w.uvarint(s.sum ?? 0);
  }
}

function bigUvarint(w: ByteWriter, v: bigint): void {
  w.uvarint64(Number(v & MASK32), Number((v >> 32n) & MASK32));
}

/** ByteReader whose errors name the TSM file and the index offset. */
class IndexReader extends ByteReader {
  constructor(
    buf: Uint8Array,
    private readonly tables: TablesBuilder,
  ) {
    super(buf);
  }

  override corrupt(reason: string, at = this.pos) {
    return this.tables.corrupt(at, reason);
  }

  bigUvarint(): bigint {
    this.uvarint64();
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }

  bigSvarint(): bigint {
    this.svarint64();
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }
}

export function parseIndexV2(bytes: Buffer, layout: IndexLayout): IndexTables {
  const t = new TablesBuilder(layout, bytes.length, MIN_ENTRY_BYTES, true);
  const r = new IndexReader(bytes, t);
  let anchor = 0n;
  let offset = HEADER_SIZE;
  for (let k = 0; k < layout.keyCount; k++) {
    const at = r.pos;
    const shared = r.uvarint();
    const suffixLen = r.uvarint();
    const previous = t.previousKey();
    if (shared > previous.length) throw t.corrupt(at, `key shares ${shared} bytes with a ${previous.length}-byte key`);
    if (shared + suffixLen > MAX_KEY_BYTES) throw t.corrupt(at, `key of ${shared + suffixLen} bytes (at most ${MAX_KEY_BYTES})`);
    r.need(suffixLen);
    const suffix = bytes.subarray(r.pos, r.pos + suffixLen);
    r.pos += suffixLen;
    const type = r.byte();
    t.addKey(at, [previous.subarray(0, shared), suffix], type);
    const scale = r.byte();
    if (scale > MAX_TIME_SCALE) throw t.corrupt(r.pos - 1, `time scale 10^${scale} (at most 10^${MAX_TIME_SCALE})`);
    const unit = POW10[scale]!;
    const n = r.uvarint();
    if (n === 0) throw t.corrupt(at, 'key with no blocks');
    let prevMax = 0n;
    for (let j = 0; j < n; j++) {
      const e = r.pos;
      const minTime = j === 0 ? BigInt.asIntN(64, anchor + r.bigSvarint()) : prevMax + (r.bigUvarint() + 1n) * unit;
      if (j === 0) anchor = minTime;
      const maxTime = minTime + r.bigUvarint() * unit;
      if (maxTime > INT64_MAX) throw t.corrupt(e, 'block time beyond int64');
      const size = r.uvarint();
      const countFlag = r.uvarint();
      const count = Math.floor(countFlag / 2);
      const stats = countFlag % 2 === 1 ? readStats(r, t, type as FieldType, count) : undefined;
      t.addEntry(e, minTime, maxTime, offset, size, count, stats);
      offset += BLOCK_CHECKSUM_SIZE + size;
      prevMax = maxTime;
    }
  }
  if (r.pos !== bytes.length) throw t.corrupt(r.pos, `${bytes.length - r.pos} bytes after the last key record`);
  if (offset !== layout.indexOffset) throw t.corrupt(0, `blocks end at ${offset}, the index starts at ${layout.indexOffset}`);
  return t.finish(r.pos);
}

function readStats(r: IndexReader, t: TablesBuilder, type: FieldType, count: number): BlockStats {
  const at = r.pos;
  const shape = statsShape(type);
  if (shape === 'none') throw t.corrupt(at, `stats on a block of type ${type}, which has none`);
  const minIndex = r.uvarint();
  const maxIndex = r.uvarint();
  if (minIndex >= count || maxIndex >= count) throw t.corrupt(at, `stats position outside a ${count}-value block`);
  let min: number;
  let max: number;
  let sum: number | undefined;
  if (type === FieldType.Float) {
    r.need(16);
    const v = new DataView(r.buf.buffer, r.buf.byteOffset + r.pos, 16);
    min = v.getFloat64(0);
    max = v.getFloat64(8);
    r.pos += 16;
  } else {
    min = type === FieldType.Integer ? r.svarint() : r.uvarint();
    max = min + r.uvarint();
    sum = type === FieldType.Integer ? r.svarint() : r.uvarint();
    if (!Number.isSafeInteger(max)) throw t.corrupt(at, 'stats maximum beyond 2^53');
  }
  if (!(min <= max)) throw t.corrupt(at, `stats minimum ${min} above maximum ${max}`);
  // Positions as small integers, as block-stats.ts makes them (the reader's halves are doubles,
  // which made these doubles too): one representation for the stats objects of both, or the
  // first merge changed their hidden class under the index writer's optimised code.
  return sum === undefined
    ? { min, max, minIndex: Math.floor(minIndex), maxIndex: Math.floor(maxIndex) }
    : { min, max, minIndex: Math.floor(minIndex), maxIndex: Math.floor(maxIndex), sum };
}
