/**
 * Typed block: one series-field's timestamps and values, self-contained on disk.
 *
 *   ┌────────┬──────────────┬──────────────────────┬─────────────────────────────┐
 *   │ u8 type│ uvarint tlen │ timestamps (tlen B)  │ values (to the end)         │
 *   └────────┴──────────────┴──────────────────────┴─────────────────────────────┘
 *   type        FieldType code (point.ts): 0 float, 1 integer, 2 boolean, 3 string, 4 unsigned
 *   timestamps  timestamp.ts: u8 mode|scale, uvarint count, first timestamp absolute, deltas
 *   values      per type, each starting with its own u8 encoding choice:
 *               float-block.ts (XOR | decimal | bit-pattern deltas), integer.ts (RLE |
 *               simple8b | Huffman | raw), unsigned.ts, boolean.ts, string.ts
 *
 * The value count is the timestamp count; value sections do not repeat it. Checksums and
 * block lengths belong to the TSM file layer. Decoding returns timestamps as offsets from the
 * caller's `base` (one BigInt subtraction per block).
 */
import { FieldType } from '../point.js';
import type { ValueColumn } from '../point.js';
import { ByteWriter, ByteReader } from './varint.js';
import { appendTimestamps, readTimeGrid, readTimestamps, type TimeGrid } from './timestamp.js';
import { appendFloatColumn, readFloatColumn } from './float-block.js';
import { appendIntegers, readIntegers, readLastInteger } from './integer.js';
import { appendUnsigned, readLastUnsigned, readUnsigned } from './unsigned.js';
import { appendBooleans, readBooleans } from './boolean.js';
import { appendStrings, readStrings } from './string.js';
import { InvariantError } from '../errors.js';

const section = new ByteWriter(16384);
/**
 * The block being encoded, reused (the caller gets an exact copy): a writer per block was the
 * largest ArrayBuffer allocation of snapshots, and V8 counts those bytes towards its next
 * mark-compact. A writer grown past KEEP_BYTES by a huge block is dropped after it.
 */
let block = new ByteWriter(16384);
const KEEP_BYTES = 1 << 20;

export function encodeBlock(base: bigint, offsets: Float64Array, column: ValueColumn, start: number, end: number): Uint8Array {
  if (end < start || end > offsets.length || end > column.values.length) {
    throw new InvariantError(`encodeBlock range ${start}..${end} outside the columns`);
  }
  const w = block;
  w.len = 0;
  w.byte(column.type);
  section.len = 0;
  appendTimestamps(section, base, offsets, start, end);
  w.uvarint(section.len);
  w.bytes(section.buf.subarray(0, section.len));
  switch (column.type) {
    case FieldType.Float:
      appendFloatColumn(w, column.values, start, end);
      break;
    case FieldType.Integer:
      appendIntegers(w, column.values, start, end);
      break;
    case FieldType.Unsigned:
      appendUnsigned(w, column.values, start, end);
      break;
    case FieldType.Boolean:
      appendBooleans(w, column.values, start, end);
      break;
    case FieldType.String:
      appendStrings(w, column.values, start, end);
      break;
  }
  const out = w.finish();
  if (w.buf.length > KEEP_BYTES) block = new ByteWriter(16384);
  return out;
}

/**
 * Caller-owned buffers for decodeBlock on the scan hot path. When one is large enough the
 * result is a subarray view of it, valid until the caller reuses the buffer; otherwise a
 * fresh array is allocated. Integer/unsigned blocks with values beyond 2^53 always allocate.
 */
export interface DecodeBuffers {
  offsets?: Float64Array;
  /** Float, integer and unsigned values. */
  numbers?: Float64Array;
  booleans?: Uint8Array;
}

export function decodeBlock(bytes: Uint8Array, base: bigint, buffers?: DecodeBuffers): { offsets: Float64Array; column: ValueColumn } {
  const r = new ByteReader(bytes);
  const type = r.byte();
  const tlen = r.uvarint();
  r.need(tlen);
  const valuesAt = r.pos + tlen;
  const offsets = readTimestamps(new ByteReader(bytes, r.pos, valuesAt), base, buffers?.offsets);
  r.pos = valuesAt;
  return { offsets, column: readColumn(r, type, offsets.length, buffers) };
}

/**
 * Only the values of a block whose timestamps the caller already decoded (`count` of them):
 * the timestamp section is skipped, not decoded a second time. `limit` (1..count): only the
 * first `limit` values are needed; the column then holds at least that many (integer and
 * unsigned blocks stop decoding there, other types decode all `count`).
 */
export function decodeBlockValues(bytes: Uint8Array, count: number, buffers?: DecodeBuffers, limit = count): ValueColumn {
  return readColumn(valuesReader(bytes, count), bytes[0]!, count, buffers, limit);
}

/**
 * Only the last value of a block of `count` values (checked as decodeBlockValues does), as a
 * one-element column: the newest row, which a descending read that stops there (ORDER BY time
 * DESC LIMIT 1) is all it needs. Integer and unsigned blocks add up their deltas without
 * storing them (integer.ts readInt64Last); other types decode the column and copy its last value.
 */
export function decodeBlockLastValue(bytes: Uint8Array, count: number): ValueColumn {
  const r = valuesReader(bytes, count);
  const type = bytes[0]!;
  if (count > 0 && type === FieldType.Integer) return { type, values: readLastInteger(r, count) };
  if (count > 0 && type === FieldType.Unsigned) return { type, values: readLastUnsigned(r, count) };
  const all = readColumn(r, type, count, undefined);
  return { type: all.type, values: all.values.slice(Math.max(0, count - 1)) } as ValueColumn;
}

/** A reader at the block's value section (past the timestamps, not decoded); checks the block holds `count` values. The type is byte 0. */
function valuesReader(bytes: Uint8Array, count: number): ByteReader {
  const r = new ByteReader(bytes);
  r.byte();
  const tlen = r.uvarint();
  r.need(tlen);
  const counted = new ByteReader(bytes, r.pos, r.pos + tlen);
  counted.byte();
  const n = counted.uvarint();
  if (n !== count) throw r.corrupt(`block holds ${n} values, the caller expected ${count}`, 0);
  r.pos += tlen;
  return r;
}

function readColumn(r: ByteReader, type: number, n: number, buffers: DecodeBuffers | undefined, limit = n): ValueColumn {
  switch (type) {
    case FieldType.Float:
      return { type, values: readFloatColumn(r, n, buffers?.numbers) };
    case FieldType.Integer:
      return { type, values: readIntegers(r, n, buffers?.numbers, limit) };
    case FieldType.Unsigned:
      return { type, values: readUnsigned(r, n, buffers?.numbers, limit) };
    case FieldType.Boolean:
      return { type, values: readBooleans(r, n, buffers?.booleans) };
    case FieldType.String:
      return { type, values: readStrings(r, n) };
    default:
      throw r.corrupt(`unknown block type ${type}`, 0);
  }
}

/** Only the timestamps of a block, as offsets from `base` (values are not decoded), into `out` when it is large enough. */
export function decodeBlockTimes(bytes: Uint8Array, base: bigint, out?: Float64Array): Float64Array {
  const r = new ByteReader(bytes);
  r.byte();
  const tlen = r.uvarint();
  r.need(tlen);
  return readTimestamps(new ByteReader(bytes, r.pos, r.pos + tlen), base, out);
}

/** The block's timestamps as a grid when they are regular (timestamp.ts readTimeGrid), else undefined. */
export function decodeBlockTimeGrid(bytes: Uint8Array, base: bigint): TimeGrid | undefined {
  const r = new ByteReader(bytes);
  r.byte();
  const tlen = r.uvarint();
  r.need(tlen);
  return readTimeGrid(new ByteReader(bytes, r.pos, r.pos + tlen), base);
}

/** The block's FieldType, from its first byte. */
export function blockType(bytes: Uint8Array): FieldType {
  const r = new ByteReader(bytes);
  const t = r.byte();
  if (t > FieldType.Unsigned) throw r.corrupt(`unknown block type ${t}`, 0);
  return t as FieldType;
}

/** Number of points in the block, read from the timestamp header without decoding. */
export function blockCount(bytes: Uint8Array): number {
  const r = new ByteReader(bytes, 1);
  r.uvarint();
  r.byte();
  return r.uvarint();
}
