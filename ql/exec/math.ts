/**
 * Row-wise math functions as InfluxDB 1.6 evaluates them. Results are floats except that
 * abs/floor/ceil/round return integer (and unsigned) input unchanged — 1.6 does not even take
 * the absolute value of an integer (`abs(-7i)` is -7; observed on 1.6.7). Non-numeric input and
 * NaN results are null. ±Inf results are returned as numbers: 1.6.7 then fails the whole
 * response with a JSON encoding error, which the HTTP layer must decide how to mirror.
 * round() is Go math.Round: half away from zero. log2/log10 and pow (go-pow.ts, exact for
 * integer exponents) use Go's formulas (bit-exact);
 * sin, cos, tan, asin, acos, atan, atan2 and exp come from V8 (fdlibm) where Go uses Cephes
 * ports, so results may differ from 1.x in the last ulp (far inside the 1e-9 tolerance of the
 * conformance comparison).
 */
import { frexp, goPow } from './go-pow.js';
import { QueryError } from './errors.js';
import { intToFloat } from './value.js';
import type { Scalar } from './value.js';

/** Go math.Round: nearest integer, halves away from zero. */
export function goRound(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.trunc(x);
  return Math.abs(x - r) >= 0.5 ? r + Math.sign(x) : r;
}

/** Go math.Log2 (differs from Math.log2 in the last bit for some inputs). */
export function goLog2(x: number): number {
  const [frac, exp] = frexp(x);
  if (frac === 0.5) return exp - 1;
  return Math.log(frac) * Math.LOG2E + exp;
}

/** Go math.Log10: log(x) * (1/Ln10). */
export function goLog10(x: number): number {
  return Math.log(x) * Math.LOG10E;
}

const UNARY: Readonly<Record<string, (x: number) => number>> = {
  abs: Math.abs,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  exp: Math.exp,
  ln: Math.log,
  log2: goLog2,
  log10: goLog10,
  sqrt: Math.sqrt,
  floor: Math.floor,
  ceil: Math.ceil,
  round: goRound,
};

const BINARY: Readonly<Record<string, (a: number, b: number) => number>> = {
  atan2: Math.atan2,
  pow: goPow,
  log: (x, b) => Math.log(x) / Math.log(b),
};

/** Integer-preserving functions (value returned unchanged for integer input). */
const KEEPS_INT = new Set(['abs', 'floor', 'ceil', 'round']);

export const MATH_FUNCTIONS: ReadonlySet<string> = new Set([...Object.keys(UNARY), ...Object.keys(BINARY)]);

function num(v: Scalar): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return intToFloat(v);
  return null;
}

/**
 * Apply math function `name` to its evaluated arguments (one or two). `firstIsInteger` tells
 * whether the first argument comes from an integer/unsigned field (a `number` does not carry
 * its field type); a bigint argument is always an integer.
 */
export function applyMath(name: string, args: readonly Scalar[], firstIsInteger = false): Scalar {
  const u = UNARY[name];
  if (u !== undefined) {
    if (args.length !== 1) throw new QueryError(`invalid number of arguments for ${name}, expected 1, got ${args.length}`);
    const a = args[0] ?? null;
    if (KEEPS_INT.has(name) && (typeof a === 'bigint' || (typeof a === 'number' && firstIsInteger))) return a;
    const x = num(a);
    if (x === null) return null;
    const r = u(x);
    return r;
  }
  const b = BINARY[name];
  if (b === undefined) throw new QueryError(`undefined function ${name}()`);
  if (args.length !== 2) throw new QueryError(`invalid number of arguments for ${name}, expected 2, got ${args.length}`);
  const x = num(args[0] ?? null);
  const y = num(args[1] ?? null);
  if (x === null || y === null) return null;
  const r = b(x, y);
  return r;
}
