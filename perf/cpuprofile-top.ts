/**
 * Top self-time functions of a V8 `.cpuprofile` (from `node --cpu-prof`).
 *
 *   node build/perf/cpuprofile-top.js FILE.cpuprofile [N=25]
 *
 * Self time of a function = the sampled time spent in it, not in its callees, summed over
 * every call site; total time = samples with the function anywhere on the stack.
 */
import { readFileSync } from 'node:fs';
import { argv } from 'node:process';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const file = argv[2];
if (!file) {
  console.error('usage: cpuprofile-top FILE [N]');
  process.exit(2);
}
const top = Number(argv[3] ?? 25);
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map<number, Node>();
const parent = new Map<number, number>();
for (const n of p.nodes) {
  byId.set(n.id, n);
  for (const c of n.children ?? []) parent.set(c, n.id);
}
const label = (n: Node): string => {
  const url = n.callFrame.url.replace(/^file:\/\/.*?\/build\//, '').replace(/^node:/, 'node:');
  return `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i] ?? 0;
  all += dt;
  const n = byId.get(p.samples[i]!);
  if (!n) continue;
  const l = label(n);
  self.set(l, (self.get(l) ?? 0) + dt);
  const seen = new Set<string>();
  for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
    const x = byId.get(id);
    if (!x) break;
    const lx = label(x);
    if (seen.has(lx)) continue;
    seen.add(lx);
    total.set(lx, (total.get(lx) ?? 0) + dt);
  }
}
const pct = (x: number): string => ((100 * x) / all).toFixed(1) + ' %';
console.log(`${file}: ${(all / 1e6).toFixed(1)} s sampled\n`);
console.log('| self | total | function |');
console.log('|---|---|---|');
for (const [l, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${pct(t)} | ${pct(total.get(l) ?? 0)} | \`${l}\` |`);
