/**
 * String column encoding: length-prefixed UTF-8, LZ4-compressed when that is smaller.
 *
 *   u8 mode
 *   0 PLAIN  payload
 *   1 LZ4    lz4-napi compressSync(payload): 4-byte LE raw size + LZ4 block, up to the end
 *            of the section (this section is always last in a block, so it stores no length)
 *   payload = per string: uvarint byte length, UTF-8 bytes
 *
 * The value count is stored by the caller. Strings must be well-formed UTF-16: a lone
 * surrogate cannot be represented in UTF-8 and reads back as U+FFFD (line protocol input is
 * UTF-8, so stored strings never contain one).
 */
import { Buffer } from 'node:buffer';
import { compressSync, uncompressSync } from 'lz4-napi';
import { ByteWriter, ByteReader } from './varint.js';

export const STR_PLAIN = 0;
export const STR_LZ4 = 1;

const encoder = new TextEncoder();
const payload = new ByteWriter(4096);

export function appendStrings(out: ByteWriter, values: readonly string[], start: number, end: number): void {
  payload.len = 0;
  for (let i = start; i < end; i++) {
    const s = values[i]!;
    const n = Buffer.byteLength(s, 'utf8');
    payload.uvarint(n);
    payload.ensure(n);
    if (n > 0) encoder.encodeInto(s, payload.buf.subarray(payload.len, payload.len + n));
    payload.len += n;
  }
  const plain = payload.buf.subarray(0, payload.len);
  if (plain.length > 32) {
    const z = compressSync(Buffer.from(plain.buffer, plain.byteOffset, plain.length));
    if (z.length < plain.length) {
      out.byte(STR_LZ4);
      out.bytes(z);
      return;
    }
  }
  out.byte(STR_PLAIN);
  out.bytes(plain);
}

export function encodeStrings(values: readonly string[], start: number, end: number): Uint8Array {
  const w = new ByteWriter(64);
  appendStrings(w, values, start, end);
  return w.finish();
}

export function readStrings(r: ByteReader, count: number): string[] {
  const at = r.pos;
  const mode = r.byte();
  let src: ByteReader;
  if (mode === STR_PLAIN) {
    src = r;
  } else if (mode === STR_LZ4) {
    // LZ4 expands at most ~255:1; a larger declared size is a damaged prefix, and trusting it
    // would allocate gigabytes before failing.
    r.need(4);
    const b = r.buf;
    const declared = (b[r.pos]! | (b[r.pos + 1]! << 8) | (b[r.pos + 2]! << 16) | (b[r.pos + 3]! << 24)) >>> 0;
    if (declared > (r.end - r.pos) * 255 + 64) throw r.corrupt(`lz4: declared size ${declared} is implausible`, at + 1);
    let raw: Buffer;
    try {
      raw = uncompressSync(r.buf.subarray(r.pos, r.end));
    } catch (cause) {
      throw r.corrupt(`lz4: ${String(cause)}`, at + 1);
    }
    r.pos = r.end;
    src = new ByteReader(raw);
  } else {
    throw r.corrupt(`unknown string encoding ${mode}`, at);
  }
  const b = src.buf;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const n = src.uvarint();
    src.need(n);
    out[i] = buf.toString('utf8', src.pos, src.pos + n);
    src.pos += n;
  }
  return out;
}

export function decodeStrings(bytes: Uint8Array, count: number): string[] {
  return readStrings(new ByteReader(bytes), count);
}
