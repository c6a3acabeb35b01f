/**
 * Request ids: time-based (version 1) UUIDs, as 1.x sends (its `uuid.TimeUUID()`). The clock
 * sequence and node fields are drawn at random once per process (the node with its multicast
 * bit set, as RFC 4122 asks of a node that is not a MAC address), so their text is made once;
 * each id only formats its 60-bit timestamp. Why: `randomUUID` formats 16 random bytes per
 * call and was 4-8 % of a small query's handler while the process is young (its code runs in
 * the interpreter for the first thousands of requests). Ids are unique within the process
 * because the timestamp is strictly increasing (a call within the same 100 ns tick as the
 * previous one takes the next tick), and across processes through the random 62 bits.
 */
import { randomBytes } from 'node:crypto';

/** Milliseconds from the Gregorian epoch (1582-10-15, the UUID clock's zero) to 1970-01-01. */
const GREGORIAN_OFFSET_MS = 12_219_292_800_000;
const TWO_32 = 0x1_0000_0000;

/** Two hex digits of each byte. Why not Number#toString(16): the 32-bit time field is not a small integer, and V8 formats those in its slow radix path (~0.5 us a call warm, ~10 us for the three fields beside a young server's other work). */
const HEX2: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

/** `x` (below 2^32) as 8 hex digits. */
function hex8(x: number): string {
  return HEX2[x >>> 24]! + HEX2[(x >>> 16) & 255]! + HEX2[(x >>> 8) & 255]! + HEX2[x & 255]!;
}

/** `-ssss-nnnnnnnnnnnn`: the variant bits and random clock sequence, then the random node with the multicast bit. */
function randomTail(): string {
  const r = randomBytes(8);
  const seq = (((r[0]! << 8) | r[1]!) & 0x3fff) | 0x8000;
  r[2] = r[2]! | 0x01;
  return `-${hex(seq, 4)}-${r.subarray(2, 8).toString('hex')}`;
}

export class RequestIds {
  readonly #tail = randomTail();
  /** The last timestamp handed out, in 100 ns ticks since the Gregorian epoch, as ms and the ticks within that ms. */
  #ms = 0;
  #tick = 0;

  constructor(private readonly nowMs: () => number = Date.now) {}

  next(): string {
    const ms = this.nowMs() + GREGORIAN_OFFSET_MS;
    if (ms > this.#ms) {
      this.#ms = ms;
      this.#tick = 0;
    } else if (++this.#tick === 10_000) {
      // 10,000 ids within one ms (or the clock went back): borrow the next ms.
      this.#ms++;
      this.#tick = 0;
    }
    // ticks = ms * 10,000 + tick, a 60-bit value: split at 32 bits without leaving the safe integers.
    const msHigh = Math.floor(this.#ms / TWO_32);
    const lowPart = (this.#ms - msHigh * TWO_32) * 10_000 + this.#tick;
    const carry = Math.floor(lowPart / TWO_32);
    const timeLow = lowPart - carry * TWO_32;
    const timeHigh = msHigh * 10_000 + carry; // 28 bits: time_mid (16) and time_hi (12)
    const hi12 = (timeHigh >>> 16) & 0xfff;
    return `${hex8(timeLow)}-${HEX2[(timeHigh >>> 8) & 255]!}${HEX2[timeHigh & 255]!}-1${HEX2[hi12 >>> 8]!.slice(1)}${HEX2[hi12 & 255]!}${this.#tail}`;
  }
}
