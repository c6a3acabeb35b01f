/**
 * Dashboard-shaped aggregates over many windows, Strata against InfluxDB 1.6.7 on the same data
 * (stall-data.ts: 100 series x 100,000 points, one per second): nested aggregates over GROUP BY
 * time(small) and every tag (as Grafana and Chronograf send them), with fill(null) and
 * fill(previous), an outer aggregate of a derivative subquery, outer raw SELECTs and a raw
 * transform over a subquery (a WHERE on its column, a LIMIT), and a plain GROUP BY time over
 * the whole range, and a transform beside another call (split-*: two inner runs). Each shape
 * runs at growing window counts (the inner query's windows, all series together); the data
 * scanned stays the same, so memory that grows with the count grows with the result, and memory
 * that does not is the data's.
 *
 *   node build/perf/subquery-bench.js --strata http://127.0.0.1:P --strata-pid PID \
 *        --influx http://127.0.0.1:P --influx-pid PID [--load] [--windows 10000,100000,1000000] [--only NAME] [--timeout-s 120] [--runs 3]
 *
 * Per query and server, over `--runs` runs: the median wall time (send to last body byte), the server's peak RSS during the
 * query (VmHWM reset through /proc/PID/clear_refs just before each run; the largest), the slowest `GET /ping` sent
 * every 10 ms on another connection meanwhile (an event-loop stall), and whether the two answers
 * (epoch=ns) are byte-identical, equal as JSON, equal but for float cells' last digits (1e-12 relative:
 * partial sums merged in another order), or differ.
 */
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { flags, fmt, load, machine, median, MiB, vmHwm } from './bench-util.js';
import { BASE_S, loadStallData } from './stall-data.js';

const DB = 'stall';
const SERIES = 100;
const PER = 100_000;
const RANGE = `time >= ${BASE_S}s AND time < ${BASE_S + PER}s`;

/** The shapes, given the inner GROUP BY interval in seconds (`i` windows of `i` s per series). */
const SHAPES: readonly { readonly name: string; readonly text: (i: number) => string }[] = [
  { name: 'nested', text: (i) => `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *)` },
  { name: 'nested-fill-null', text: (i) => `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), * fill(null))` },
  { name: 'nested-fill-previous', text: (i) => `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), * fill(previous))` },
  { name: 'derivative', text: (i) => `SELECT mean(d) FROM (SELECT derivative(mean(v), 1s) AS d FROM m WHERE ${RANGE} GROUP BY time(${i}s), *)` },
  // An outer raw SELECT merges every inner series by time (subquery-slices.ts): few rows kept
  // by a WHERE on the inner column, the first rows only, and a raw transform per series.
  { name: 'raw-where', text: (i) => `SELECT m, s FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) WHERE m > 142000` },
  { name: 'raw-limit', text: (i) => `SELECT m, s FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) LIMIT 1000` },
  { name: 'raw-derivative', text: (i) => `SELECT derivative(m, 1s) FROM (SELECT max(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) WHERE m > 142000 GROUP BY s` },
  // A transform beside another call reads the subquery over two ranges (per-call-ranges.ts: two
  // inner runs); beside them one call alone and the transform alone (one run each).
  { name: 'split-call', text: (i) => `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) WHERE ${RANGE} GROUP BY time(1000s)` },
  { name: 'split-transform', text: (i) => `SELECT difference(max(m)) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) WHERE ${RANGE} GROUP BY time(1000s)` },
  { name: 'split-both', text: (i) => `SELECT max(m), difference(max(m)) FROM (SELECT mean(v) AS m FROM m WHERE ${RANGE} GROUP BY time(${i}s), *) WHERE ${RANGE} GROUP BY time(1000s)` },
  // The same number of windows without a subquery and without tags: windows 1/100 as long.
  { name: 'plain', text: (i) => `SELECT mean(v) FROM m WHERE ${RANGE} GROUP BY time(${i * 10}ms)` },
];

interface Measured {
  readonly status: number;
  readonly body: string;
  readonly seconds: number;
  readonly peakRss: number;
  readonly worstPing: number;
}

/** A GET; past `timeoutMs` the connection is closed (both servers then stop the query) and the status is 0. */
function get(port: number, path: string, agent: Agent, timeoutMs = 0): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: 0, body: 'timeout' });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    req.end();
  });
}

async function rss(pid: number): Promise<number> {
  const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function measure(port: number, pid: number, q: string, timeoutMs: number): Promise<Measured> {
  const queryAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const pingAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  await get(port, '/ping', pingAgent);
  // The peak of this query, not of the process's life (proc(5): clear_refs 5 resets VmHWM).
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let running = true;
  let worstPing = 0;
  const pinger = (async () => {
    while (running) {
      const t = performance.now();
      await get(port, '/ping', pingAgent);
      worstPing = Math.max(worstPing, performance.now() - t);
      await sleep(10);
    }
  })();
  const t0 = performance.now();
  const res = await get(port, `/query?db=${DB}&epoch=ns&q=${encodeURIComponent(q)}`, queryAgent, timeoutMs);
  const seconds = (performance.now() - t0) / 1000;
  running = false;
  await pinger;
  queryAgent.destroy();
  pingAgent.destroy();
  return { ...res, seconds, peakRss: await vmHwm(pid), worstPing };
}

/** Cells that differ only past the 12th significant digit (a float sum added in another order). */
function lastDigits(a: unknown, b: unknown, counter: { n: number }): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true;
    counter.n++;
    return Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => lastDigits(x, b[i], counter));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => lastDigits((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], counter));
  }
  return a === b;
}

function agreement(a: string, b: string): string {
  if (a === b) return 'bytes';
  try {
    const counter = { n: 0 };
    if (!lastDigits(JSON.parse(a), JSON.parse(b), counter)) return 'DIFF';
    return counter.n === 0 ? 'json' : `${counter.n} cells in the last digits`;
  } catch {
    return 'DIFF';
  }
}

const f = flags(process.argv.slice(2));
const strata = new URL(f.get('strata') ?? 'http://127.0.0.1:18590');
const influx = new URL(f.get('influx') ?? 'http://127.0.0.1:18580');
const strataPid = Number(f.get('strata-pid'));
const influxPid = Number(f.get('influx-pid'));
if (!Number.isFinite(strataPid) || !Number.isFinite(influxPid)) throw new Error('--strata-pid and --influx-pid are required');
const windows = (f.get('windows') ?? '10000,100000,1000000').split(',').map(Number);
const only = f.get('only');
// InfluxDB 1.6.7 takes minutes on some shapes (fill(previous) of 100k windows: 60 s).
const timeoutMs = Number(f.get('timeout-s') ?? 120) * 1000;
// Each server runs a text `runs` times in a row (the first run of a text pays a young process's
// compilation and cold caches; the median is the steady state), Strata's runs before InfluxDB's.
const runs = Number(f.get('runs') ?? 3);
const secs = (m: Measured): string => (m.status === 0 ? `> ${timeoutMs / 1000}` : m.seconds.toFixed(2));
if (f.get('load') === 'true') await Promise.all([loadStallData(strata.origin, DB, SERIES, PER), loadStallData(influx.origin, DB, SERIES, PER)]);

console.log(`${machine()}; ${new Date().toISOString()}; load ${load()}`);
console.log(`Strata RSS before: ${fmt((await rss(strataPid)) / MiB)} MiB; InfluxDB: ${fmt((await rss(influxPid)) / MiB)} MiB`);
console.log('| shape | windows | Strata s | InfluxDB s | ratio | Strata peak RSS MiB | InfluxDB peak RSS MiB | Strata worst ping ms | InfluxDB worst ping ms | answers |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
/** `runs` measurements of one server, stopping after a timeout: median wall, largest peak and stall. */
async function repeated(port: number, pid: number, q: string, runs: number): Promise<Measured> {
  const all: Measured[] = [];
  for (let r = 0; r < runs; r++) {
    const m = await measure(port, pid, q, timeoutMs);
    all.push(m);
    if (m.status === 0) return m;
  }
  return {
    status: all[all.length - 1]!.status,
    body: all[all.length - 1]!.body,
    seconds: median(all.map((m) => m.seconds)),
    peakRss: Math.max(...all.map((m) => m.peakRss)),
    worstPing: Math.max(...all.map((m) => m.worstPing)),
  };
}

for (const shape of SHAPES) {
  if (only && !only.split(',').includes(shape.name)) continue;
  for (const w of windows) {
    const interval = (SERIES * PER) / w;
    const q = shape.text(interval);
    const s = await repeated(Number(strata.port), strataPid, q, runs);
    const i = await repeated(Number(influx.port), influxPid, q, runs);
    const status = s.status === 200 && i.status === 200 ? agreement(s.body, i.body) : `HTTP ${s.status}/${i.status}: ${s.body.slice(0, 80)}`;
    console.log(
      `| ${shape.name} | ${fmt(w)} | ${secs(s)} | ${secs(i)} | ${(s.seconds / i.seconds).toFixed(2)} | ${fmt(s.peakRss / MiB)} | ${fmt(i.peakRss / MiB)} | ${fmt(s.worstPing)} | ${fmt(i.worstPing)} | ${status} |`,
    );
  }
}
console.log(`done ${new Date().toISOString()}; load ${load()}`);
