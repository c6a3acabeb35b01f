/**
 * Exact int64/uint64 running sum with Go wrap-around. Stays in Float64 while the running sum is
 * a safe integer (every step then is exact: an exact result below 2^53 is representable) and
 * switches to BigInt for good the first time it leaves that range.
 */
import { canonInt, toBig } from '../value.js';
import type { IntValue } from '../value.js';

const MAX = Number.MAX_SAFE_INTEGER;

export class IntSum {
  private small = 0;
  private big: bigint | null = null;
  constructor(private readonly unsigned: boolean) {}

  private wrap(v: bigint): bigint {
    return this.unsigned ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v);
  }

  add(v: IntValue): void {
    if (this.big === null && typeof v === 'number') {
      const s = this.small + v;
      if (s <= MAX && s >= -MAX) {
        this.small = s;
        return;
      }
    }
    this.big = this.wrap((this.big ?? BigInt(this.small)) + toBig(v));
  }

  /** Add values[from..to) of an integer column. */
  addColumn(values: Float64Array | BigInt64Array | BigUint64Array, from: number, to: number): void {
    if (values instanceof Float64Array) {
      let s = this.small;
      let i = from;
      if (this.big === null) {
        for (; i < to; i++) {
          const n = s + (values[i] as number);
          if (n > MAX || n < -MAX) break;
          s = n;
        }
        this.small = s;
      }
      for (; i < to; i++) this.add(values[i] as number);
      return;
    }
    for (let i = from; i < to; i++) this.add(canonInt(values[i] as bigint));
  }

  /** The sum so far, canonical (number when safe, else bigint). */
  value(): IntValue {
    return this.big === null ? this.small : canonInt(this.big);
  }
}
