/**
 * The parse worker's job alone: `parseToColumns` over the HTTP ingest bench's bodies (5000-line
 * bodies of the cpu or sensor dataset), ns per line, in this process on one core.
 *
 *   node build/perf/parse-columns-bench.js [--profile sensor|cpu] [--passes 40]
 *       [--baseline OTHER/build]   (A/B: that build's parser too, passes alternating)
 *
 * With `--baseline`, both parsers run in the same process on the same bodies, the order
 * alternating pass by pass, so the comparison survives the load other work puts on the
 * machine (separate runs of the two builds varied by ±20 % here). The first 6 passes are
 * warm-up; reported are the 25th percentile, median and minimum over the rest.
 */
import { argv } from 'node:process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseToColumns, type ParseOptions } from '../engine/index.js';
import { batches, flags, load, machine } from './bench-util.js';
import { cpuOnly, edgeSensors } from './datasets.js';

type Parse = (body: Uint8Array, opts: ParseOptions) => unknown;
const WARMUP_PASSES = 6;

async function main(): Promise<void> {
  const f = flags(argv.slice(2));
  const profile = f.get('profile') ?? 'sensor';
  const passes = Number(f.get('passes') ?? 40);
  const ds = profile === 'cpu' ? cpuOnly({ points: 1440 }) : edgeSensors({ points: 3600 });
  const bodies = batches(ds.lines(), 5000);
  const lines = bodies.reduce((n, b) => n + b.toString('latin1').split('\n').filter((l) => l !== '').length, 0);
  const parsers: [string, Parse][] = [['this build', parseToColumns]];
  const baseline = f.get('baseline');
  if (baseline) {
    const mod = (await import(pathToFileURL(resolve(baseline, 'engine/lineprotocol/columns.js')).href)) as { parseToColumns: Parse };
    parsers.push([`baseline ${baseline}`, mod.parseToColumns]);
  }
  const opts: ParseOptions = { precision: 'ns', defaultSec: 0, defaultNsec: 0 };
  const times = new Map<string, number[]>(parsers.map(([name]) => [name, []]));
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 === 0 ? parsers : [...parsers].reverse();
    for (const [name, parse] of order) {
      const t = process.hrtime.bigint();
      for (const b of bodies) parse(b, opts);
      if (pass >= WARMUP_PASSES) times.get(name)!.push(Number(process.hrtime.bigint() - t) / lines);
    }
  }
  console.log(`${machine()}; load ${load()}; ${profile}: ${bodies.length} bodies, ${lines} lines, ${passes - WARMUP_PASSES} passes`);
  for (const [name, ts] of times) {
    ts.sort((a, b) => a - b);
    const at = (q: number): string => ts[Math.floor(q * (ts.length - 1))]!.toFixed(0);
    console.log(`${name}: ns/line p25 ${at(0.25)}, median ${at(0.5)}, min ${at(0)}`);
  }
}

await main();
