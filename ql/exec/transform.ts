/**
 * Transforms over a time-ordered stream of one series, as the 1.x stream reducers compute them:
 * derivative, non_negative_derivative, difference, non_negative_difference, moving_average,
 * cumulative_sum and elapsed. Input values that are null (empty windows of an aggregate) are
 * skipped, as 1.x does; every transform emits at most one row per input point, with that
 * point's time.
 *
 * - derivative(x[, unit]): (v - prev) / ((t - prevT) / unit), float. The unit defaults to 1s
 *   without GROUP BY time and to the GROUP BY interval with it (`derivativeUnit`). The first
 *   point only primes the state; a point with the same time as the current one is ignored.
 *   ORDER BY time DESC negates the elapsed time, so the rate keeps its sign convention.
 *   non_negative_derivative drops negative differences.
 * - difference(x): v - prev in the input type (integers wrap like Go); non_negative_difference
 *   drops negative ones. Same-time points are ignored like derivative.
 * - moving_average(x, N): mean of the last N values (float), from the N-th point on. The
 *   float window sum is maintained incrementally (sum -= old; sum += new) exactly as 1.x.
 * - cumulative_sum(x): running sum in the input type.
 * - elapsed(x[, unit]): (t - prevT) / unit truncated toward zero, integer, every input type,
 *   unit default 1ns; negative under ORDER BY time DESC.
 */
import { MIN_TIME } from './window.js';
import { FieldType } from '../../engine/index.js';
import { UnsupportedTypeError } from './errors.js';
import { addInt, intToFloat, isNumericType, subInt } from './value.js';
import type { IntValue, Scalar, TimedValue } from './value.js';
import { TechnicalTransform, type TechnicalArgs } from './technical.js';

export type TransformName =
  | 'derivative'
  | 'non_negative_derivative'
  | 'difference'
  | 'non_negative_difference'
  | 'moving_average'
  | 'cumulative_sum'
  | 'elapsed'
  | 'exponential_moving_average'
  | 'double_exponential_moving_average'
  | 'triple_exponential_moving_average'
  | 'relative_strength_index'
  | 'triple_exponential_derivative'
  | 'kaufmans_efficiency_ratio'
  | 'kaufmans_adaptive_moving_average'
  | 'chande_momentum_oscillator';

export interface TransformArgs {
  /** derivative/elapsed unit in ns. */
  unitNs?: bigint;
  /** moving_average window size. */
  n?: number;
  /** ORDER BY time DESC (points arrive newest first). */
  descending?: boolean;
  /** The technical-analysis functions' period, hold period and warm-up (technical.ts). */
  technical?: TechnicalArgs;
}

export interface Transform {
  readonly name: TransformName;
  readonly outputType: FieldType;
  /** Feed the next point; returns the row it produces, if any. */
  push(time: bigint, value: Scalar): TimedValue | null;
}

const ERROR_NAMES: Readonly<Record<TransformName, string>> = {
  derivative: 'derivative',
  non_negative_derivative: 'derivative',
  difference: 'difference',
  non_negative_difference: 'difference',
  moving_average: 'moving average',
  cumulative_sum: 'cumulative sum',
  elapsed: 'elapsed',
  exponential_moving_average: 'exponential moving average',
  double_exponential_moving_average: 'double exponential moving average',
  triple_exponential_moving_average: 'triple exponential moving average',
  relative_strength_index: 'relative strength index',
  triple_exponential_derivative: 'triple exponential derivative',
  kaufmans_efficiency_ratio: 'kaufmans efficiency ratio',
  kaufmans_adaptive_moving_average: 'kaufmans adaptive moving average',
  chande_momentum_oscillator: 'chande momentum oscillator',
};

/**
 * How many GROUP BY intervals 1.x reads *before* the query's lower bound (after its upper
 * bound under ORDER BY time DESC) when the transform is applied to an aggregate: 1 for every
 * transform except cumulative_sum (0) — also 1 for moving_average whatever its N. The query's
 * start moves back by that much (not to a window boundary: the extra window may be partial),
 * those windows are aggregated and filled like the others, and the first one only primes the
 * transform, so no output row falls before the original bounds. Observed on influxd 1.6.7.
 */
export function lookbackIntervals(name: TransformName): number {
  return name === 'cumulative_sum' ? 0 : 1;
}

/** derivative's unit: its argument, else the GROUP BY time interval, else 1s. */
export function derivativeUnit(explicit?: bigint, groupByInterval?: bigint): bigint {
  return explicit ?? (groupByInterval !== undefined && groupByInterval > 0n ? groupByInterval : 1_000_000_000n);
}

type Num = number | bigint;

class Derivative implements Transform {
  readonly outputType = FieldType.Float;
  private has = false;
  private t = 0n;
  private v: Num = 0;
  constructor(
    readonly name: TransformName,
    private readonly type: FieldType,
    private readonly unit: number,
    private readonly desc: boolean,
  ) {}
  push(time: bigint, value: Scalar): TimedValue | null {
    const v = value as Num;
    if (this.has && time === this.t) return null;
    const had = this.has;
    const [pt, pv] = [this.t, this.v];
    this.has = true;
    this.t = time;
    this.v = v;
    if (!had) return null;
    let diff: number;
    if (this.type === FieldType.Float) diff = (v as number) - (pv as number);
    else if (this.type === FieldType.Unsigned) diff = v > pv ? intToFloat(subInt(v, pv, true)) : -intToFloat(subInt(pv, v, true));
    else diff = intToFloat(subInt(v, pv, false));
    // Go's int64: across a fill row that wrapped (fill.ts, the clamped first window) the span wraps too.
    let elapsed = BigInt.asIntN(64, time - pt);
    if (this.desc) elapsed = -elapsed;
    const rate = diff / (Number(elapsed) / this.unit);
    if (this.name === 'non_negative_derivative' && diff < 0) return null;
    return { time, value: rate };
  }
}

class Difference implements Transform {
  readonly outputType: FieldType;
  private has = false;
  private t = 0n;
  private v: Num = 0;
  constructor(
    readonly name: TransformName,
    private readonly type: FieldType,
  ) {
    this.outputType = type;
  }
  push(time: bigint, value: Scalar): TimedValue | null {
    const v = value as Num;
    if (this.has && time === this.t) return null;
    const had = this.has;
    const pv = this.v;
    this.has = true;
    this.t = time;
    this.v = v;
    if (!had) return null;
    const nonNeg = this.name === 'non_negative_difference';
    if (this.type === FieldType.Float) {
      const d = (v as number) - (pv as number);
      return nonNeg && d < 0 ? null : { time, value: d };
    }
    // Unsigned differences never show a sign; an int64 difference is tested after it wraps (Go).
    if (nonNeg && this.type === FieldType.Unsigned && v < pv) return null;
    const d = subInt(v, pv, this.type === FieldType.Unsigned);
    return nonNeg && d < 0 ? null : { time, value: d };
  }
}

class MovingAverage implements Transform {
  readonly name = 'moving_average';
  readonly outputType = FieldType.Float;
  private readonly buf: Num[] = [];
  private pos = 0;
  private fsum = 0;
  private isum: IntValue = 0;
  constructor(
    private readonly type: FieldType,
    private readonly n: number,
  ) {}
  push(time: bigint, value: Scalar): TimedValue | null {
    const v = value as Num;
    const isFloat = this.type === FieldType.Float;
    const unsigned = this.type === FieldType.Unsigned;
    if (this.buf.length !== this.n) this.buf.push(v);
    else {
      const old = this.buf[this.pos] as Num;
      if (isFloat) this.fsum -= old as number;
      else this.isum = subInt(this.isum, old as IntValue, unsigned);
      this.buf[this.pos] = v;
    }
    if (isFloat) this.fsum += v as number;
    else this.isum = addInt(this.isum, v as IntValue, unsigned);
    this.pos++;
    if (this.pos >= this.n) this.pos = 0;
    if (this.buf.length !== this.n) return null;
    const sum = isFloat ? this.fsum : intToFloat(this.isum);
    return { time, value: sum / this.buf.length };
  }
}

class CumulativeSum implements Transform {
  readonly name = 'cumulative_sum';
  readonly outputType: FieldType;
  private fsum = 0;
  private isum: IntValue = 0;
  constructor(private readonly type: FieldType) {
    this.outputType = type;
  }
  push(time: bigint, value: Scalar): TimedValue | null {
    if (this.type === FieldType.Float) {
      this.fsum += value as number;
      return { time, value: this.fsum };
    }
    this.isum = addInt(this.isum, value as IntValue, this.type === FieldType.Unsigned);
    return { time, value: this.isum };
  }
}

class Elapsed implements Transform {
  readonly name = 'elapsed';
  readonly outputType = FieldType.Integer;
  private prev: bigint | null = null;
  constructor(private readonly unit: bigint) {}
  push(time: bigint, _value: Scalar): TimedValue | null {
    const p = this.prev;
    this.prev = time;
    if (p === null) return null;
    const e = BigInt.asIntN(64, BigInt.asIntN(64, time - p) / this.unit);
    return { time, value: e >= -9007199254740991n && e <= 9007199254740991n ? Number(e) : e };
  }
}

/** 1.x refuses a transform of a string or boolean input (elapsed takes any type). */
export function checkTransformInput(name: TransformName, inputType: FieldType, iterator?: 'Interval' | 'Reduce'): void {
  if (name !== 'elapsed' && !isNumericType(inputType)) throw new UnsupportedTypeError(ERROR_NAMES[name], inputType, iterator);
}

/** Build a transform for an input field type; unsupported types throw the 1.x error. */
export function createTransform(name: TransformName, inputType: FieldType, args: TransformArgs = {}): Transform {
  checkTransformInput(name, inputType);
  switch (name) {
    case 'derivative':
    case 'non_negative_derivative':
      return new Derivative(name, inputType, Number(args.unitNs ?? 1_000_000_000n), args.descending === true);
    case 'difference':
    case 'non_negative_difference':
      return new Difference(name, inputType);
    case 'moving_average':
      return new MovingAverage(inputType, Math.max(1, Math.trunc(args.n ?? 1)));
    case 'cumulative_sum':
      return new CumulativeSum(inputType);
    case 'elapsed':
      return new Elapsed(args.unitNs !== undefined && args.unitNs > 0n ? args.unitNs : 1n);
    default:
      return new TechnicalTransform(name, args.technical ?? { period: 2, hold: -1 }) as Transform;
  }
}

/** Run a transform over a whole stream; null input values are skipped. */
export function runTransform(t: Transform, rows: Iterable<TimedValue>): TimedValue[] {
  const out: TimedValue[] = [];
  for (const r of rows) {
    if (r.value === null) continue;
    // 1.x's transform sees the clamped first window at 0 (window.ts windowTime: derivative() and
    // elapsed() over it under ORDER BY time DESC); its row keeps the window's key here.
    const clamped = r.time === MIN_TIME;
    const o = t.push(clamped ? 0n : r.time, r.value);
    if (o !== null) out.push(clamped && o.time === 0n ? { ...o, time: MIN_TIME } : o);
  }
  return out;
}
