/**
 * How small can the cpu dataset get? Entropy bounds for TSBS cpu-only integer values, computed
 * on exactly the data perf/datasets.ts generates (same seeds, same walk):
 *
 *   node build/perf/cpu-entropy.js [--hours 12]
 *
 * The value is v_i = floor(x_i), x_i = clamp(x_{i-1} + Z_i, 0, 100), Z_i ~ N(0, 1) (Box–Muller).
 * - bound: H(v_i | x_{i-1}), the entropy of the next value given the exact hidden state (with
 *   the clamping at 0 and 100), averaged over the data. Conditioning never adds entropy, so
 *   the entropy rate of the observed integers, H(v_i | v_{i-1}, v_{i-2}, …), is at least this:
 *   no lossless code that sees only the integers can average fewer bits per value.
 * - plug-in estimates of what coders that do see only the integers can reach: order-0 entropy
 *   of the deltas, and conditioned on the previous delta / the previous value (contexts).
 * - what our block encoder spends (encodeBlock over the 1,000-point blocks a compaction writes),
 *   split into values and timestamps.
 */
import { argv } from 'node:process';
import { FieldType, encoding } from '../engine/index.js';
import { flags } from './bench-util.js';
import { normal, prng } from './datasets.js';

const SERIES = 100;
const FIELDS = 10;
const BLOCK = 1000;

/** Standard normal CDF. */
function phi(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** erfc by the Chebyshev expansion of Numerical Recipes 3rd ed. (`Erf::erfccheb`), ~1e-15 relative (checked against Python's math.erfc). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 2 / (2 + z);
  const ty = 4 * t - 2;
  const cof = [
    -1.3026537197817094, 6.4196979235649026e-1, 1.9476473204185836e-2, -9.561514786808631e-3, -9.46595344482036e-4, 3.66839497852761e-4,
    4.2523324806907e-5, -2.0278578112534e-5, -1.624290004647e-6, 1.30365583558e-6, 1.5626441722e-8, -8.5238095915e-8, 6.529054439e-9,
    5.059343495e-9, -9.91364156e-10, -2.27365122e-10, 9.6467911e-11, 2.394038e-12, -6.886027e-12, 8.94487e-13, 3.13092e-13, -1.12708e-13,
    3.81e-16, 7.106e-15, -1.523e-15, -9.4e-17, 1.21e-16, -2.8e-17,
  ];
  let d = 0;
  let dd = 0;
  for (let j = cof.length - 1; j > 0; j--) {
    const tmp = d;
    d = ty * d - dd + cof[j]!;
    dd = tmp;
  }
  const r = t * Math.exp(-z * z + 0.5 * (cof[0]! + ty * d) - dd);
  return x >= 0 ? r : 2 - r;
}

/** Entropy in bits of floor(clamp(x + Z, 0, 100)). */
function nextValueEntropy(x: number): number {
  let h = 0;
  const lo = Math.max(0, Math.floor(x - 9));
  const hi = Math.min(100, Math.floor(x + 9));
  for (let k = lo; k <= hi; k++) {
    const below = k === 0 ? 0 : phi(k - x);
    const above = k === 100 ? 1 : phi(k + 1 - x);
    const p = above - below;
    if (p > 0) h -= p * Math.log2(p);
  }
  return h;
}

class Counts {
  private readonly m = new Map<string, Map<number, number>>();
  add(ctx: string, sym: number): void {
    let c = this.m.get(ctx);
    if (!c) this.m.set(ctx, (c = new Map()));
    c.set(sym, (c.get(sym) ?? 0) + 1);
  }
  /** Plug-in conditional entropy H(sym | ctx) in bits. */
  entropy(): number {
    let n = 0;
    let h = 0;
    for (const c of this.m.values()) {
      let cn = 0;
      for (const v of c.values()) cn += v;
      for (const v of c.values()) h -= v * Math.log2(v / cn);
      n += cn;
    }
    return h / n;
  }
}

function main(): void {
  const f = flags(argv.slice(2));
  const points = Math.round((Number(f.get('hours') ?? 12) * 3600) / 10);
  let bound = 0;
  let steps = 0;
  let atEdge = 0;
  const order0 = new Counts();
  const prevDelta = new Counts();
  const prevValue = new Counts();
  const prev2Value = new Counts();
  let blockBytes = 0;
  let timeBytes = 0;
  let values = 0;
  const offsets = new Float64Array(points);
  for (let i = 0; i < points; i++) offsets[i] = i * 10e9;
  for (let h = 0; h < SERIES; h++) {
    for (let j = 0; j < FIELDS; j++) {
      const rand = prng(1, h * 64 + 1 + j);
      const v = new Float64Array(points);
      let x = rand() * 100;
      for (let i = 0; i < points; i++) {
        if (i > 0) {
          bound += nextValueEntropy(x);
          steps++;
          if (x < 3 || x > 97) atEdge++;
        }
        x = Math.min(100, Math.max(0, x + normal(rand)));
        v[i] = Math.floor(x);
        if (i > 0) {
          const d = v[i]! - v[i - 1]!;
          order0.add('', d);
          if (i > 1) prevDelta.add(String(v[i - 1]! - v[i - 2]!), d);
          prevValue.add(String(v[i - 1]), d);
          if (i > 1) prev2Value.add(`${v[i - 1]},${v[i - 2]}`, d);
        }
      }
      const column = { type: FieldType.Integer, values: v } as const;
      for (let s = 0; s < points; s += BLOCK) {
        const e = Math.min(points, s + BLOCK);
        blockBytes += encoding.encodeBlock(0n, offsets, column, s, e).length;
        timeBytes += encoding.encodeBlock(0n, offsets, { type: FieldType.Integer, values: new Float64Array(points) }, s, e).length;
        values += e - s;
      }
    }
  }
  const row = (name: string, bits: number) => console.log(`| ${name} | ${bits.toFixed(4)} | ${(bits / 8).toFixed(4)} |`);
  console.log(`cpu dataset: ${SERIES * FIELDS} series-fields × ${points} points; ${((100 * atEdge) / steps).toFixed(2)} % of steps start within 3 of a clamp edge\n`);
  console.log('| quantity | bits/value | bytes/value |');
  console.log('|---|---|---|');
  row('bound: H(v_i | x_{i-1}) with clamping (exact hidden state)', bound / steps);
  row('Gaussian reference: ½·log2(2πe), unit bins, no clamping', 0.5 * Math.log2(2 * Math.PI * Math.E));
  row('plug-in H(Δ) order 0', order0.entropy());
  row('plug-in H(Δ_i | Δ_{i-1})', prevDelta.entropy());
  row('plug-in H(Δ_i | v_{i-1})', prevValue.entropy());
  row('plug-in H(Δ_i | v_{i-1}, v_{i-2}) (optimistic: many contexts)', prev2Value.entropy());
  row('encodeBlock, 1,000-point blocks: values + timestamps + header', (8 * blockBytes) / values);
  row('  of which an all-zero value column + timestamps + header', (8 * timeBytes) / values);
}

main();
