/**
 * Go's math.Pow, which 1.x's pow() and holt_winters() use. Go computes integer powers by
 * repeated squaring of a frexp mantissa with the exponent kept apart and one Ldexp at the end;
 * V8's Math.pow rounds differently in the last bit for many inputs, and holt_winters() must
 * reproduce 1.6.7's optimiser path bit for bit.
 */
const view = new DataView(new ArrayBuffer(8));

/** [mantissa in ±[0.5, 1), exponent] with x = mantissa · 2^exponent (Go math.Frexp). */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = 0;
  let f = x;
  if (Math.abs(f) < 2.2250738585072014e-308) {
    f *= 2 ** 52; // normalise a subnormal first
    e = -52;
  }
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1022;
  view.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  return [view.getFloat64(0), e];
}

/** frac · 2^exp with one rounding, as Go math.Ldexp. */
export function ldexp(frac: number, exp: number): number {
  if (frac === 0 || !Number.isFinite(frac)) return frac;
  const [m, e0] = frexp(frac);
  // Go works with the 1.xxx mantissa: its exponent is one below frexp's.
  let e = exp + e0 - 1;
  if (e < -1075) return m < 0 ? -0 : 0;
  if (e > 1023) return m < 0 ? -Infinity : Infinity;
  let scale = 1;
  if (e < -1022) {
    e += 53;
    scale = 2 ** -53;
  }
  view.setFloat64(0, m);
  const hi = view.getUint32(0);
  view.setUint32(0, (hi & 0x800fffff) | ((e + 1023) << 20));
  return scale * view.getFloat64(0);
}

const isOddInt = (y: number): boolean => Number.isInteger(y) && Math.abs(y) < 2 ** 53 && Math.abs(y % 2) === 1;

/**
 * Go's math.Pow(x, y): the special cases in Go's order, x^frac(y) through exp(log), and
 * x^int(y) by repeated squaring of the frexp mantissa with one Ldexp at the end. For integer
 * exponents this is exactly Go's result; fractional ones go through V8's exp/log, which may
 * differ from Go's in the last bit.
 */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0) {
    if (y < 0) return isOddInt(y) ? (Object.is(x, -0) ? -Infinity : Infinity) : Infinity;
    return isOddInt(y) ? x : 0;
  }
  if (!Number.isFinite(y)) {
    if (x === -1) return 1;
    return (Math.abs(x) < 1) === (y > 0) ? 0 : Infinity;
  }
  if (!Number.isFinite(x)) {
    if (x < 0) return goPow(1 / x, -y); // Pow(-0, -y)
    return y < 0 ? 0 : Infinity;
  }
  if (y === 0.5) return Math.sqrt(x);
  if (y === -0.5) return 1 / Math.sqrt(x);
  let yi = Math.trunc(Math.abs(y));
  let yf = Math.abs(y) - yi;
  if (yf !== 0 && x < 0) return NaN;
  if (yi >= 2 ** 63) {
    if (x === -1) return 1;
    return (Math.abs(x) < 1) === (y > 0) ? 0 : Infinity;
  }
  let a1 = 1.0;
  let ae = 0;
  if (yf !== 0) {
    if (yf > 0.5) {
      yf--;
      yi++;
    }
    a1 = Math.exp(yf * Math.log(x));
  }
  let [x1, xe] = frexp(x);
  for (let i = yi; i !== 0; i = Math.floor(i / 2)) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      // Catastrophic over/underflow: Go lets Ldexp saturate.
      ae += xe;
      break;
    }
    if (i % 2 === 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe *= 2;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}
