/**
 * Query latency, Strata against InfluxDB 1.6.7, on TSBS cpu-only data (perf/datasets.ts
 * cpuOnly: 100 hosts x 10 tags, 10 integer random-walk fields every 10 s from 2016-01-01).
 *
 *   node build/perf/query-bench.js --strata http://127.0.0.1:P1 --influx http://127.0.0.1:P2
 *        [--hours 12] [--runs 20] [--warmup 3] [--no-load | --load-strata-only] [--only name,name]
 *        [--strata-pid N --influx-pid N] [--client socket|fetch] [--gzip] [--random SEED] [--block N]
 *
 * Both servers must already run (loopback). Unless --no-load, database `benchmark` is dropped,
 * created and loaded on both (5000-line bodies, ns precision); with --load-strata-only on Strata
 * alone (a fresh Strata process against an InfluxDB loaded earlier and left to settle). Each query then runs `warmup`
 * times on each server, then `runs` times alternating the two servers, so both see the same
 * neighbours on a shared machine. Reported: median and p90 wall time of one GET /query from
 * send to the last body byte, and Strata/InfluxDB of the medians. `--client socket` (the default
 * since session 18) sends it with socket-get.ts over one kept-alive connection per server, as
 * TSBS's Go runner does; `--client fetch` with Node's fetch, which adds 1.5-2 ms of client-side
 * work to every request on this machine, more than either server needs for a small query, and so
 * pulls every ratio toward 1 (the default before session 18). `--gzip` makes the socket client
 * send `Accept-Encoding: gzip` and inflate compressed answers before the clock stops: TSBS's
 * runner uses Go's default http.Client, whose transport asks for gzip on every request and
 * inflates the body as it is read (1.6.7 compresses every 200; Strata those of 1 KiB or more).
 * With the servers' PIDs, also
 * their mean CPU time per query (utime + stime from /proc, 10 ms ticks summed over the runs):
 * on an overloaded machine wall time mostly measures the run queue, CPU time the work done.
 * Results go in perf/QUERY.md.
 *
 * Query texts follow TSBS (cmd/tsbs_generate_queries/databases/influx/devops.go) with fixed
 * windows and hosts instead of random ones, so runs are comparable. `--random SEED` draws
 * them as TSBS's generator does instead (random hosts among the 100, a random second-aligned
 * start within the data for each window), one text per run from a seeded generator: the same
 * sequence for both servers, and every run a text neither server has seen. `--block N`
 * alternates the servers in blocks of N runs (N Strata, the same N texts on InfluxDB, ...)
 * instead of request by request: still cancels drift, without each server's work refilling the
 * other's caches between every two requests (TSBS's runner queries one server at a time).
 */
import { argv, hrtime } from 'node:process';
import { cpuOnly, prng, TSBS_START } from './datasets.js';
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
  /** The socket client asks for gzip and inflates the answer inside the timed span (TSBS's Go runner). */
  gzip: boolean;
  /** Seed of TSBS-like random hosts and windows; undefined: the fixed texts. */
  randomSeed?: number;
  /** Runs per server before switching; 1 = request by request. */
  block: number;
}

function parseArgs(args: string[]): Options {
  const o: Options = { strata: '', influx: '', hours: 12, runs: 20, warmup: 3, load: 'both', client: 'socket', gzip: false, block: 1 };
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
    else if (a === '--client') o.client = next() === 'fetch' ? 'fetch' : 'socket';
    else if (a === '--gzip') o.gzip = true;
    else if (a === '--random') o.randomSeed = Number(next());
    else if (a === '--block') o.block = Math.max(1, Number(next()));
  }
  if (!o.strata || !o.influx) {
    console.error('usage: node build/perf/query-bench.js --strata URL --influx URL [--hours 12] [--runs 20] [--warmup 3] [--no-load | --load-strata-only] [--only a,b]');
    process.exit(2);
  }
  return o;
}

/** RFC 3339 for TSBS_START + minutes (whole seconds). */
function at(minutes: number): string {
  const ms = Number(TSBS_START / 1_000_000n) + Math.round(minutes * 60) * 1000;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const HOSTS = 100;

/** Where a query's hosts and window come from: the fixed choices, or TSBS-like random draws. */
interface Choices {
  /** `n` distinct hosts; `fixed` when not drawing. */
  hosts(fixed: number[]): number[];
  /** Start (minutes from TSBS_START) of a window of `minutes` inside [0, end); `fixed` when not drawing. */
  start(minutes: number, end: number, fixed: number): number;
}

const FIXED: Choices = { hosts: (fixed) => fixed, start: (_m, _e, fixed) => fixed };

/** TSBS's GetRandomHosts and RandWindow (uniform start, here to the second) from a seeded generator. */
function randomChoices(rnd: () => number): Choices {
  return {
    hosts(fixed) {
      const all = Array.from({ length: HOSTS }, (_, i) => i);
      for (let i = 0; i < fixed.length; i++) {
        const j = i + Math.floor(rnd() * (HOSTS - i));
        [all[i], all[j]] = [all[j]!, all[i]!];
      }
      return all.slice(0, fixed.length);
    },
    start: (minutes, end) => Math.floor(rnd() * Math.max(0, end - minutes) * 60) / 60,
  };
}

const hostWhere = (hosts: number[]): string => '(' + hosts.map((h) => `hostname = 'host_${h}'`).join(' or ') + ')';
const maxOf = (fields: string[], sep = ', '): string => fields.map((f) => `max(${f})`).join(sep);

/** The TSBS devops queries plus two scans; windows sit inside `hours` of data. */
function queries(hours: number): Array<{ name: string; text: (c: Choices) => string }> {
  const end = hours * 60;
  const mid = Math.floor(end / 2);
  const clamp = (m: number): number => Math.max(0, Math.min(end, m));
  /** `time >= .. and time < ..` for a window of `minutes` (clamped to the data), fixed at `fixedStart`. */
  const window = (c: Choices, minutes: number, fixedStart: number): string => {
    const from = clamp(c.start(minutes, end, fixedStart));
    return `time >= '${at(from)}' and time < '${at(clamp(from + minutes))}'`;
  };
  return [
    { name: 'single-groupby-1-1-1', text: (c) => `SELECT ${maxOf(FIELDS.slice(0, 1))} from cpu where ${hostWhere(c.hosts([42]))} and ${window(c, 60, mid - 43)} group by time(1m)` },
    { name: 'single-groupby-5-1-12', text: (c) => `SELECT ${maxOf(FIELDS.slice(0, 5))} from cpu where ${hostWhere(c.hosts([42]))} and ${window(c, 720, end - 720)} group by time(1m)` },
    { name: 'cpu-max-all-8', text: (c) => `SELECT ${maxOf(FIELDS, ',')} from cpu where ${hostWhere(c.hosts([3, 17, 29, 42, 56, 61, 77, 95]))} and ${window(c, 480, mid - 240)} group by time(1m)` },
    { name: 'double-groupby-1', text: (c) => `SELECT mean(usage_user) from cpu where ${window(c, 720, end - 720)} group by time(1h),hostname` },
    { name: 'high-cpu-1', text: (c) => `SELECT * from cpu where usage_user > 90.0 and ${hostWhere(c.hosts([42]))} and ${window(c, 720, end - 720)}` },
    { name: 'lastpoint', text: () => 'SELECT * from cpu group by "hostname" order by time desc limit 1' },
    { name: 'groupby-orderby-limit', text: (c) => `SELECT max(usage_user) from cpu WHERE time < '${at(clamp(c.start(60, end, mid - 43) + 60))}' group by time(1m) limit 5` },
    { name: 'count-all', text: () => 'SELECT count(*) FROM cpu' },
    { name: 'last-1000-raw', text: (c) => `SELECT * FROM cpu WHERE hostname = 'host_${c.hosts([42])[0]}' ORDER BY time DESC LIMIT 1000` },
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
  /** Anything to do before a request's clock starts (socket-get.ts: reconnect after an idle close). */
  ready?(): Promise<void>;
  get(pathAndQuery: string): Promise<{ status: number; body: string }>;
  close(): void;
}

async function getter(base: string, client: Options['client'], gzip: boolean): Promise<Getter> {
  if (client === 'socket') return SocketGet.open(base, gzip ? { 'Accept-Encoding': 'gzip' } : {});
  return {
    get: async (path) => {
      const res = await fetch(`${base}${path}`);
      return { status: res.status, body: await res.text() };
    },
    close: () => undefined,
  };
}

async function timeQuery(get: Getter, base: string, q: string): Promise<Timed> {
  await get.ready?.();
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
  const strata = await getter(o.strata, o.client, o.gzip);
  const influx = await getter(o.influx, o.client, o.gzip);
  const texts = o.randomSeed === undefined ? 'fixed texts' : `random texts, seed ${o.randomSeed}`;
  console.log(`client: ${o.client}${o.gzip ? ' asking for gzip' : ''}; ${texts}; ${o.block === 1 ? 'alternating request by request' : `alternating in blocks of ${o.block}`}`);
  const rows: string[] = [];
  let pass = 0;
  const all = queries(o.hours);
  const selected = all.filter((x) => !o.only || o.only.has(x.name));
  for (const { name, text } of selected) {
    // Each query its own stream, so --only does not change the texts a query gets.
    const choices = o.randomSeed === undefined ? FIXED : randomChoices(prng(o.randomSeed, all.findIndex((x) => x.name === name)));
    const warmups = Array.from({ length: o.warmup }, () => text(choices));
    const measured = Array.from({ length: o.runs }, () => text(choices));
    for (const q of warmups) {
      await timeQuery(strata, o.strata, q);
      await timeQuery(influx, o.influx, q);
    }
    const s: number[] = [];
    const f: number[] = [];
    let shape = '';
    let mismatches = 0;
    let sCpu = 0;
    let fCpu = 0;
    for (let first = 0; first < o.runs; first += o.block) {
      const block = measured.slice(first, first + o.block);
      const a: Timed[] = [];
      for (const q of block) {
        const c0 = cpuMs(o.strataPid);
        a.push(await timeQuery(strata, o.strata, q));
        sCpu += cpuMs(o.strataPid) - c0;
      }
      for (const [i, q] of block.entries()) {
        const c0 = cpuMs(o.influxPid);
        const b = await timeQuery(influx, o.influx, q);
        fCpu += cpuMs(o.influxPid) - c0;
        s.push(a[i]!.ms);
        f.push(b.ms);
        shape = `${b.series} series, ${b.rows} rows`;
        if (a[i]!.rows !== b.rows || a[i]!.series !== b.series) mismatches++;
      }
    }
    if (mismatches > 0) shape += ` (Strata's shape differed in ${mismatches} runs!)`;
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
  for (const { name, text } of selected) console.log(`- ${name}: \`${text(FIXED)}\`${o.randomSeed === undefined ? '' : ' (hosts and window drawn per run)'}`);
  strata.close();
  influx.close();
}

await main();
