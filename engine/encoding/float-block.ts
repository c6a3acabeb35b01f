/**
 * Float column encoding: per block, the smallest of three lossless encodings.
 *
 *   u8  kind: 0 = XOR (Chimp, float.ts), 1 = decimal (decimal.ts), 2 = bit-pattern deltas
 *       (float-delta.ts)
 *   …   the chosen encoding's bytes (the value count is stored by the caller)
 *
 * Decimal is tried first because it fails fast on the first full-precision value, and when it
 * is no larger than the least the other two could possibly take (XOR ≥ 64 + 2 bits per further
 * value, deltas ≥ 71 + 1 bit per further value) they are not tried at all. Otherwise XOR and
 * deltas are both encoded and the shortest of the candidates wins: XOR wins on repeated
 * values and short mantissas, deltas on noisy full-precision walks.
 */
import { ByteWriter, ByteReader } from './varint.js';
import { appendFloats, readFloats } from './float.js';
import { appendDecimals, readDecimals } from './decimal.js';
import { appendFloatDeltas, readFloatDeltas } from './float-delta.js';

export const FLOAT_XOR = 0;
export const FLOAT_DECIMAL = 1;
export const FLOAT_DELTA = 2;

const decimal = new ByteWriter(4096);
const delta = new ByteWriter(16384);

export function appendFloatColumn(out: ByteWriter, values: Float64Array, start: number, end: number): void {
  const n = end - start;
  if (n <= 0) {
    out.byte(FLOAT_XOR);
    return;
  }
  decimal.len = 0;
  const decimalOk = appendDecimals(decimal, values, start, end);
  const xorAtLeast = Math.ceil((64 + 2 * (n - 1)) / 8);
  const deltaAtLeast = n === 1 ? 8 : Math.ceil((71 + (n - 1)) / 8);
  if (decimalOk && decimal.len <= Math.min(xorAtLeast, deltaAtLeast)) {
    out.byte(FLOAT_DECIMAL);
    out.bytes(decimal.buf.subarray(0, decimal.len));
    return;
  }
  const mark = out.len;
  out.byte(FLOAT_XOR);
  appendFloats(out, values, start, end);
  const xorLen = out.len - mark - 1;
  delta.len = 0;
  appendFloatDeltas(delta, values, start, end);
  const other = decimalOk && decimal.len <= delta.len ? decimal : delta;
  if (xorLen <= other.len) return;
  out.len = mark;
  out.byte(other === decimal ? FLOAT_DECIMAL : FLOAT_DELTA);
  out.bytes(other.buf.subarray(0, other.len));
}

export function encodeFloatColumn(values: Float64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(16 + (end - start) * 8);
  appendFloatColumn(w, values, start, end);
  return w.finish();
}

export function readFloatColumn(r: ByteReader, count: number, out?: Float64Array): Float64Array {
  const at = r.pos;
  const kind = r.byte();
  if (kind === FLOAT_XOR) return readFloats(r, count, out);
  if (kind === FLOAT_DECIMAL) return readDecimals(r, count, out);
  if (kind === FLOAT_DELTA) return readFloatDeltas(r, count, out);
  throw r.corrupt(`unknown float encoding ${kind}`, at);
}

export function decodeFloatColumn(bytes: Uint8Array, count: number, out?: Float64Array): Float64Array {
  return readFloatColumn(new ByteReader(bytes), count, out);
}
