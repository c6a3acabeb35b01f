/**
 * Float encoding by integer deltas of the IEEE-754 bit patterns. Lossless bit for bit (NaN
 * payloads, ±Inf, -0 included) because it only does 64-bit integer arithmetic on the bits.
 *
 * Why: for doubles of one sign the bit pattern is monotonic in the value, so a random walk
 * (v[i] = v[i−1] + noise) has pattern deltas of ≈ log2(noise / ulp) bits. XOR pays for carries
 * rippling through the mantissa and for rounding its leading-zero count; the delta does not.
 * On TSBS full-precision cpu data this is ~50 bits/value against ~53 for Chimp.
 *
 * Bit stream (bitstream.ts, MSB first); the value count is stored by the caller:
 *   first value     64 raw bits
 *   ref             7 bits, 0..64: the most economical reference length for the block
 *   per next value  z = zigzag64(bits(v[i]) − bits(v[i−1]) mod 2^64), L = bit length of z
 *                   gamma(zigzag(L − ref) + 1)   Elias gamma: N zeros, then the N+1-bit number
 *                   the low L − 1 bits of z      (its top bit is implied by L; none if L ≤ 1)
 */
import { ByteWriter, ByteReader } from './varint.js';
import { InvariantError } from '../errors.js';
import { BitWriter, paddedCopy, window32 } from './bitstream.js';

let zs = new Uint32Array(2048);
let lens = new Uint8Array(1024);
const hist = new Float64Array(65);
const present = new Uint8Array(65);

function gammaBits(k: number): number {
  return 2 * (31 - Math.clz32(k)) + 1;
}

function zz(x: number): number {
  return (x << 1) ^ (x >> 31);
}

function halvesOf(a: Float64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
}

/** Scratch of the last planFloatDeltas call, consumed by writeFloatDeltas. */
interface Plan {
  values: Float64Array;
  start: number;
  end: number;
  ref: number;
}
let planned: Plan = { values: new Float64Array(0), start: 0, end: 0, ref: 0 };

/**
 * Computes the deltas and the reference length of values[start..end) and returns the exact
 * encoded size in bytes; writeFloatDeltas then writes it without recomputing. Split so that
 * float-block.ts can compare sizes before paying for the bit writing.
 */
export function planFloatDeltas(values: Float64Array, start: number, end: number): number {
  const n = end - start;
  planned = { values, start, end, ref: 0 };
  if (n <= 1) return 8 * n;
  const h = halvesOf(values);
  let plo = h[2 * start]!;
  let phi = h[2 * start + 1]!;
  if (lens.length < n) {
    lens = new Uint8Array(n * 2);
    zs = new Uint32Array(n * 4);
  }
  hist.fill(0);
  let payload = 0;
  for (let i = 1; i < n; i++) {
    const lo = h[2 * (start + i)]!;
    const hi = h[2 * (start + i) + 1]!;
    const dlo = (lo - plo) >>> 0;
    const dhi = (hi - phi - (lo < plo ? 1 : 0)) | 0;
    plo = lo;
    phi = hi;
    const s = dhi >> 31;
    const zlo = ((dlo << 1) ^ s) >>> 0;
    const zhi = (((dhi << 1) | (dlo >>> 31)) ^ s) >>> 0;
    zs[2 * i] = zlo;
    zs[2 * i + 1] = zhi;
    const len = zhi !== 0 ? 64 - Math.clz32(zhi) : 32 - Math.clz32(zlo);
    lens[i] = len;
    hist[len]!++;
    if (len > 1) payload += len - 1;
  }
  // Only the lengths that occur (a handful per block) enter the 65 candidate costs: scanning
  // all 65 × 65 pairs cost more than the pass over the values for blocks of a few hundred.
  let kinds = 0;
  for (let len = 0; len <= 64; len++) if (hist[len] !== 0) present[kinds++] = len;
  let best = Infinity;
  for (let r = 0; r <= 64; r++) {
    let cost = 0;
    for (let k = 0; k < kinds; k++) {
      const len = present[k]!;
      cost += hist[len]! * gammaBits(zz(len - r) + 1);
    }
    if (cost < best) {
      best = cost;
      planned.ref = r;
    }
  }
  return Math.ceil((71 + best + payload) / 8);
}

/** Writes the block planned by the last planFloatDeltas call (same arguments). */
export function writeFloatDeltas(out: ByteWriter, values: Float64Array, start: number, end: number): void {
  const n = end - start;
  if (n <= 0) return;
  if (planned.values !== values || planned.start !== start || planned.end !== end) {
    throw new InvariantError('writeFloatDeltas without a matching planFloatDeltas');
  }
  const h = halvesOf(values);
  const bw = new BitWriter(out);
  bw.write(h[2 * start + 1]!, 32);
  bw.write(h[2 * start]!, 32);
  if (n > 1) {
    const ref = planned.ref;
    bw.write(ref, 7);
    for (let i = 1; i < n; i++) {
      const len = lens[i]!;
      const k = zz(len - ref) + 1;
      bw.write(k, gammaBits(k));
      const b = len - 1;
      if (b > 32) {
        bw.write(zs[2 * i + 1]! ^ (1 << (b - 32)), b - 32);
        bw.write(zs[2 * i]!, 32);
      } else if (b === 32) {
        bw.write(zs[2 * i]!, 32);
      } else if (b > 0) {
        bw.write(zs[2 * i]! ^ (1 << b), b);
      }
    }
  }
  bw.flush();
}

export function appendFloatDeltas(out: ByteWriter, values: Float64Array, start: number, end: number): void {
  planFloatDeltas(values, start, end);
  writeFloatDeltas(out, values, start, end);
}

export function encodeFloatDeltas(values: Float64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(16 + (end - start) * 8);
  appendFloatDeltas(w, values, start, end);
  return w.finish();
}

export function readFloatDeltas(r: ByteReader, count: number, out?: Float64Array): Float64Array {
  const o = out && out.length >= count ? out.subarray(0, count) : new Float64Array(count);
  if (count === 0) return o;
  const b = paddedCopy(r.buf, r.pos, r.end);
  const endBit = (r.end - r.pos) * 8;
  if (endBit < 64 + (count > 1 ? 7 : 0)) throw r.corrupt('float delta: truncated header');
  const h = halvesOf(o);
  let phi = window32(b, 0) >>> 0;
  let plo = window32(b, 32) >>> 0;
  h[0] = plo;
  h[1] = phi;
  const ref = count > 1 ? window32(b, 64) >>> 25 : 0;
  let p = 71;
  for (let i = 1; i < count; i++) {
    const g = window32(b, p);
    const zeros = Math.clz32(g);
    if (zeros > 15) throw r.corrupt('float delta: bad length code', r.pos + (p >>> 3));
    const glen = 2 * zeros + 1;
    const k = (g >>> (32 - glen)) - 1;
    p += glen;
    const len = ref + ((k >>> 1) ^ -(k & 1));
    if (len < 0 || len > 64) throw r.corrupt(`float delta: length ${len}`, r.pos + (p >>> 3));
    const nb = len - 1;
    let zlo = 0;
    let zhi = 0;
    if (nb > 32) {
      zhi = (window32(b, p) >>> (64 - nb)) | (1 << (nb - 32));
      zlo = window32(b, p + nb - 32);
      p += nb;
    } else if (nb === 32) {
      zhi = 1;
      zlo = window32(b, p);
      p += 32;
    } else if (nb > 0) {
      zlo = (window32(b, p) >>> (32 - nb)) | (1 << nb);
      p += nb;
    } else if (nb === 0) {
      zlo = 1;
    }
    if (p > endBit) throw r.corrupt('float delta: truncated', r.end);
    const m = -(zlo & 1);
    const dlo = (((zlo >>> 1) | (zhi << 31)) ^ m) >>> 0;
    const dhi = (zhi >>> 1) ^ m;
    const nlo = (plo + dlo) >>> 0;
    phi = (phi + dhi + (nlo < plo ? 1 : 0)) >>> 0;
    plo = nlo;
    h[2 * i] = plo;
    h[2 * i + 1] = phi;
  }
  r.pos += (p + 7) >>> 3;
  return o;
}

export function decodeFloatDeltas(bytes: Uint8Array, count: number, out?: Float64Array): Float64Array {
  return readFloatDeltas(new ByteReader(bytes), count, out);
}
