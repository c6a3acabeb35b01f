/**
 * The Nelder-Mead simplex minimiser exactly as 1.x's holt_winters() runs it (after M. F. Hutt's
 * C version): a regular initial simplex of size `scale` around `start`, reflection 1,
 * contraction 0.5, expansion 2, at most 1000 iterations, stopping when the standard deviation
 * of the vertex values drops below `epsilon`. The objective may change the vertex it is given
 * (holt_winters clamps its parameters in place); that is part of the reproduced behaviour.
 */
import { goPow } from './go-pow.js';

const MAX_ITERATIONS = 1000;
const REFLECT = 1.0;
const CONTRACT = 0.5;
const EXPAND = 2.0;

/** `pause` is awaited after each iteration when it returns a promise (see holt-winters.ts). */
export async function nelderMead(
  objective: (x: number[]) => number,
  start: readonly number[],
  epsilon: number,
  scale: number,
  pause?: () => Promise<void> | undefined,
): Promise<{ min: number; params: number[] }> {
  const n = start.length;
  const v: number[][] = [];
  for (let i = 0; i <= n; i++) v.push(new Array<number>(n).fill(0));
  const f = new Array<number>(n + 1).fill(0);
  const vr = new Array<number>(n).fill(0);
  const ve = new Array<number>(n).fill(0);
  const vc = new Array<number>(n).fill(0);
  const vm = new Array<number>(n).fill(0);
  const pn = (scale * (Math.sqrt(n + 1) - 1 + n)) / (n * Math.sqrt(2));
  const qn = (scale * (Math.sqrt(n + 1) - 1)) / (n * Math.sqrt(2));
  for (let i = 0; i < n; i++) v[0]![i] = start[i]!;
  for (let i = 1; i <= n; i++) for (let j = 0; j < n; j++) v[i]![j] = (i - 1 === j ? pn : qn) + start[j]!;
  for (let j = 0; j <= n; j++) f[j] = objective(v[j]!);
  const replace = (row: number[], from: readonly number[]): void => {
    for (let i = 0; i < n; i++) row[i] = from[i]!;
  };

  for (let itr = 1; itr <= MAX_ITERATIONS; itr++) {
    const turn = pause?.();
    if (turn) await turn;
    let vg = 0;
    let vs = 0;
    for (let i = 0; i <= n; i++) {
      if (f[i]! > f[vg]!) vg = i;
      if (f[i]! < f[vs]!) vs = i;
    }
    let vh = vs;
    for (let i = 0; i <= n; i++) if (f[i]! > f[vh]! && f[i]! < f[vg]!) vh = i;
    for (let i = 0; i < n; i++) {
      let cent = 0;
      for (let m = 0; m <= n; m++) if (m !== vg) cent += v[m]![i]!;
      vm[i] = cent / n;
    }
    for (let i = 0; i < n; i++) vr[i] = vm[i]! + REFLECT * (vm[i]! - v[vg]![i]!);
    const fr = objective(vr);
    if (fr < f[vh]! && fr >= f[vs]!) {
      replace(v[vg]!, vr);
      f[vg] = fr;
    }
    if (fr < f[vs]!) {
      for (let i = 0; i < n; i++) ve[i] = vm[i]! + EXPAND * (vr[i]! - vm[i]!);
      const fe = objective(ve);
      if (fe < fr) {
        replace(v[vg]!, ve);
        f[vg] = fe;
      } else {
        replace(v[vg]!, vr);
        f[vg] = fr;
      }
    }
    if (fr >= f[vh]!) {
      if (fr < f[vg]! && fr >= f[vh]!) for (let i = 0; i < n; i++) vc[i] = vm[i]! + CONTRACT * (vr[i]! - vm[i]!);
      else for (let i = 0; i < n; i++) vc[i] = vm[i]! - CONTRACT * (vm[i]! - v[vg]![i]!);
      const fc = objective(vc);
      if (fc < f[vg]!) {
        replace(v[vg]!, vc);
        f[vg] = fc;
      } else {
        // The contraction failed: halve every vertex's distance to the best one.
        for (let row = 0; row <= n; row++) {
          if (row === vs) continue;
          for (let i = 0; i < n; i++) v[row]![i] = v[vs]![i]! + (v[row]![i]! - v[vs]![i]!) / 2.0;
        }
        f[vg] = objective(v[vg]!);
        f[vh] = objective(v[vh]!);
      }
    }
    let fsum = 0;
    for (let i = 0; i <= n; i++) fsum += f[i]!;
    const favg = fsum / (n + 1);
    let s = 0;
    for (let i = 0; i <= n; i++) s += goPow(f[i]! - favg, 2) / n;
    s = Math.sqrt(s);
    if (s < epsilon) break;
  }
  let vs = 0;
  for (let i = 0; i <= n; i++) if (f[i]! < f[vs]!) vs = i;
  const params = v[vs]!.slice();
  const min = objective(v[vs]!);
  return { min, params };
}
