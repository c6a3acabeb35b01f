/**
 * Float column encoding: per block, the smaller of XOR (float.ts) and decimal (decimal.ts).
 *
 *   u8  kind: 0 = XOR (Chimp), 1 = decimal
 *   …   the chosen encoding's bytes (the value count is stored by the caller)
 *
 * Decimal is tried first because it fails fast on the first full-precision value; when it
 * applies, XOR is encoded too and the shorter wins (constant or slowly varying blocks can
 * favour either).
 */
import { ByteWriter, ByteReader } from './varint.js';
import { appendFloats, readFloats } from './float.js';
import { appendDecimals, readDecimals } from './decimal.js';

export const FLOAT_XOR = 0;
export const FLOAT_DECIMAL = 1;

const trial = new ByteWriter(4096);

export function appendFloatColumn(out: ByteWriter, values: Float64Array, start: number, end: number): void {
  trial.len = 0;
  if (appendDecimals(trial, values, start, end)) {
    const mark = out.len;
    out.byte(FLOAT_XOR);
    appendFloats(out, values, start, end);
    if (out.len - mark - 1 <= trial.len) return;
    out.len = mark;
    out.byte(FLOAT_DECIMAL);
    out.bytes(trial.buf.subarray(0, trial.len));
    return;
  }
  out.byte(FLOAT_XOR);
  appendFloats(out, values, start, end);
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
  throw r.corrupt(`unknown float encoding ${kind}`, at);
}

export function decodeFloatColumn(bytes: Uint8Array, count: number, out?: Float64Array): Float64Array {
  return readFloatColumn(new ByteReader(bytes), count, out);
}
