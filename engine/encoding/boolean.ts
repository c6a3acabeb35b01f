/**
 * Boolean column encoding. Values are a Uint8Array of 0/1 (any non-zero byte reads as true).
 *
 *   u8 mode
 *   0 PACKED  ceil(count / 8) bytes; value i is bit (i mod 8) of byte i / 8, LSB first
 *   1 CONST   one byte, 0 or 1: every value equals it (the common "flag never changes" block)
 *
 * The value count is stored by the caller; decoded values are exactly 0 or 1.
 */
import { ByteWriter, ByteReader } from './varint.js';

export const BOOL_PACKED = 0;
export const BOOL_CONST = 1;

export function appendBooleans(out: ByteWriter, values: Uint8Array, start: number, end: number): void {
  const n = end - start;
  const first = n > 0 && values[start] !== 0 ? 1 : 0;
  let same = true;
  for (let i = start; i < end && same; i++) same = (values[i] !== 0 ? 1 : 0) === first;
  if (same) {
    out.byte(BOOL_CONST);
    out.byte(first);
    return;
  }
  out.byte(BOOL_PACKED);
  const bytes = (n + 7) >>> 3;
  out.ensure(bytes);
  const b = out.buf;
  const p = out.len;
  b.fill(0, p, p + bytes);
  for (let i = 0; i < n; i++) if (values[start + i] !== 0) b[p + (i >>> 3)]! |= 1 << (i & 7);
  out.len = p + bytes;
}

export function encodeBooleans(values: Uint8Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(8 + (end - start) / 8);
  appendBooleans(w, values, start, end);
  return w.finish();
}

export function readBooleans(r: ByteReader, count: number, out?: Uint8Array): Uint8Array {
  const at = r.pos;
  const mode = r.byte();
  const o = out && out.length >= count ? out.subarray(0, count) : new Uint8Array(count);
  if (mode === BOOL_CONST) {
    const v = r.byte();
    if (v > 1) throw r.corrupt(`boolean constant ${v}`, at + 1);
    o.fill(v);
    return o;
  }
  if (mode !== BOOL_PACKED) throw r.corrupt(`unknown boolean encoding ${mode}`, at);
  const bytes = (count + 7) >>> 3;
  r.need(bytes);
  const b = r.buf;
  const p = r.pos;
  for (let i = 0; i < count; i++) o[i] = (b[p + (i >>> 3)]! >>> (i & 7)) & 1;
  r.pos = p + bytes;
  return o;
}

export function decodeBooleans(bytes: Uint8Array, count: number, out?: Uint8Array): Uint8Array {
  return readBooleans(new ByteReader(bytes), count, out);
}
