/**
 * A monitoring setup's day, Strata against InfluxDB 1.6.7: a Telegraf-like writer and a
 * Grafana-like dashboard at the same time, on one server at a time (each fresh, same data,
 * same request sequence), so the numbers show what a dashboard user sees while the server
 * ingests, not each side alone.
 *
 *   node build/perf/mixed-load-bench.js [--targets strata,influx] [--seconds 60] [--hosts 1000]
 *       [--tick-ms 100] [--history-minutes 60] [--refresh-ms 1000] [--rounds 1]
 *       [--writer on|off] [--panels together|one-by-one|none] [--slow-ms N]
 *       [--strata-node-args=--max-old-space-size=512] [--strata-port 18700] [--influx-port 18786]
 *
 * - History: `--history-minutes` of TSBS-like cpu points (10 integer fields, 10 tags) for
 *   `--hosts` hosts, one per 10 s, ending at the bench's start, written before the clock runs.
 * - Writer: every `--tick-ms` one body with a point per host stamped with the tick's time
 *   (Telegraf's default batch is 1,000 metrics), one request in flight as Telegraf's output
 *   keeps; a tick that finds the previous body unanswered is sent when it is answered, so a
 *   server that falls behind shows as fewer lines/s than offered.
 * - Dashboard: every `--refresh-ms` the panels below go out together (a browser's six
 *   connections), `epoch=ms` as Grafana asks, with `now()`-relative ranges over the data being
 *   written; each panel's latency is recorded.
 * `--writer off`, `--panels none` and `--panels one-by-one` take the setup apart: the dashboard without the
 * writes, and each panel's own latency without the other panels queued beside it.
 * `--strata-node-args` starts Strata's Node with these flags (space-separated), e.g. the old-space
 * limit V8 would pick by itself on a device with 2 GiB of memory (perf/README.md, section 25c).
 * `--strata-port` / `--influx-port` move the servers off the default ports (InfluxDB also takes
 * its port + 2 for its RPC bind), so two benches, or a bench beside a test run, do not collide.
 * Reported per target: offered and written lines/s, write latency p50/p99, each panel's
 * p50/p99 and errors, the server's CPU time and peak RSS; then Strata/InfluxDB ratios.
 */
import { argv, hrtime } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'node:http';
import { cpuOnly } from './datasets.js';
import { batches, flags, fmt, load, machine, median, MiB, percentile, processCpuMs, vmHwm } from './bench-util.js';
import { http, ping, startInfluxd, stopInfluxd } from './influxd.js';
import { startStrata } from './strata-server.js';

const DB = 'telegraf';
const FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];

/** The dashboard: what a host-overview board's panels and its template variable ask. */
const PANELS: readonly { readonly name: string; readonly q: string }[] = [
  // Grafana resolves a template variable before the panels that use it: first in line.
  { name: 'hostname variable', q: `SHOW TAG VALUES FROM "cpu" WITH KEY = "hostname"` },
  { name: 'one host, 15m by 10s', q: `SELECT mean("usage_user") FROM "cpu" WHERE ("hostname" = 'host_7') AND time >= now() - 15m GROUP BY time(10s) fill(null)` },
  { name: 'five hosts, 1h by 1m', q: `SELECT max("usage_system") FROM "cpu" WHERE ("hostname" =~ /^host_(1|2|3|4|5)$/) AND time >= now() - 1h GROUP BY time(1m), "hostname" fill(null)` },
  { name: 'all hosts, 1h by 1m', q: `SELECT mean("usage_idle") FROM "cpu" WHERE time >= now() - 1h GROUP BY time(1m) fill(null)` },
  { name: 'last per host (table)', q: `SELECT last("usage_iowait") FROM "cpu" WHERE time >= now() - 5m GROUP BY "hostname"` },
  { name: 'points in the last hour', q: `SELECT count("usage_user") FROM "cpu" WHERE time >= now() - 1h` },
];

interface Options {
  readonly targets: readonly string[];
  readonly seconds: number;
  readonly hosts: number;
  readonly tickMs: number;
  readonly historyMinutes: number;
  readonly refreshMs: number;
  readonly rounds: number;
  readonly writer: boolean;
  readonly together: boolean;
  readonly dashboard: boolean;
  /** `--slow-ms N`: print each panel answer slower than N ms with its time into the run. */
  readonly slowMs: number;
  readonly strataNodeArgs: readonly string[];
  readonly strataPort: number;
  readonly influxPort: number;
}

interface Target {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

interface Outcome {
  readonly target: string;
  readonly offered: number;
  readonly written: number;
  readonly writeMs: number[];
  readonly writeErrors: number;
  readonly panelMs: Map<string, number[]>;
  readonly panelErrors: Map<string, number>;
  readonly cpuMs: number;
  readonly rssMiB: number;
  readonly load: string;
}

function options(args: readonly string[]): Options {
  const f = flags(args);
  const num = (k: string, d: number) => Number(f.get(k) ?? d);
  return {
    targets: (f.get('targets') ?? 'strata,influx').split(','),
    seconds: num('seconds', 60),
    hosts: num('hosts', 1000),
    tickMs: num('tick-ms', 100),
    historyMinutes: num('history-minutes', 60),
    refreshMs: num('refresh-ms', 1000),
    rounds: num('rounds', 1),
    writer: f.get('writer') !== 'off',
    together: f.get('panels') !== 'one-by-one',
    dashboard: f.get('panels') !== 'none',
    slowMs: num('slow-ms', 0),
    strataNodeArgs: (f.get('strata-node-args') ?? '').split(' ').filter((a) => a !== ''),
    strataPort: num('strata-port', 18700),
    influxPort: num('influx-port', 18786),
  };
}

/** The hosts' series keys (TSBS cpu-only tags), the prefix of every line the writer sends. */
function seriesKeys(hosts: number): string[] {
  return [...cpuOnly({ series: hosts, points: 1 }).series()].map((s) => s.seriesKey);
}

/** One tick's body: a point per host at `ms`, each field a random walk per host. */
function tickBody(keys: readonly string[], ms: number, walk: Int32Array, rnd: () => number): Buffer {
  const ns = `${ms}000000`;
  const lines: string[] = [];
  keys.forEach((key, h) => {
    const fields = FIELDS.map((f, i) => {
      const k = h * FIELDS.length + i;
      walk[k] = Math.max(0, Math.min(100, walk[k]! + Math.round((rnd() - 0.5) * 4)));
      return `${f}=${walk[k]}i`;
    });
    lines.push(`${key} ${fields.join(',')} ${ns}`);
  });
  return Buffer.from(lines.join('\n') + '\n');
}

/** History bodies ending now, aligned to 10 s (TSBS cpu-only, shifted to the present). */
function historyBodies(o: Options): Buffer[] {
  const points = Math.round((o.historyMinutes * 60) / 10);
  const startMs = Math.floor(Date.now() / 10_000) * 10_000 - points * 10_000;
  return batches(cpuOnly({ series: o.hosts, points, start: BigInt(startMs) * 1_000_000n }).lines(), 5000);
}

async function startTarget(name: string, port: number, strataNodeArgs: readonly string[]): Promise<Target> {
  if (name === 'strata') {
    const s = await startStrata(port, { nodeArgs: strataNodeArgs });
    return { name, pid: s.pid, port, stop: () => s.stop() };
  }
  const i = await startInfluxd(port, port + 2);
  return { name, pid: i.pid, port, stop: () => stopInfluxd(i) };
}

function ms(since: bigint): number {
  return Number(hrtime.bigint() - since) / 1e6;
}

async function runTarget(o: Options, name: string, port: number, keys: readonly string[], seed: number): Promise<Outcome> {
  const history = historyBodies(o); // generated per target: its ranges end at its own start
  const t = await startTarget(name, port, o.strataNodeArgs);
  const writes = new Agent({ keepAlive: true, maxSockets: 1 });
  const panels = new Agent({ keepAlive: true, maxSockets: 6 });
  try {
    await ping(port);
    const created = await http(port, 'POST', `/query?q=${encodeURIComponent(`CREATE DATABASE ${DB}`)}`, undefined, panels);
    if (created.status !== 200) throw new Error(`${name}: CREATE DATABASE: ${created.status} ${created.body}`);
    for (const b of history) {
      const r = await http(port, 'POST', `/write?db=${DB}`, b, writes);
      if (r.status !== 204) throw new Error(`${name}: history write: ${r.status} ${r.body.slice(0, 200)}`);
    }
    await sleep(2000); // both settle their first flush of the history before the clock runs

    let state = seed >>> 0;
    const rnd = () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const walk = new Int32Array(o.hosts * FIELDS.length).fill(50);
    const writeMs: number[] = [];
    let writeErrors = 0;
    let offered = 0;
    let written = 0;
    const panelMs = new Map(PANELS.map((p) => [p.name, [] as number[]]));
    const panelErrors = new Map(PANELS.map((p) => [p.name, 0]));
    const cpu0 = processCpuMs(t.pid);
    const start = Date.now();
    const end = start + o.seconds * 1000;

    const writer = async () => {
      if (!o.writer) return;
      for (let tick = start; tick < end; tick += o.tickMs) {
        if (Date.now() < tick) await sleep(tick - Date.now());
        const body = tickBody(keys, tick, walk, rnd);
        offered += o.hosts;
        const t0 = hrtime.bigint();
        const r = await http(port, 'POST', `/write?db=${DB}`, body, writes);
        writeMs.push(ms(t0));
        if (r.status === 204) written += o.hosts;
        else writeErrors++;
      }
    };
    const dashboard = async () => {
      if (!o.dashboard) return;
      for (let refresh = start + o.refreshMs; refresh < end; refresh += o.refreshMs) {
        if (Date.now() < refresh) await sleep(refresh - Date.now());
        const ask = async (p: (typeof PANELS)[number]) => {
          const t0 = hrtime.bigint();
          const r = await http(port, 'GET', `/query?db=${DB}&epoch=ms&q=${encodeURIComponent(p.q)}`, undefined, panels);
          const took = ms(t0);
          panelMs.get(p.name)!.push(took);
          if (o.slowMs > 0 && took > o.slowMs) console.log(`  ${name} +${((Date.now() - start) / 1000).toFixed(1)} s: ${p.name} ${fmt(took)} ms`);
          if (r.status !== 200 || r.body.includes('"error"')) panelErrors.set(p.name, panelErrors.get(p.name)! + 1);
        };
        if (o.together) await Promise.all(PANELS.map(ask));
        else for (const p of PANELS) await ask(p);
      }
    };
    await Promise.all([writer(), dashboard()]);
    const cpuMs = processCpuMs(t.pid) - cpu0;
    const rssMiB = (await vmHwm(t.pid)) / MiB;
    return { target: name, offered, written, writeMs, writeErrors, panelMs, panelErrors, cpuMs, rssMiB, load: load() };
  } finally {
    writes.destroy();
    panels.destroy();
    await t.stop();
  }
}

function report(o: Options, outcomes: readonly Outcome[]): void {
  const secs = o.seconds;
  console.log(`\n| target | offered lines/s | written lines/s | write p50 ms | write p99 ms | write errors | server CPU s | peak RSS MiB | load after |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of outcomes) {
    console.log(`| ${r.target} | ${fmt(r.offered / secs)} | ${fmt(r.written / secs)} | ${fmt(median(r.writeMs), 1)} | ${fmt(percentile(r.writeMs, 0.99), 1)} | ${r.writeErrors} | ${fmt(r.cpuMs / 1000, 1)} | ${fmt(r.rssMiB)} | ${r.load} |`);
  }
  console.log(`\n| panel | ${outcomes.map((r) => `${r.target} p50 ms | ${r.target} p99 ms | ${r.target} errors`).join(' | ')} |`);
  console.log(`|---|${outcomes.map(() => '---:|---:|---:').join('|')}|`);
  for (const p of PANELS) {
    const cells = outcomes.map((r) => {
      const xs = r.panelMs.get(p.name)!;
      return `${fmt(median(xs), 1)} | ${fmt(percentile(xs, 0.99), 1)} | ${r.panelErrors.get(p.name)}`;
    });
    console.log(`| ${p.name} | ${cells.join(' | ')} |`);
  }
  const s = outcomes.filter((r) => r.target === 'strata');
  const i = outcomes.filter((r) => r.target === 'influx');
  if (s.length > 0 && i.length > 0) {
    const all = (rs: readonly Outcome[], name: string) => rs.flatMap((r) => r.panelMs.get(name)!);
    console.log('\nStrata / InfluxDB, panel medians (p99s):');
    for (const p of PANELS) {
      const a = all(s, p.name);
      const b = all(i, p.name);
      console.log(`- ${p.name}: ${(median(a) / median(b)).toFixed(2)} (${(percentile(a, 0.99) / percentile(b, 0.99)).toFixed(2)})`);
    }
    const wa = s.flatMap((r) => r.writeMs);
    const wb = i.flatMap((r) => r.writeMs);
    console.log(`- writes: ${(median(wa) / median(wb)).toFixed(2)} (${(percentile(wa, 0.99) / percentile(wb, 0.99)).toFixed(2)})`);
  }
}

async function main(): Promise<void> {
  const o = options(argv.slice(2));
  console.log(`machine: ${machine()}; load ${load()}`);
  const writes = o.writer ? `a body every ${o.tickMs} ms (${fmt((o.hosts * 1000) / o.tickMs)} lines/s offered)` : 'no writes';
  console.log(`${o.hosts} hosts, ${writes} for ${o.seconds} s over ${o.historyMinutes} min of history; ${o.dashboard ? `${PANELS.length} panels ${o.together ? 'together' : 'one by one'} every ${o.refreshMs} ms` : 'no dashboard'}`);
  const keys = seriesKeys(o.hosts);
  const outcomes: Outcome[] = [];
  for (let round = 0; round < o.rounds; round++) {
    // Alternate which server goes first, so a machine getting busier does not favour one.
    const order = round % 2 === 0 ? o.targets : [...o.targets].reverse();
    for (const name of order) {
      const r = await runTarget(o, name, name === 'strata' ? o.strataPort : o.influxPort, keys, 2701 + round);
      console.log(`round ${round + 1} ${name}: ${fmt(r.written / o.seconds)} lines/s written, write p50 ${fmt(median(r.writeMs), 1)} ms, panels p50 ${PANELS.map((p) => fmt(median(r.panelMs.get(p.name)!), 1)).join('/')} ms`);
      outcomes.push(r);
    }
  }
  report(o, outcomes);
}

await main();
