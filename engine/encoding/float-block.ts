/**
 * Float column encoding: per block, the smallest of three lossless encodings.
 *
 *   u8  kind: 0 = XOR (Chimp, float.ts), 1 = decimal (decimal.ts), 2 = bit-pattern deltas
 *       (float-delta.ts)
 *   …   the chosen encoding's bytes (the value count is stored by the caller)
 *
 * Decimal is tried first because it fails fast on the first full-precision value, and when it
 * is no larger than the least the other two could possibly take (XOR ≥ 64 + 2 bits per further
 * value, deltas ≥ 71 + 1 bit per further value) they are not tried at all. Otherwise the exact
 * sizes of XOR and deltas are computed without writing, and only the smallest candidate is
 * written: XOR wins on short mantissas, deltas on noisy full-precision walks and repeats.
 */
import { ByteWriter, ByteReader } from './varint.js';
import { appendFloats, floatsSize, readFloats } from './float.js';
import { appendDecimals, readDecimals } from './decimal.js';
import { planFloatDeltas, writeFloatDeltas, readFloatDeltas } from './float-delta.js';

export const FLOAT_XOR = 0;
export const FLOAT_DECIMAL = 1;
export const FLOAT_DELTA = 2;

const decimal = new ByteWriter(4096);

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
  // Exact sizes first, then only the winner pays for bit writing. Ties prefer XOR, then
  // decimal, matching the order the decoder was first written for.
  const xorSize = floatsSize(values, start, end);
  const deltaSize = planFloatDeltas(values, start, end);
  const decimalSize = decimalOk ? decimal.len : Infinity;
  if (xorSize <= decimalSize && xorSize <= deltaSize) {
    out.byte(FLOAT_XOR);
    appendFloats(out, values, start, end);
  } else if (decimalSize <= deltaSize) {
    out.byte(FLOAT_DECIMAL);
    out.bytes(decimal.buf.subarray(0, decimal.len));
  } else {
    out.byte(FLOAT_DELTA);
    writeFloatDeltas(out, values, start, end);
  }
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
