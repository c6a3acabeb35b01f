/**
 * Query latency, Strata against InfluxDB 1.6.7, on TSBS cpu-only data (perf/datasets.ts
 * cpuOnly: 100 hosts x 10 tags, 10 integer random-walk fields every 10 s from 2016-01-01).
 *
 *   node build/perf/query-bench.js --strata http://127.0.0.1:P1 --influx http://127.0.0.1:P2
 *        [--hours 12] [--runs 20] [--warmup 3] [--no-load | --load-strata-only] [--only name,name]
 *        [--strata-pid N --influx-pid N] [--client fetch|socket]
 *
 * Both servers must already run (loopback). Unless --no-load, database `benchmark` is dropped,
 * created and loaded on both (5000-line bodies, ns precision); with --load-strata-only on Strata
 * alone (a fresh Strata process against an InfluxDB loaded earlier and left to settle). Each query then runs `warmup`
 * times on each server, then `runs` times alternating the two servers, so both see the same
 * neighbours on a shared machine. Reported: median and p90 wall time of one GET /query from
 * send to the last body byte, and Strata/InfluxDB of the medians. `--client fetch` (default)
 * sends it with Node's fetch; `--client socket` with socket-get.ts over one kept-alive
 * connection per server, which leaves out fetch's 1.5-2 ms of client-side work per request. With the servers' PIDs, also
 * their mean CPU time per query (utime + stime from /proc, 10 ms ticks summed over the runs):
 * on an overloaded machine wall time mostly measures the run queue, CPU time the work done.
 * Results go in perf/QUERY.md.
 *
 * Query texts follow TSBS (cmd/tsbs_generate_queries/databases/influx/devops.go) with fixed
 * windows and hosts instead of random ones, so runs are comparable.
 */
import { argv, hrtime } from 'node:process';
import { cpuOnly, TSBS_START } from './datasets.js';
import { SocketGet } from './socket-get.js';
import { processCpuMs } from './bench-util.js';

const DB = 'benchmark';
const FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];

interface Options {
  strata: string;
  influx: string;
  hours: number;
  runs: number;
  warmup: number;
  /** Which servers get the data loaded before the passes. */
  load: 'both' | 'strata' | 'none';
  only?: Set<string>;
  strataPid?: number;
  influxPid?: number;
  client: 'fetch' | 'socket';
}

function parseArgs(args: string[]): Options {
  const o: Options = { strata: '', influx: '', hours: 12, runs: 20, warmup: 3, load: 'both', client: 'fetch' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = (): string => args[++i] ?? '';
    if (a === '--strata') o.strata = next().replace(/\/+$/, '');
    else if (a === '--influx') o.influx = next().replace(/\/+$/, '');
    else if (a === '--hours') o.hours = Number(next());
    else if (a === '--runs') o.runs = Number(next());
    else if (a === '--warmup') o.warmup = Number(next());
    else if (a === '--no-load') o.load = 'none';
    else if (a === '--load-strata-only') o.load = 'strata';
    else if (a === '--only') o.only = new Set(next().split(','));
    else if (a === '--strata-pid') o.strataPid = Number(next());
    else if (a === '--influx-pid') o.influxPid = Number(next());
    else if (a === '--client') o.client = next() === 'socket' ? 'socket' : 'fetch';
  }
  if (!o.strata || !o.influx) {
    console.error('usage: node build/perf/query-bench.js --strata URL --influx URL [--hours 12] [--runs 20] [--warmup 3] [--no-load | --load-strata-only] [--only a,b]');
    process.exit(2);
  }
  return o;
}

/** RFC 3339 for TSBS_START + minutes. */
function at(minutes: number): string {
  const ms = Number(TSBS_START / 1_000_000n) + minutes * 60_000;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const hostWhere = (hosts: number[]): string => '(' + hosts.map((h) => `hostname = 'host_${h}'`).join(' or ') + ')';
const maxOf = (fields: string[], sep = ', '): string => fields.map((f) => `max(${f})`).join(sep);

/** The TSBS devops queries plus two scans; windows sit inside `hours` of data. */
function queries(hours: number): Array<{ name: string; q: string }> {
  const end = hours * 60;
  const mid = Math.floor(end / 2);
  const clamp = (m: number): number => Math.max(0, Math.min(end, m));
  return [
    { name: 'single-groupby-1-1-1', q: `SELECT ${maxOf(FIELDS.slice(0, 1))} from cpu where ${hostWhere([42])} and time >= '${at(clamp(mid - 43))}' and time < '${at(clamp(mid + 17))}' group by time(1m)` },
    { name: 'single-groupby-5-1-12', q: `SELECT ${maxOf(FIELDS.slice(0, 5))} from cpu where ${hostWhere([42])} and time >= '${at(clamp(end - 720))}' and time < '${at(end)}' group by time(1m)` },
    { name: 'cpu-max-all-8', q: `SELECT ${maxOf(FIELDS, ',')} from cpu where ${hostWhere([3, 17, 29, 42, 56, 61, 77, 95])} and time >= '${at(clamp(mid - 240))}' and time < '${at(clamp(mid + 240))}' group by time(1m)` },
    { name: 'double-groupby-1', q: `SELECT mean(usage_user) from cpu where time >= '${at(clamp(end - 720))}' and time < '${at(end)}' group by time(1h),hostname` },
    { name: 'high-cpu-1', q: `SELECT * from cpu where usage_user > 90.0 and ${hostWhere([42])} and time >= '${at(clamp(end - 720))}' and time < '${at(end)}'` },
    { name: 'lastpoint', q: 'SELECT * from cpu group by "hostname" order by time desc limit 1' },
    { name: 'groupby-orderby-limit', q: `SELECT max(usage_user) from cpu WHERE time < '${at(clamp(mid + 17))}' group by time(1m) limit 5` },
    { name: 'count-all', q: 'SELECT count(*) FROM cpu' },
    { name: 'last-1000-raw', q: "SELECT * FROM cpu WHERE hostname = 'host_42' ORDER BY time DESC LIMIT 1000" },
  ];
}

async function post(url: string, body: string, contentType: string): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'Content-Type': contentType } });
}

async function load(base: string, hours: number): Promise<number> {
  await post(`${base}/query`, `q=${encodeURIComponent(`DROP DATABASE ${DB}`)}`, 'application/x-www-form-urlencoded');
  await post(`${base}/query`, `q=${encodeURIComponent(`CREATE DATABASE ${DB}`)}`, 'application/x-www-form-urlencoded');
  const t0 = hrtime.bigint();
  let batch: string[] = [];
  let n = 0;
  const flush = async (): Promise<void> => {
    const r = await post(`${base}/write?db=${DB}&precision=ns`, batch.join('\n') + '\n', 'text/plain');
    if (r.status !== 204) throw new Error(`write to ${base} answered ${r.status}: ${(await r.text()).slice(0, 200)}`);
    n += batch.length;
    batch = [];
  };
  for (const line of cpuOnly({ points: hours * 360 }).lines()) {
    batch.push(line);
    if (batch.length === 5000) await flush();
  }
  if (batch.length) await flush();
  console.log(`loaded ${n} lines into ${base} in ${(Number(hrtime.bigint() - t0) / 1e9).toFixed(1)} s`);
  return n;
}

interface Timed {
  readonly ms: number;
  readonly rows: number;
  readonly series: number;
  readonly bytes: number;
}

/** GET /query with fetch, or over the server's kept-alive socket. */
interface Getter {
  get(pathAndQuery: string): Promise<{ status: number; body: string }>;
  close(): void;
}

async function getter(base: string, client: Options['client']): Promise<Getter> {
  if (client === 'socket') return SocketGet.open(base);
  return {
    get: async (path) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: await res.text() };
    },
    close: () => undefined,
  };
}

async function timeQuery(get: Getter, base: string, q: string): Promise<Timed> {
  const t0 = hrtime.bigint();
  const res = await get.get(`/query?db=${DB}&q=${encodeURIComponent(q)}`);
  const text = res.body;
  const ms = Number(hrtime.bigint() - t0) / 1e6;
  if (res.status !== 200) throw new Error(`${base} answered ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { results?: Array<{ error?: string; series?: Array<{ values?: unknown[] }> }> };
  const result = body.results?.[0];
  if (result?.error) throw new Error(`${base}: ${result.error}`);
  const series = result?.series ?? [];
  return { ms, series: series.length, rows: series.reduce((s, x) => s + (x.values?.length ?? 0), 0), bytes: text.length };
}

/** CPU time of a process so far in ms (10 ms clock ticks); NaN without a pid. */
function cpuMs(pid: number | undefined): number {
  return pid === undefined ? NaN : processCpuMs(pid);
}

function stats(xs: number[]): { median: number; p90: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { median: s.length % 2 ? q(0.5) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2, p90: q(0.9) };
}

async function main(): Promise<void> {
  const o = parseArgs(argv.slice(2));
  if (o.load === 'both') await Promise.all([load(o.strata, o.hours), load(o.influx, o.hours)]);
  if (o.load === 'strata') await load(o.strata, o.hours);
  const strata = await getter(o.strata, o.client);
  const influx = await getter(o.influx, o.client);
  console.log(`client: ${o.client}`);
  const rows: string[] = [];
  let pass = 0;
  const selected = queries(o.hours).filter((x) => !o.only || o.only.has(x.name));
  for (const { name, q } of selected) {
    for (let i = 0; i < o.warmup; i++) {
      await timeQuery(strata, o.strata, q);
      await timeQuery(influx, o.influx, q);
    }
    const s: number[] = [];
    const f: number[] = [];
    let shape = '';
    let sCpu = 0;
    let fCpu = 0;
    for (let i = 0; i < o.runs; i++) {
      let c0 = cpuMs(o.strataPid);
      const a = await timeQuery(strata, o.strata, q);
      sCpu += cpuMs(o.strataPid) - c0;
      c0 = cpuMs(o.influxPid);
      const b = await timeQuery(influx, o.influx, q);
      fCpu += cpuMs(o.influxPid) - c0;
      s.push(a.ms);
      f.push(b.ms);
      shape = `${b.series} series, ${b.rows} rows`;
      if (a.rows !== b.rows || a.series !== b.series) shape += ` (Strata: ${a.series} series, ${a.rows} rows!)`;
    }
    const ss = stats(s);
    const fs = stats(f);
    const ratio = ss.median / fs.median;
    if (ratio <= 0.5) pass++;
    const cpu = `${(sCpu / o.runs).toFixed(1)} | ${(fCpu / o.runs).toFixed(1)} | ${(sCpu / fCpu).toFixed(2)}`;
    rows.push(`| ${name} | ${ss.median.toFixed(2)} | ${ss.p90.toFixed(2)} | ${fs.median.toFixed(2)} | ${fs.p90.toFixed(2)} | ${ratio.toFixed(2)} | ${ratio <= 0.5 ? 'yes' : 'no'} | ${cpu} | ${shape} |`);
    console.log(rows[rows.length - 1]);
  }
  console.log('\n| query | Strata median ms | Strata p90 | InfluxDB median ms | InfluxDB p90 | ratio | <= 0.5 | Strata CPU ms/q | InfluxDB CPU ms/q | CPU ratio | answer |');
  console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|');
  for (const r of rows) console.log(r);
  console.log(`\n${pass}/${selected.length} queries at or under half of InfluxDB's median`);
  for (const { name, q } of selected) console.log(`- ${name}: \`${q}\``);
  strata.close();
  influx.close();
}

await main();
