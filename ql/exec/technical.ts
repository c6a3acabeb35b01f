/**
 * The technical-analysis transforms of 1.6 (query/internal/gota there), over a time-ordered
 * stream of one series, float output at each input point's time:
 *
 *   exponential_moving_average, double_exponential_moving_average,
 *   triple_exponential_moving_average, relative_strength_index, triple_exponential_derivative
 *     (x, period[, hold_period[, warmup 'exponential'|'simple']])
 *   kaufmans_efficiency_ratio, kaufmans_adaptive_moving_average (x, period[, hold_period])
 *   chande_momentum_oscillator (x, period[, hold_period[, warmup 'none'|'exponential'|'simple']])
 *
 * Every point goes through the algorithm; a row is emitted once more than `hold_period` points
 * went in (default -1: the algorithm's warm-up count). The arithmetic follows gota's step by
 * step (same operation order), so results match 1.6.7 to the last bit; infinite results of
 * TRIX and Kaufman's functions are dropped as 1.x drops them.
 */
import { FieldType } from '../../engine/index.js';
import type { Scalar, TimedValue } from './value.js';
import { intToFloat } from './value.js';

/** EMA with gota's warm-up: a plain average ('simple') or a scaled alpha ('exponential'). */
class Ema {
  private count = 0;
  last = 0;
  constructor(
    private readonly period: number,
    private readonly simpleWarmup: boolean,
    private readonly alpha = 2 / (period + 1),
  ) {}
  warmed(): boolean {
    return this.count === this.period;
  }
  warmCount(): number {
    return this.period - 1;
  }
  add(v: number): number {
    let avg: number;
    if (this.count === 0) avg = v;
    else if (!this.warmed()) {
      if (this.simpleWarmup) avg = (this.last * this.count + v) / (this.count + 1);
      else avg = (v - this.last) * (2 / (this.count + 2)) + this.last;
    } else avg = (v - this.last) * this.alpha + this.last;
    this.last = avg;
    if (this.count < this.period) this.count++;
    return avg;
  }
}

interface Algorithm {
  add(v: number): number;
  warmCount(): number;
}

/** EMA of EMA (of EMA): the next stage starts once the one before is warm, or at once for 'exponential'. */
class EmaChain implements Algorithm {
  private readonly stages: Ema[];
  constructor(
    period: number,
    private readonly simple: boolean,
    depth: number,
    private readonly combine: (avgs: number[]) => number,
  ) {
    this.stages = Array.from({ length: depth }, () => new Ema(period, simple));
  }
  add(v: number): number {
    const avgs: number[] = [];
    let cur = v;
    for (let i = 0; i < this.stages.length; i++) {
      if (i === 0 || this.stages[i - 1]!.warmed() || !this.simple) cur = this.stages[i]!.add(cur);
      avgs.push(cur);
    }
    return this.combine(avgs);
  }
  warmCount(): number {
    const one = this.stages[0]!.warmCount();
    return this.simple ? one * this.stages.length : one;
  }
}

class Trix implements Algorithm {
  private readonly e1: Ema;
  private readonly e2: Ema;
  private readonly e3: Ema;
  private last = 0;
  private count = 0;
  constructor(period: number, private readonly simple: boolean) {
    this.e1 = new Ema(period, simple);
    this.e2 = new Ema(period, simple);
    this.e3 = new Ema(period, simple);
  }
  add(v: number): number {
    let cur = this.e1.add(v);
    if (this.e1.warmed() || !this.simple) {
      cur = this.e2.add(cur);
      if (this.e2.warmed() || !this.simple) cur = this.e3.add(cur);
    }
    const rate = (cur / this.last - 1) * 100;
    this.last = cur;
    if (this.count !== 2 && this.e3.warmed()) this.count++;
    return rate;
  }
  warmCount(): number {
    return this.simple ? this.e1.warmCount() * 3 + 1 : this.e1.warmCount() + 1;
  }
}

/** Up and down moves smoothed by EMAs of period + 1 with alpha 1/period (RSI, smoothed CMO). */
class UpDown implements Algorithm {
  private readonly up: Ema;
  private readonly down: Ema;
  private lastV = 0;
  constructor(
    period: number,
    simple: boolean,
    private readonly out: (up: number, down: number) => number,
  ) {
    this.up = new Ema(period + 1, simple, 1 / period);
    this.down = new Ema(period + 1, simple, 1 / period);
  }
  add(v: number): number {
    this.up.add(v > this.lastV ? v - this.lastV : 0);
    this.down.add(v < this.lastV ? this.lastV - v : 0);
    this.lastV = v;
    return this.out(this.up.last, this.down.last);
  }
  warmCount(): number {
    return this.up.warmCount();
  }
}

interface Move {
  price: number;
  diff: number;
}

/** A slot of a ring not written yet. */
const NO_MOVE: Move = Object.freeze({ price: 0, diff: 0 });

/**
 * A ring of `size` moves that starts out all zero. Slots are stored only once written: the
 * period is the user's (chande_momentum_oscillator(x, 1000000000)), and making every slot up
 * front took the server's heap before the first point was read.
 */
class MoveRing {
  private readonly slots: Move[] = [];
  constructor(readonly size: number) {}
  at(i: number): Move {
    return this.slots[i] ?? NO_MOVE;
  }
  set(i: number, m: Move): void {
    this.slots[i] = m;
  }
}

/** Kaufman's efficiency ratio over a ring of `period` moves. */
class Ker implements Algorithm {
  readonly points: MoveRing;
  private noise = 0;
  private count = 0;
  idx = 0;
  constructor(period: number) {
    this.points = new MoveRing(period);
  }
  warmed(): boolean {
    return this.count === this.points.size + 1;
  }
  warmCount(): number {
    return this.points.size;
  }
  add(v: number): number {
    const n = this.points.size;
    let oldest = this.idx + 1;
    if (oldest >= n) oldest = 0;
    const signal = Math.abs(v - this.points.at(oldest).price);
    const kp = { price: v, diff: Math.abs(v - this.points.at(this.idx).price) };
    this.noise -= this.points.at(oldest).diff;
    this.noise += kp.diff;
    this.idx = oldest;
    this.points.set(oldest, kp);
    if (!this.warmed()) this.count++;
    return signal === 0 || this.noise === 0 ? 0 : signal / this.noise;
  }
}

/** Go folds 2/(2+1) - 2/(30+1) as an exact constant: 56/93, rounded once. */
const KAMA_FAST_MINUS_SLOW = 56 / 93;
const KAMA_SLOW = 2 / 31;

class Kama implements Algorithm {
  private readonly ker: Ker;
  private last = 0;
  constructor(period: number) {
    this.ker = new Ker(period);
  }
  add(v: number): number {
    if (!this.ker.warmed()) this.last = this.ker.points.at(this.ker.idx).price;
    const er = this.ker.add(v);
    const sc = Math.pow(er * KAMA_FAST_MINUS_SLOW + KAMA_SLOW, 2);
    this.last = this.last + sc * (v - this.last);
    return this.last;
  }
  warmCount(): number {
    return this.ker.warmCount();
  }
}

/** Chande momentum oscillator over a ring of period - 1 moves (warmup 'none'). */
class Cmo implements Algorithm {
  private readonly points: MoveRing;
  private sumUp = 0;
  private sumDown = 0;
  private count = 0;
  private idx = 0;
  constructor(period: number) {
    this.points = new MoveRing(Math.max(1, period - 1));
  }
  add(v: number): number {
    let oldest = this.idx + 1;
    if (oldest === this.points.size) oldest = 0;
    let diff = 0;
    if (this.count !== 0) {
      diff = v - this.points.at(this.idx).price;
      if (diff > 0) this.sumUp += diff;
      else if (diff < 0) this.sumDown -= diff;
    }
    const out = this.sumUp !== 0 || this.sumDown !== 0 ? 100 * ((this.sumUp - this.sumDown) / (this.sumUp + this.sumDown)) : 0;
    const old = this.points.at(oldest);
    if (old.diff > 0) this.sumUp -= old.diff;
    else if (old.diff < 0) this.sumDown += old.diff;
    this.points.set(oldest, { price: v, diff });
    this.idx = oldest;
    if (this.count !== this.points.size + 2) this.count++;
    return out;
  }
  warmCount(): number {
    return this.points.size;
  }
}

export const TECHNICAL: ReadonlySet<string> = new Set([
  'exponential_moving_average', 'double_exponential_moving_average', 'triple_exponential_moving_average',
  'relative_strength_index', 'triple_exponential_derivative', 'kaufmans_efficiency_ratio',
  'kaufmans_adaptive_moving_average', 'chande_momentum_oscillator',
]);

/** Functions whose infinite results 1.x drops. */
const DROPS_INF: ReadonlySet<string> = new Set(['triple_exponential_derivative', 'kaufmans_efficiency_ratio', 'kaufmans_adaptive_moving_average']);

export interface TechnicalArgs {
  readonly period: number;
  /** -1: the algorithm's warm-up count. */
  readonly hold: number;
  /** 'exponential' (default), 'simple', or 'none' (chande_momentum_oscillator's default). */
  readonly warmup?: string;
}

function algorithm(name: string, a: TechnicalArgs): Algorithm {
  const simple = a.warmup === 'simple';
  switch (name) {
    case 'exponential_moving_average':
      return new EmaChain(a.period, simple, 1, ([x]) => x!);
    case 'double_exponential_moving_average':
      return new EmaChain(a.period, simple, 2, ([x, y]) => 2 * x! - y!);
    case 'triple_exponential_moving_average':
      return new EmaChain(a.period, simple, 3, ([x, y, z]) => 3 * x! - 3 * y! + z!);
    case 'relative_strength_index':
      return new UpDown(a.period, simple, (up, down) => 100 - 100 / (1 + up / down));
    case 'triple_exponential_derivative':
      return new Trix(a.period, simple);
    case 'kaufmans_efficiency_ratio':
      return new Ker(a.period);
    case 'kaufmans_adaptive_moving_average':
      return new Kama(a.period);
    default: // chande_momentum_oscillator
      return a.warmup === undefined || a.warmup === 'none' ? new Cmo(a.period) : new UpDown(a.period, simple, (up, down) => 100 * ((up - down) / (up + down)));
  }
}

/** A stream transform: one float row per input point once the hold period has passed. */
export class TechnicalTransform {
  readonly outputType = FieldType.Float;
  private readonly alg: Algorithm;
  private readonly hold: number;
  private readonly dropsInf: boolean;
  private count = 0;
  constructor(
    readonly name: string,
    args: TechnicalArgs,
  ) {
    this.alg = algorithm(name, args);
    this.hold = args.hold === -1 ? this.alg.warmCount() : args.hold;
    this.dropsInf = DROPS_INF.has(name);
  }
  push(time: bigint, value: Scalar): TimedValue | null {
    const x = typeof value === 'number' ? value : intToFloat(value as bigint);
    const v = this.alg.add(x);
    this.count++;
    if (this.count <= this.hold) return null;
    if (this.dropsInf && (v === Infinity || v === -Infinity)) return null;
    return { time, value: v };
  }
}
