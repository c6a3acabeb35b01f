/**
 * Metadata statements at high series cardinality (GitHub issue 6): SHOW TAG VALUES, SHOW SERIES
 * and the cardinality statements against an index of `--series` series (default 1,000,000).
 *
 *   node --expose-gc build/perf/meta-bench.js [--hosts 10000] [--regions 10] [--racks 10]
 *        [--runs 7] [--warmup 2] [--dir /tmp/x] [--keep] [--verbose] [--influx http://127.0.0.1:P]
 *   node build/perf/meta-bench.js --reopen DIR [--runs 7]   (reopen a --keep directory only)
 *
 * Shape: measurement `m`, tags host (hosts values) x region (regions) x rack (racks), one point
 * per series (`v=1i` at one fixed time), written with Engine.write in 10,000-line bodies.
 * Reported: time and peak RSS to build the index, RSS and heap held once built (after GC),
 * then for each statement the median / min / max of `runs` executions through
 * executeStatements (after `warmup` runs), then the time for Engine.open to reopen the
 * directory (series log replay) and the RSS after it, measured in a fresh child process, and
 * the statements again on the reopened index. --verbose prints every execution (the first,
 * cold one included) with its wall and CPU time (process CPU: all threads, GC and JIT included).
 * With --influx, the same series are loaded into that InfluxDB (database `metabench`,
 * dropped first) and the same statements are timed over GET /query (wall time, loopback).
 * Results go in perf/META.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv, cpuUsage, hrtime, memoryUsage, resourceUsage } from 'node:process';
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine, engineOptions } from '../engine/index.js';
import { executeMetaStatement, executeStatements, parseQuery } from '../ql/index.js';

const DB = 'metabench';
const BATCH = 10_000;
const TIME_NS = 1_600_000_000_000_000_000n;

export const STATEMENTS: readonly string[] = [
  'SHOW TAG VALUES WITH KEY = region',
  'SHOW TAG VALUES WITH KEY = host LIMIT 100',
  "SHOW TAG VALUES FROM m WITH KEY = host WHERE region = 'r1'",
  'SHOW SERIES CARDINALITY',
  'SHOW TAG VALUES EXACT CARDINALITY WITH KEY = host',
  'SHOW MEASUREMENT CARDINALITY',
  'SHOW TAG KEY CARDINALITY',
  "SHOW SERIES FROM m WHERE host = 'h1' LIMIT 10",
];

interface Options {
  hosts: number;
  regions: number;
  racks: number;
  runs: number;
  warmup: number;
  dir?: string;
  keep: boolean;
  influx?: string;
  reopen?: string;
  /** Print every execution (first-run latency). */
  verbose: boolean;
}

function parseArgs(args: string[]): Options {
  const o: Options = { hosts: 10_000, regions: 10, racks: 10, runs: 7, warmup: 2, keep: false, verbose: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = (): string => args[++i] ?? '';
    if (a === '--hosts') o.hosts = Number(next());
    else if (a === '--regions') o.regions = Number(next());
    else if (a === '--racks') o.racks = Number(next());
    else if (a === '--runs') o.runs = Number(next());
    else if (a === '--warmup') o.warmup = Number(next());
    else if (a === '--dir') o.dir = next();
    else if (a === '--keep') o.keep = true;
    else if (a === '--influx') o.influx = next().replace(/\/+$/, '');
    else if (a === '--reopen') o.reopen = next();
    else if (a === '--verbose') o.verbose = true;
  }
  return o;
}

/** Line-protocol bodies of all series, BATCH lines each (host-major order). */
export function* bodies(o: Pick<Options, 'hosts' | 'regions' | 'racks'>): Generator<string> {
  let lines: string[] = [];
  for (let h = 0; h < o.hosts; h++) {
    for (let r = 0; r < o.regions; r++) {
      for (let k = 0; k < o.racks; k++) {
        lines.push(`m,host=h${h},region=r${r},rack=k${k} v=1i ${TIME_NS}`);
        if (lines.length === BATCH) {
          yield lines.join('\n');
          lines = [];
        }
      }
    }
  }
  if (lines.length > 0) yield lines.join('\n');
}

const ms = (t0: bigint): number => Number(hrtime.bigint() - t0) / 1e6;
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  (runInNewContext('gc') as () => void)();
}

function openOptions(dir: string): ReturnType<typeof engineOptions> {
  return engineOptions({
    walDir: join(dir, 'wal'),
    metaDir: join(dir, 'meta'),
    dataDir: join(dir, 'data'),
    flushIntervalSec: 0,
    cardinality: { maxTagValuesPerMeasurement: 0, maxMeasurementsPerDatabase: 0 },
  });
}

interface Timing {
  q: string;
  median: number;
  min: number;
  max: number;
  rows: number;
}

async function timeAll(o: Options, run: (q: string) => Promise<number>): Promise<Timing[]> {
  const out: Timing[] = [];
  for (const q of STATEMENTS) {
    let rows = 0;
    for (let i = 0; i < o.warmup; i++) rows = await run(q);
    const xs: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      const t0 = hrtime.bigint();
      rows = await run(q);
      xs.push(ms(t0));
    }
    out.push({ q, median: median(xs), min: Math.min(...xs), max: Math.max(...xs), rows });
  }
  return out;
}

function printTimings(label: string, ts: readonly Timing[]): void {
  console.log(`\n${label}: median / min / max ms (rows or value of the first series)`);
  for (const t of ts) console.log(`  ${t.median.toFixed(2).padStart(9)} ${t.min.toFixed(2).padStart(9)} ${t.max.toFixed(2).padStart(9)}  ${String(t.rows).padStart(8)}  ${t.q}`);
}

/** Rows of the result, or the count of a one-row cardinality result. */
function summarize(series: readonly { values: readonly (readonly unknown[])[] }[]): number {
  const first = series[0];
  if (!first) return 0;
  if (first.values.length === 1 && typeof first.values[0]![0] === 'number') return first.values[0]![0];
  return series.reduce((n, s) => n + s.values.length, 0);
}

function timeStrata(o: Options, engine: Engine): Promise<Timing[]> {
  const ctx = { engine, database: DB, retentionPolicy: '', nowNs: BigInt(Date.now()) * 1_000_000n };
  return timeAll(o, async (q) => {
    const t0 = hrtime.bigint();
    const c0 = cpuUsage();
    const [r] = await executeStatements(parseQuery(q), ctx, executeMetaStatement);
    if (!r || r.error) throw new Error(`${q}: ${r?.error ?? 'no result'}`);
    if (o.verbose) {
      const c = cpuUsage(c0);
      console.log(`    ${ms(t0).toFixed(2)} ms wall ${((c.user + c.system) / 1000).toFixed(2)} ms cpu  ${q}`);
    }
    return summarize(r.series ?? []);
  });
}

async function strata(o: Options, dir: string): Promise<void> {
  const rss0 = memoryUsage().rss;
  const engine = await Engine.open(openOptions(dir));
  await engine.catalog.createDatabase(DB);
  const t0 = hrtime.bigint();
  let n = 0;
  for (const body of bodies(o)) {
    await engine.write({ db: DB, precision: 'ns', body: Buffer.from(body) });
    n++;
  }
  const buildMs = ms(t0);
  const peakBuild = resourceUsage().maxRSS * 1024;
  gc();
  const held = memoryUsage();
  const index = engine.openedDatabase(DB)?.index;
  console.log(`series: ${index?.seriesCount} in ${n} bodies of ${BATCH} lines`);
  console.log(`build: ${(buildMs / 1000).toFixed(1)} s (${Math.round((index?.seriesCount ?? 0) / (buildMs / 1000))} series/s), peak RSS ${mb(peakBuild)} MB`);
  console.log(`held after GC: RSS ${mb(held.rss)} MB (+${mb(held.rss - rss0)} MB over the empty process), heap used ${mb(held.heapUsed)} MB`);

  printTimings('strata (executeStatements, in process)', await timeStrata(o, engine));

  const tc = hrtime.bigint();
  await engine.close();
  console.log(`\nclose (final flush of ${index?.seriesCount} points to TSM): ${(ms(tc) / 1000).toFixed(1)} s`);

  const args = ['--expose-gc', new URL(import.meta.url).pathname, '--reopen', dir, '--runs', String(o.runs), '--warmup', String(o.warmup)];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
  process.stdout.write(child.stdout);
  process.stderr.write(child.stderr);
}

/** Child process: time Engine.open on an existing directory (series log replay). */
async function reopen(o: Options, dir: string): Promise<void> {
  const rss0 = memoryUsage().rss;
  const t0 = hrtime.bigint();
  const engine = await Engine.open(openOptions(dir));
  const index = engine.openedDatabase(DB)?.index ?? (await engine.database(DB)).index;
  const openMs = ms(t0);
  const peak = resourceUsage().maxRSS * 1024;
  gc();
  const held = memoryUsage();
  console.log(`reopen: Engine.open + index of ${index.seriesCount} series in ${(openMs / 1000).toFixed(2)} s, peak RSS ${mb(peak)} MB, held after GC RSS ${mb(held.rss)} MB (+${mb(held.rss - rss0)} MB), heap used ${mb(held.heapUsed)} MB`);
  if (o.runs > 0) printTimings('strata after reopen (index restored from the series log)', await timeStrata(o, engine));
  await engine.close();
}

async function influx(o: Options): Promise<void> {
  const base = o.influx!;
  const query = async (q: string, method: 'GET' | 'POST' = 'GET'): Promise<{ results: { series?: { values: unknown[][] }[]; error?: string }[] }> => {
    const url = `${base}/query?db=${DB}&q=${encodeURIComponent(q)}`;
    const res = await fetch(url, { method });
    const body = (await res.json()) as { results: { series?: { values: unknown[][] }[]; error?: string }[] };
    if (!res.ok) throw new Error(`${q}: HTTP ${res.status}`);
    return body;
  };
  await query(`DROP DATABASE ${DB}`, 'POST');
  await query(`CREATE DATABASE ${DB}`, 'POST');
  const t0 = hrtime.bigint();
  for (const body of bodies(o)) {
    const res = await fetch(`${base}/write?db=${DB}&precision=ns`, { method: 'POST', body });
    if (res.status !== 204) throw new Error(`write: HTTP ${res.status} ${await res.text()}`);
  }
  console.log(`\ninflux load over HTTP: ${(ms(t0) / 1000).toFixed(1)} s`);
  const timings = await timeAll(o, async (q) => {
    const r = (await query(q)).results[0];
    if (!r || r.error) throw new Error(`${q}: ${r?.error ?? 'no result'}`);
    return summarize(r.series ?? []);
  });
  printTimings('influxdb 1.6 (GET /query over loopback, wall time)', timings);
}

async function main(): Promise<void> {
  const o = parseArgs(argv.slice(2));
  if (o.reopen) return reopen(o, o.reopen);
  console.log(`shape: m, host x region x rack = ${o.hosts} x ${o.regions} x ${o.racks} = ${o.hosts * o.regions * o.racks} series; runs ${o.runs} after ${o.warmup} warm-up`);
  if (o.influx) return influx(o);
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'meta-bench-'));
  try {
    await strata(o, dir);
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
