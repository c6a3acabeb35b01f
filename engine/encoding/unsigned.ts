/**
 * Unsigned uint64 column encoding. The bytes are exactly integer.ts's: a uint64 is encoded by
 * its two's-complement bit pattern, with deltas taken modulo 2^64, so u64 max (bit pattern of
 * -1) and every other value round-trip. Only the decoder's choice of output differs: a
 * Float64Array when every value is in [0, 2^53), else a BigUint64Array.
 *
 * Input: Float64Array when every value is a safe non-negative integer, else BigUint64Array.
 * The value count is stored by the caller.
 */
import { ByteWriter, ByteReader } from './varint.js';
import { appendInt64, readInt64, readInt64Last } from './integer.js';

export function appendUnsigned(out: ByteWriter, values: Float64Array | BigUint64Array, start: number, end: number): void {
  appendInt64(out, values, start, end);
}

export function encodeUnsigned(values: Float64Array | BigUint64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(16 + (end - start) * 2);
  appendInt64(w, values, start, end);
  return w.finish();
}

export function readUnsigned(r: ByteReader, count: number, out?: Float64Array, limit = count): Float64Array | BigUint64Array {
  const v = readInt64(r, count, false, out, limit);
  return v instanceof Float64Array ? v : new BigUint64Array(v.buffer, v.byteOffset, count);
}

/** readUnsigned's last value alone, as a one-element array (integer.ts readInt64Last). */
export function readLastUnsigned(r: ByteReader, count: number): Float64Array | BigUint64Array {
  const v = readInt64Last(r, count, false);
  return v instanceof Float64Array ? v : new BigUint64Array(v.buffer, v.byteOffset, 1);
}

export function decodeUnsigned(bytes: Uint8Array, count: number): Float64Array | BigUint64Array {
  return readUnsigned(new ByteReader(bytes), count);
}
