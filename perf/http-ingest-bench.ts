/**
 * HTTP ingest load generator: `strata serve` against InfluxDB 1.6.7, same bodies, same
 * durability (both acknowledge a write only after its WAL fsync).
 *
 *   node build/perf/http-ingest-bench.js [--profiles cpu,sensor] [--targets strata,influx]
 *       [--runs 3] [--conns 4] [--hours 12] [--sensor-hours 3] [--cpu-prof DIR]
 *       [--warmup-lines N] [--node-args="--trace-gc ..."] [--strata-log FILE]
 *
 * Line protocol (TSBS cpu-only with integer fields, or the edge-sensor set) is generated and
 * cut into 5000-line bodies before the clock starts. With `--warmup-lines N`, the first N lines
 * are first written, untimed, into a separate database, so that both servers are measured warm
 * (Strata's JIT compiles its write path in the first seconds: measured 0.35–0.7 µs per line of
 * compiler threads in a 3–10 s run). `--conns` keep-alive connections
 * (node:http Agent) each POST the next body as soon as the previous one is answered. Each run
 * starts a fresh server: reported are lines/s and values/s, p50/p99 batch latency, the
 * server's peak RSS (VmHWM from /proc/<pid>/status) and, after the load, a full scan with
 * `SELECT count(*) FROM <measurement>` on each server. `--cpu-prof DIR` runs Strata under
 * `node --cpu-prof` (profiles written to DIR when it stops); `--node-args` are passed to Node
 * before the script, and `--strata-log` appends the server's stdout and stderr to FILE. The
 * server's CPU time per line is reported per thread (main, parse worker, V8's GC helpers, libuv).
 */
import type { Agent } from 'node:http';
import { argv, cpuUsage, hrtime } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuOnly, edgeSensors } from './datasets.js';
import { batches, flags, fmt, load, machine, median, MiB, percentile, pool, processCpuMs, threadCpuMs, vmHwm } from './bench-util.js';
import { agentFor, closeAgents, http, query, startInfluxd, stopInfluxd, sumCounts, type Influxd } from './influxd.js';
import { startStrata } from './strata-server.js';

const LINES_PER_BATCH = 5000;
const DB = 'bench';
/** `--warmup-lines`: the first bodies go here first, untimed, so both servers are measured warm. */
const WARMUP_DB = 'warmup';

interface Profile {
  readonly name: string;
  readonly measurement: string;
  readonly bodies: Buffer[];
  readonly lines: number;
  readonly values: number;
}

interface Result {
  readonly profile: string;
  readonly target: string;
  readonly sec: number;
  readonly lines: number;
  readonly values: number;
  readonly p50: number;
  readonly p99: number;
  readonly rss: number;
  readonly scanSec: number;
  readonly scanned: number;
  readonly load: string;
  /** CPU ms used during the timed ingest by the server (all threads) and by this load generator. */
  readonly serverCpuMs: number;
  readonly clientCpuMs: number;
}

function makeProfile(name: string, f: Map<string, string>): Profile {
  const ds =
    name === 'cpu'
      ? cpuOnly({ points: Math.round((Number(f.get('hours') ?? 12) * 3600) / 10) })
      : edgeSensors({ points: Math.round(Number(f.get('sensor-hours') ?? 3) * 3600) });
  let lines = 0;
  let values = 0;
  for (const s of ds.series()) {
    lines += s.offsets.length;
    values += s.offsets.length * s.fields.length;
  }
  return { name, measurement: name === 'cpu' ? 'cpu' : 'sensors', bodies: batches(ds.lines(), LINES_PER_BATCH), lines, values };
}

interface Server {
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

function startStrataFor(port: number, f: Map<string, string>): Promise<Server> {
  const nodeArgs = (f.get('node-args') ?? '').split(' ').filter((a) => a !== '');
  return startStrata(port, { nodeArgs, cpuProfDir: f.get('cpu-prof'), log: f.get('strata-log') });
}

async function startInflux(port: number): Promise<Server> {
  const inst: Influxd = await startInfluxd(port, port + 2);
  return { pid: inst.pid, port, stop: () => stopInfluxd(inst) };
}

/** Creates `db` and POSTs every body over `conns` connections; answers each batch's latency in ms. */
async function writeAll(port: number, target: string, db: string, bodies: readonly Buffer[], conns: number, agent: Agent): Promise<number[]> {
  const c = await http(port, 'POST', `/query?q=${encodeURIComponent(`CREATE DATABASE ${db}`)}`, undefined);
  if (c.status !== 200) throw new Error(`CREATE DATABASE: HTTP ${c.status}`);
  const lat: number[] = [];
  await pool(bodies.length, conns, async (i) => {
    const t = hrtime.bigint();
    const r = await http(port, 'POST', `/write?db=${db}&precision=ns`, bodies[i]!, agent);
    if (r.status !== 204) throw new Error(`${target} write: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    lat.push(Number(hrtime.bigint() - t) / 1e6);
  });
  return lat;
}

async function runOne(p: Profile, target: string, f: Map<string, string>): Promise<Result> {
  const conns = Number(f.get('conns') ?? 4);
  const server = target === 'strata' ? await startStrataFor(Number(f.get('strata-port') ?? 18501), f) : await startInflux(Number(f.get('influx-port') ?? 18386));
  try {
    const agent = agentFor(server.port, conns);
    const warmup = Math.min(p.bodies.length, Math.ceil(Number(f.get('warmup-lines') ?? 0) / LINES_PER_BATCH));
    if (warmup > 0) await writeAll(server.port, target, WARMUP_DB, p.bodies.slice(0, warmup), conns, agent);
    const cpu0 = processCpuMs(server.pid);
    const threads0 = threadCpuMs(server.pid);
    const client0 = cpuUsage();
    const t0 = hrtime.bigint();
    const lat = await writeAll(server.port, target, DB, p.bodies, conns, agent);
    const sec = Number(hrtime.bigint() - t0) / 1e9;
    const serverCpuMs = processCpuMs(server.pid) - cpu0;
    const perLine = (ms: number): string => fmt((ms * 1000) / p.lines, 2);
    const threads = [...threadCpuMs(server.pid)]
      .map(([name, t]) => ({ name, user: t.user - (threads0.get(name)?.user ?? 0), system: t.system - (threads0.get(name)?.system ?? 0) }))
      .filter((t) => t.user + t.system > 0)
      .sort((a, b) => b.user + b.system - (a.user + a.system))
      .map((t) => `${t.name} ${perLine(t.user)}+${perLine(t.system)}`);
    console.error(`${target}: server CPU µs/line by thread (user+system): ${threads.join(', ')}`);
    const cc = cpuUsage(client0);
    const clientCpuMs = (cc.user + cc.system) / 1000;
    const rss = await vmHwm(server.pid);
    const l = load();
    const t1 = hrtime.bigint();
    let scanned = NaN;
    try {
      scanned = sumCounts(await query(server.port, DB, `SELECT count(*) FROM ${p.measurement}`));
    } catch (err) {
      console.error(`${target}: count(*) failed: ${String(err)}`);
    }
    const scanSec = Number(hrtime.bigint() - t1) / 1e9;
    if (scanned !== p.values) {
      // Every write was acknowledged before the query: a short count is a visibility bug.
      await sleep(2000);
      const again = sumCounts(await query(server.port, DB, `SELECT count(*) FROM ${p.measurement}`)).toString();
      console.error(`${target}: count(*) right after the last ack saw ${scanned} of ${p.values} values; 2 s later ${again}`);
    }
    return { profile: p.name, target, sec, lines: p.lines, values: p.values, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), rss, scanSec, scanned, load: l, serverCpuMs, clientCpuMs };
  } finally {
    closeAgents();
    await server.stop();
  }
}

function report(all: Result[], profiles: string[]): void {
  console.log(`\nmachine: ${machine()}; ${new Date().toISOString()}\n`);
  console.log('| profile | target | lines | lines/s | values/s | p50 batch ms | p99 batch ms | server peak RSS MiB | server CPU µs/line | load generator CPU µs/line | count(*) values/s (cache-hot) | load at end of ingest (1 min) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const ratios: string[] = [];
  for (const p of profiles) {
    const m = new Map<string, { lps: number; rss: number; p99: number; cpu: number }>();
    for (const t of ['strata', 'influx']) {
      const rs = all.filter((r) => r.profile === p && r.target === t);
      if (rs.length === 0) continue;
      const lps = median(rs.map((r) => r.lines / r.sec));
      const rss = median(rs.map((r) => r.rss));
      const p99 = median(rs.map((r) => r.p99));
      const cpu = median(rs.map((r) => (r.serverCpuMs * 1000) / r.lines));
      m.set(t, { lps, rss, p99, cpu });
      console.log(
        `| ${p} | ${t === 'influx' ? 'InfluxDB 1.6.7' : 'Strata'} (${rs.length} runs) | ${fmt(rs[0]!.lines)} | ${fmt(lps)} | ${fmt(median(rs.map((r) => r.values / r.sec)))} | ${fmt(median(rs.map((r) => r.p50)), 1)} | ${fmt(p99, 1)} | ${fmt(rss / MiB)} | ${fmt(cpu, 2)} | ${fmt(median(rs.map((r) => (r.clientCpuMs * 1000) / r.lines)), 2)} | ${fmt(median(rs.map((r) => r.scanned / r.scanSec)))} | ${rs.map((r) => r.load.split(' ')[0]).join(', ')} |`,
      );
      for (const r of rs) if (r.scanned !== r.values) console.log(`  note ${p}/${t}: count(*) saw ${r.scanned} of ${r.values} values`);
    }
    const s = m.get('strata');
    const i = m.get('influx');
    if (s && i) ratios.push(`| ${p} | ${(s.lps / i.lps).toFixed(2)} (target ≥ 2) | ${(s.p99 / i.p99).toFixed(2)} | ${(s.rss / i.rss).toFixed(2)} (target < 1) | ${(s.cpu / i.cpu).toFixed(2)} |`);
  }
  if (ratios.length) {
    console.log('\n| profile | points/s Strata/InfluxDB | p99 Strata/InfluxDB | peak RSS Strata/InfluxDB | server CPU per line Strata/InfluxDB |');
    console.log('|---|---|---|---|---|');
    for (const r of ratios) console.log(r);
  }
}

async function main(): Promise<void> {
  const f = flags(argv.slice(2));
  const profiles = (f.get('profiles') ?? 'cpu,sensor').split(',');
  const targets = (f.get('targets') ?? 'strata,influx').split(',');
  const runs = Number(f.get('runs') ?? 3);
  const all: Result[] = [];
  for (const name of profiles) {
    const p = makeProfile(name, f);
    for (let run = 0; run < runs; run++) {
      for (const t of targets) {
        try {
          const r = await runOne(p, t, f);
          all.push(r);
          console.error(`${name}/${t} run ${run + 1}: ${fmt(r.lines / r.sec)} lines/s, p99 ${fmt(r.p99, 1)} ms, RSS ${fmt(r.rss / MiB)} MiB, count(*) ${fmt(r.scanned / r.scanSec)} values/s, CPU/line server ${fmt((r.serverCpuMs * 1000) / r.lines, 2)} µs client ${fmt((r.clientCpuMs * 1000) / r.lines, 2)} µs, load ${r.load}`);
        } catch (err) {
          console.error(`${name}/${t} run ${run + 1} failed: ${String(err)}`);
        }
      }
    }
  }
  report(all, profiles);
}

await main();
