/**
 * holt_winters(agg, N, S) and holt_winters_with_fit(agg, N, S): 1.x's damped multiplicative
 * Holt-Winters forecast over a series of GROUP BY time aggregates (query/functions.go
 * HoltWintersReducer in 1.6). The aggregates are placed on the interval grid (NaN for missing
 * windows), alpha/beta/gamma/phi are fitted by Nelder-Mead from a 2⁴ grid of starting guesses,
 * and N points are forecast after the last aggregate (with_fit: the fitted values too, from the
 * first aggregate's time on). S < 2 means no seasonality.
 *
 * 1.x's arithmetic is reproduced operation for operation, quirks included: the recursion feeds
 * each forecast (not the observation) into the next step, and the objective clamps and updates
 * the seasonal factors of the parameter vector it is given, so the optimiser's path (and the
 * printed digits) match 1.6.7.
 */
import { goPow } from './go-pow.js';
import { nelderMead } from './nelder-mead.js';
import { QueryError } from './errors.js';
import { MAX_SELECT_BUCKETS } from './window.js';

/** Weight of the first observations in the starting level and trend. */
const WEIGHT = 0.5;
const EPSILON = 1.0e-4;
const GUESS_LOWER = 0.3;
const GUESS_UPPER = 1.0;
const GUESS_STEP = 0.4;

export interface HoltWintersArgs {
  /** Points to forecast (N > 0). */
  readonly h: number;
  /** Season length (S; seasonal when ≥ 2). */
  readonly m: number;
  readonly withFit: boolean;
  /** The GROUP BY time interval in ns. */
  readonly interval: bigint;
}

export interface ForecastPoint {
  readonly time: bigint;
  readonly value: number;
}

/** Go's truncated division rounding of a time to the interval grid (half rounds down). */
function roundTime(t: bigint, interval: bigint): bigint {
  const rem = t % interval;
  return rem > interval / 2n ? (t / interval + 1n) * interval : (t / interval) * interval;
}

/** The aggregates on the interval grid: later points of an already filled slot are dropped. */
function onGrid(points: readonly ForecastPoint[], interval: bigint): number[] {
  const y = [points[0]!.value];
  let t = roundTime(points[0]!.time, interval);
  for (let i = 1; i < points.length; i++) {
    const rounded = roundTime(points[i]!.time, interval);
    if (rounded <= t) continue;
    t += interval;
    for (; rounded !== t; t += interval) y.push(NaN);
    y.push(points[i]!.value);
  }
  return y;
}

class Model {
  constructor(
    private readonly y: readonly number[],
    private readonly seasonal: boolean,
  ) {}

  /** Clamp alpha, beta, gamma and phi to [0, 1], in place. */
  private static constrain(x: number[]): void {
    for (let i = 0; i < 4; i++) {
      if (x[i]! > 1) x[i] = 1;
      if (x[i]! < 0) x[i] = 0;
    }
  }

  /** The fitted values followed by h forecasts; updates params' seasonal factors in place. */
  forecast(h: number, params: number[]): number[] {
    Model.constrain(params);
    const [alpha, beta, gamma, phi] = params as [number, number, number, number];
    let yT = this.y[0]!;
    let phiH = phi;
    let lT = params[4]!;
    let bT = params[5]!;
    const m = this.seasonal ? params.length - 6 : 0;
    if (this.seasonal && m === 1) params[6] = 1;
    let so = m - 1;
    const l = this.y.length;
    const out = new Array<number>(l + h).fill(0);
    out[0] = yT;
    let stm = 1.0;
    let stmh = 1.0;
    for (let t = 1; t < l + h; t++) {
      if (this.seasonal) {
        const hm = t % m;
        stm = params[6 + ((t - m + so) % m)]!;
        stmh = params[6 + ((t - m + hm + so) % m)]!;
      }
      const lTp = lT;
      const bTp = bT;
      lT = alpha * (yT / stm) + (1 - alpha) * (lTp + phi * bTp);
      bT = beta * (lT - lTp) + (1 - beta) * phi * bTp;
      const sT = gamma * (yT / (lTp + phi * bTp)) + (1 - gamma) * stm;
      yT = (lT + phiH * bT) * stmh;
      phiH += goPow(phi, t);
      if (this.seasonal) {
        params[6 + ((t + so) % m)] = sT;
        so++;
      }
      out[t] = yT;
    }
    return out;
  }

  /** Sum of squared errors over the observed slots; a NaN forecast there costs +Inf. */
  sse(params: number[]): number {
    let sse = 0;
    const f = this.forecast(0, params);
    for (let i = 0; i < f.length; i++) {
      if (Number.isNaN(this.y[i])) continue;
      if (Number.isNaN(f[i])) return Infinity;
      const diff = f[i]! - this.y[i]!;
      sse += diff * diff;
    }
    return sse;
  }
}

function startingParameters(y: readonly number[], m: number, seasonal: boolean): number[] {
  let l0 = 0.0;
  if (seasonal) {
    for (let i = 0; i < m; i++) if (!Number.isNaN(y[i])) l0 += (1 / m) * y[i]!;
  } else l0 += WEIGHT * y[0]!;
  let b0 = 0.0;
  if (seasonal) {
    for (let i = 0; i < m && m + i < y.length; i++) {
      if (!Number.isNaN(y[i]) && !Number.isNaN(y[m + i])) b0 += (1 / (m * m)) * (y[m + i]! - y[i]!);
    }
  } else if (!Number.isNaN(y[1])) b0 = WEIGHT * (y[1]! - y[0]!);
  const s = seasonal ? y.slice(0, m).map((v) => (Number.isNaN(v) ? 0 : v / l0)) : [];
  return [0, 0, 0, 0, l0, b0, ...s];
}

/**
 * The forecast (and fit) of one series' aggregates, given in time order. The fit runs up to 625
 * Nelder-Mead searches (seconds on a few thousand points, as in 1.6.7, where it runs beside other
 * requests): `pause` is awaited between their iterations, so the event loop turns (writes and other queries go
 * on) and a timeout or KILL QUERY stops it (it throws the stop reason).
 */
export async function holtWinters(points: readonly ForecastPoint[], args: HoltWintersArgs, pause?: () => Promise<void> | undefined): Promise<ForecastPoint[]> {
  const { h, m, interval } = args;
  // Each forecast is a window of its own: past the window bound the answer could not be served,
  // and building it first took the server's heap (holt_winters(x, 100000000, 0) killed the process).
  if (h > MAX_SELECT_BUCKETS) throw new QueryError(`max-select-buckets limit exceeded: (${MAX_SELECT_BUCKETS})`);
  const seasonal = m >= 2;
  if (points.length < 2 || (seasonal && points.length < m) || h <= 0) return [];
  const start = roundTime(points[0]!.time, interval);
  const stop = roundTime(points[points.length - 1]!.time, interval);
  if ((stop - start) / interval <= 0n) return [];
  const y = onGrid(points, interval);
  // 1.x would index past the grid here (points collapsed onto fewer slots than a season).
  if (seasonal && y.length < m) return [];
  const model = new Model(y, seasonal);
  const parameters = startingParameters(y, m, seasonal);
  let minSSE = Infinity;
  let best: number[] | undefined;
  for (let alpha = GUESS_LOWER; alpha < GUESS_UPPER; alpha += GUESS_STEP) {
    for (let beta = GUESS_LOWER; beta < GUESS_UPPER; beta += GUESS_STEP) {
      for (let gamma = GUESS_LOWER; gamma < GUESS_UPPER; gamma += GUESS_STEP) {
        for (let phi = GUESS_LOWER; phi < GUESS_UPPER; phi += GUESS_STEP) {
          parameters[0] = alpha;
          parameters[1] = beta;
          parameters[2] = gamma;
          parameters[3] = phi;
          const { min, params } = await nelderMead((p) => model.sse(p), parameters, EPSILON, 1, pause);
          if (min < minSSE || best === undefined) {
            minSSE = min;
            best = params;
          }
        }
      }
    }
  }
  const forecasted = model.forecast(h, best!);
  const out: ForecastPoint[] = [];
  if (args.withFit) {
    const first = points[0]!.time;
    forecasted.forEach((v, i) => {
      if (!Number.isNaN(v)) out.push({ time: first + interval * BigInt(i), value: v });
    });
  } else {
    const last = points[points.length - 1]!.time;
    for (let i = y.length; i < forecasted.length; i++) {
      const v = forecasted[i]!;
      if (!Number.isNaN(v)) out.push({ time: last + interval * BigInt(i - y.length + 1), value: v });
    }
  }
  return out;
}
