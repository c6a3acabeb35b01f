/**
 * XOR float encoding, Chimp variant (Liakos et al., VLDB 2022) of Gorilla. Lossless bit for
 * bit: it works on the IEEE-754 bit patterns, so NaN payloads, ±Inf and -0 survive.
 *
 * Bit stream (bitstream.ts, MSB first); the value count is stored by the caller:
 *   first value: 64 raw bits
 *   then x = bits(v[i]) XOR bits(v[i-1]), with lead = clz(x) rounded down to one of
 *   {0, 8, 12, 16, 18, 20, 22, 24} (3-bit code) and trail = ctz(x):
 *     '00'                                        x = 0 (repeated value)
 *     '01' lead:3 len:6 x>>>trail:len             trail > 6; len = 64 − lead − trail
 *     '10' x:(64 − lead)                          lead equals the previous '11' lead
 *     '11' lead:3 x:(64 − lead)                   otherwise; remembers lead
 *   A '01' forgets the remembered lead, as in the reference Chimp implementation.
 *
 * Compared with Gorilla's XOR (InfluxDB 1.x), Chimp spends fewer control bits on noisy
 * full-precision data, where trailing zeros are rare and the leading-zero count jitters.
 */
import { ByteWriter, ByteReader } from './varint.js';
import { BitWriter, paddedCopy, window32 } from './bitstream.js';

/** Rounded-down lead for each clz 0..64, and the 3-bit code of each rounded lead. */
const ROUND = new Uint8Array(65);
const CODE = new Uint8Array(25);
const LEAD_OF_CODE = [0, 8, 12, 16, 18, 20, 22, 24] as const;
for (let c = 0; c < 8; c++) CODE[LEAD_OF_CODE[c]!] = c;
for (let z = 0; z <= 64; z++) {
  let c = 7;
  while (LEAD_OF_CODE[c]! > z) c--;
  ROUND[z] = LEAD_OF_CODE[c]!;
}

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

function halvesOf(a: Float64Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
}

export function encodeFloats(values: Float64Array, start: number, end: number): Uint8Array {
  const w = new ByteWriter(16 + (end - start) * 8);
  appendFloats(w, values, start, end);
  return w.finish();
}

/** Exact size in bytes of appendFloats' output, without writing it (for float-block.ts). */
export function floatsSize(values: Float64Array, start: number, end: number): number {
  if (end <= start) return 0;
  const h = halvesOf(values);
  let plo = h[2 * start]!;
  let phi = h[2 * start + 1]!;
  let bits = 64;
  let storedLead = 65;
  for (let i = start + 1; i < end; i++) {
    const lo = h[2 * i]!;
    const hi = h[2 * i + 1]!;
    const xlo = (lo ^ plo) >>> 0;
    const xhi = (hi ^ phi) >>> 0;
    plo = lo;
    phi = hi;
    if ((xlo | xhi) === 0) {
      bits += 2;
      continue;
    }
    const lead = ROUND[xhi !== 0 ? Math.clz32(xhi) : 32 + Math.clz32(xlo)]!;
    const trail = xlo !== 0 ? ctz32(xlo) : 32 + ctz32(xhi);
    if (trail > 6) {
      bits += 11 + 64 - lead - trail;
      storedLead = 65;
    } else if (lead === storedLead) {
      bits += 66 - lead;
    } else {
      bits += 69 - lead;
      storedLead = lead;
    }
  }
  return Math.ceil(bits / 8);
}

export function appendFloats(out: ByteWriter, values: Float64Array, start: number, end: number): void {
  if (end <= start) return;
  const h = halvesOf(values);
  const bw = new BitWriter(out);
  let plo = h[2 * start]!;
  let phi = h[2 * start + 1]!;
  bw.write(phi, 32);
  bw.write(plo, 32);
  let storedLead = 65;
  for (let i = start + 1; i < end; i++) {
    const lo = h[2 * i]!;
    const hi = h[2 * i + 1]!;
    const xlo = (lo ^ plo) >>> 0;
    const xhi = (hi ^ phi) >>> 0;
    plo = lo;
    phi = hi;
    if ((xlo | xhi) === 0) {
      bw.write(0, 2);
      continue;
    }
    const lead = ROUND[xhi !== 0 ? Math.clz32(xhi) : 32 + Math.clz32(xlo)]!;
    const trail = xlo !== 0 ? ctz32(xlo) : 32 + ctz32(xhi);
    if (trail > 6) {
      const len = 64 - lead - trail;
      bw.write((0b01 << 9) | (CODE[lead]! << 6) | len, 11);
      if (trail >= 32) {
        bw.write(xhi >>> (trail - 32), len);
      } else {
        const slo = ((xlo >>> trail) | (xhi << (32 - trail))) >>> 0;
        if (len > 32) {
          bw.write(xhi >>> trail, len - 32);
          bw.write(slo, 32);
        } else {
          bw.write(slo, len);
        }
      }
      storedLead = 65;
    } else {
      if (lead === storedLead) {
        bw.write(0b10, 2);
      } else {
        bw.write((0b11 << 3) | CODE[lead]!, 5);
        storedLead = lead;
      }
      bw.write(xhi, 32 - lead);
      bw.write(xlo, 32);
    }
  }
  bw.flush();
}

export function decodeFloats(bytes: Uint8Array, count: number, out?: Float64Array): Float64Array {
  return readFloats(new ByteReader(bytes), count, out);
}

/** Decodes `count` values; advances `r` past the stream's last (padded) byte. */
export function readFloats(r: ByteReader, count: number, out?: Float64Array): Float64Array {
  const o = out && out.length >= count ? out.subarray(0, count) : new Float64Array(count);
  if (count === 0) return o;
  const h = halvesOf(o);
  const b = paddedCopy(r.buf, r.pos, r.end);
  const endBit = (r.end - r.pos) * 8;
  if (endBit < 64) throw r.corrupt('float stream truncated');
  let phi = window32(b, 0);
  let plo = window32(b, 32);
  h[0] = plo;
  h[1] = phi;
  let p = 64;
  let storedLead = 65;
  for (let i = 1; i < count; i++) {
    const w = window32(b, p);
    const flag = w >>> 30;
    if (flag === 1) {
      const lead = LEAD_OF_CODE[(w >>> 27) & 7]!;
      const len = (w >>> 21) & 63;
      const trail = 64 - lead - len;
      p += 11;
      let shi = 0;
      let slo: number;
      if (len > 32) {
        shi = window32(b, p) >>> (64 - len);
        slo = window32(b, p + len - 32);
      } else {
        slo = window32(b, p) >>> (32 - len);
      }
      p += len;
      if (trail >= 32) {
        phi ^= slo << (trail - 32);
      } else if (trail > 0) {
        plo ^= slo << trail;
        phi ^= (shi << trail) | (slo >>> (32 - trail));
      } else {
        plo ^= slo;
        phi ^= shi;
      }
      storedLead = 65;
    } else if (flag !== 0) {
      if (flag === 3) {
        storedLead = LEAD_OF_CODE[(w >>> 27) & 7]!;
        p += 5;
      } else {
        if (storedLead === 65) throw r.corrupt('float stream reuses a lead before setting one', r.pos + (p >>> 3));
        p += 2;
      }
      const hiBits = 32 - storedLead;
      phi ^= window32(b, p) >>> (32 - hiBits);
      plo ^= window32(b, p + hiBits);
      p += 64 - storedLead;
    } else {
      p += 2;
    }
    if (p > endBit) throw r.corrupt('float stream truncated', r.end);
    h[2 * i] = plo;
    h[2 * i + 1] = phi;
  }
  r.pos += (p + 7) >>> 3;
  return o;
}
