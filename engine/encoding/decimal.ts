/**
 * Decimal-scaled float encoding (in the spirit of ALP and VictoriaMetrics' decimal floats):
 * a block of readings like 21.3, 21.4, 21.35 is stored as integers m = v · 10^e.
 *
 *   u8       bit 7: packing (0 = simple8b, 1 = Huffman); bits 0..6: e, 0 ≤ e ≤ 18, every
 *            value is exactly m / 10^e (IEEE division, bit for bit)
 *   svarint  m[0]
 *   uvarint  g: greatest common divisor of the deltas m[i] − m[i−1] (0 when all are 0)
 *   if g > 0: zigzag((m[i] − m[i−1]) / g) for the count − 1 deltas, packed with simple8b or
 *            huffman.ts, whichever is smaller
 *
 * The count is stored by the caller. The dividing step g turns quantised readings (humidity in
 * 0.05 steps: m in steps of 5) into small integers.
 *
 * Applicability (no exceptions are stored): the encoder refuses the block, returning false,
 * unless every value round-trips bit-exactly through m / 10^e with |m| < 2^51 (so deltas and
 * their zigzag stay exact doubles). NaN, ±Inf, -0 and full-precision doubles therefore make
 * the block fall back to XOR or bit-pattern deltas (float-block.ts picks per block).
 */
import { ByteWriter, ByteReader, zigzag, unzigzag } from './varint.js';
import { unpackNumbers } from './simple8b.js';
import { readHuffman } from './huffman.js';
import { appendPacked, prefersHuffman } from './packing.js';

export const MAX_EXPONENT = 18;
const LIMIT = 2 ** 51;
const POW10: readonly number[] = Array.from({ length: MAX_EXPONENT + 1 }, (_, e) => 10 ** e);
const HUFFMAN = 0x80;
let mantissas = new Float64Array(1024);

/** m with m / 10^e === v (bit-exact), or NaN when there is none with |m| < 2^51. */
function mantissaAt(v: number, p: number): number {
  const m = Math.round(v * p);
  if (m / p !== v || m >= LIMIT || m <= -LIMIT) return NaN;
  // -0 compares equal to 0 but would decode as +0.
  if (m === 0 && 1 / v < 0) return NaN;
  return m;
}

/** m[i] = mantissaAt(values[start + i], p) for i < count; false when one has none. */
function mantissasAt(values: Float64Array, start: number, count: number, p: number, m: Float64Array): boolean {
  for (let i = 0; i < count; i++) {
    const x = mantissaAt(values[start + i]!, p);
    if (x !== x) return false;
    m[i] = x;
  }
  return true;
}

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/**
 * Appends the decimal encoding of values[start..end) and returns true, or appends nothing and
 * returns false when some value is not a short decimal.
 */
export function appendDecimals(out: ByteWriter, values: Float64Array, start: number, end: number): boolean {
  const n = end - start;
  if (n <= 0) {
    out.byte(0);
    out.svarint(0);
    out.uvarint(0);
    return true;
  }
  if (mantissas.length < n) mantissas = new Float64Array(n * 2);
  const m = mantissas;
  // The exponent only grows. Mantissas are kept as they are found: those from `stale` on were
  // computed at the final e; the ones before it fit a smaller e and are redone at the final one
  // (where one may still fail: then e grows and every value is redone).
  let e = 0;
  let p = 1;
  let stale = 0;
  for (let i = 0; i < n; i++) {
    const v = values[start + i]!;
    let x = mantissaAt(v, p);
    while (x !== x) {
      if (++e > MAX_EXPONENT) return false;
      p = POW10[e]!;
      x = mantissaAt(v, p);
      stale = i;
    }
    m[i] = x;
  }
  if (!mantissasAt(values, start, stale, p, m)) {
    for (;;) {
      if (++e > MAX_EXPONENT) return false;
      if (mantissasAt(values, start, n, POW10[e]!, m)) break;
    }
  }
  let g = 0;
  for (let i = n - 1; i > 0; i--) {
    const d = m[i]! - m[i - 1]!;
    m[i] = d;
    if (g !== 1 && d !== 0) g = gcd(d < 0 ? -d : d, g);
  }
  if (g === 0 || n === 1) {
    out.byte(e);
    out.svarint(m[0]!);
    out.uvarint(g);
    return true;
  }
  for (let i = 1; i < n; i++) m[i] = zigzag(m[i]! / g);
  const huffman = prefersHuffman(m, 1, n - 1);
  out.byte(huffman ? e | HUFFMAN : e);
  out.svarint(m[0]!);
  out.uvarint(g);
  appendPacked(out, m, 1, n - 1, huffman);
  return true;
}

/** Convenience: the encoded bytes, or null when the block is not decimal. */
export function encodeDecimals(values: Float64Array, start: number, end: number): Uint8Array | null {
  const w = new ByteWriter(32 + (end - start));
  return appendDecimals(w, values, start, end) ? w.finish() : null;
}

export function decodeDecimals(bytes: Uint8Array, count: number, out?: Float64Array): Float64Array {
  return readDecimals(new ByteReader(bytes), count, out);
}

export function readDecimals(r: ByteReader, count: number, out?: Float64Array): Float64Array {
  const at = r.pos;
  const head = r.byte();
  const e = head & ~HUFFMAN;
  if (e > MAX_EXPONENT) throw r.corrupt(`decimal exponent ${e} > ${MAX_EXPONENT}`, at);
  const m0 = r.svarint();
  const g = r.uvarint();
  const o = out && out.length >= count ? out.subarray(0, count) : new Float64Array(count);
  if (count === 0) return o;
  const p = POW10[e]!;
  o[0] = m0 / p;
  if (g === 0) {
    o.fill(o[0]!, 1);
    return o;
  }
  if (head & HUFFMAN) {
    readHuffman(r, o, 1, count - 1);
  } else {
    unpackNumbers(r, o, 1, count - 1);
  }
  let m = m0;
  for (let i = 1; i < count; i++) {
    m += unzigzag(o[i]!) * g;
    o[i] = m / p;
  }
  return o;
}
