/**
 * Go's math.Pow for the integer exponents 1.x's holt_winters() uses (phi^t, x^2). Go computes
 * them by repeated squaring of a frexp mantissa with the exponent kept apart and one Ldexp at
 * the end, so intermediate products never go subnormal; plain `**` can round differently there,
 * and holt_winters() must reproduce 1.6.7's optimiser path bit for bit.
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

/** Go math.Pow(x, y) for a non-negative integer y below 2^53. */
export function goPowInt(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x)) return NaN;
  if (x === 0) return Object.is(x, -0) && y % 2 === 1 ? -0 : 0;
  if (x === Infinity) return Infinity;
  if (x === -Infinity) return y % 2 === 1 ? -Infinity : Infinity;
  let a1 = 1;
  let ae = 0;
  let [x1, xe] = frexp(x);
  for (let i = y; i !== 0; i = Math.floor(i / 2)) {
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
  return ldexp(a1, ae);
}
