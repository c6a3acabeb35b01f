/**
 * Soak: does a long-running `strata serve` keep its memory, file descriptors and files flat
 * under a steady dashboard-like load? An edge device runs for months; a cache keyed by query
 * text, a per-request listener or a file left open would show here as a slope long before it
 * shows as an out-of-memory kill.
 *
 *   node build/perf/soak.js [--minutes 30] [--devices 50] [--write-ms 100] [--query-ms 100]
 *                           [--sample-s 10] [--churn-per-min 0] [--retention 1h] [--lag-min 0]
 *                           [--port 18720] [--strata-log FILE]
 *
 * Starts a fresh server of this build (loopback, temp dirs; retention enforcement every minute on a policy
 * of --retention), then for --minutes: every --write-ms one batch of the edge-sensor shape
 * (one line per device, time = now), every --query-ms one query a dashboard would send with
 * absolute millisecond bounds (a new text each time, as Grafana's refreshes are), and now and
 * then SHOW statements. --lag-min L stamps the points (and the queries' bounds) L minutes in the
 * past: with L near twice --retention, shards expire and are dropped during the run (retention
 * enforcement runs every minute). --churn-per-min > 0 replaces that many device ids per minute (new
 * series; the index grows by design then). Every --sample-s it records the server's RSS,
 * V8 heap used (/debug/vars memstats), open file descriptors, TSM files and WAL segments.
 * The report is the samples and, over the second half (past warm-up and the first
 * compactions), each measure's least-squares slope per hour.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { flags, load, machine } from './bench-util.js';
import { closeAgents, http } from './influxd.js';
import { startStrata, type StrataServer } from './strata-server.js';

const f = flags(process.argv.slice(2));
const minutes = Number(f.get('minutes') ?? 30);
const devices = Number(f.get('devices') ?? 50);
const writeMs = Number(f.get('write-ms') ?? 100);
const queryMs = Number(f.get('query-ms') ?? 100);
const sampleS = Number(f.get('sample-s') ?? 10);
const churnPerMin = Number(f.get('churn-per-min') ?? 0);
const retention = f.get('retention') ?? '1h';
const lagMs = Number(f.get('lag-min') ?? 0) * 60_000;
const port = Number(f.get('port') ?? 18720);

interface Sample {
  readonly atS: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly fds: number;
  readonly tsm: number;
  readonly wal: number;
  readonly writes: number;
  readonly queries: number;
  readonly failures: number;
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function filesEndingIn(dir: string, suffix: string): number {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith(suffix)).length;
  } catch {
    return 0;
  }
}

async function heapMiB(srv: StrataServer): Promise<number> {
  const answer = await http(srv.port, 'GET', '/debug/vars', undefined);
  const vars = JSON.parse(answer.body) as { memstats?: { HeapAlloc?: number } };
  return (vars.memstats?.HeapAlloc ?? NaN) / 1024 / 1024;
}

/** Least-squares slope of y over x (per unit of x). */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(Math.random() * xs.length)]!;
}

/** A query a Grafana panel or the influx CLI would send, bounded in absolute ms like a dashboard refresh. */
function dashboardQuery(nowMs: number, device: string): string {
  const span = pick([5, 15, 60]) * 60_000;
  const where = `time >= ${nowMs - span}ms and time <= ${nowMs}ms`;
  const interval = pick(['1s', '10s', '1m']);
  return pick([
    `SELECT mean("temperature") FROM "sensor" WHERE ("device" = '${device}') AND ${where} GROUP BY time(${interval}) fill(null)`,
    `SELECT max("humidity"), min("humidity") FROM "sensor" WHERE ${where} GROUP BY time(${interval}), "site" fill(none)`,
    `SELECT last("battery") FROM "sensor" WHERE ${where} GROUP BY "device"`,
    `SELECT "temperature", "rssi" FROM "sensor" WHERE "device" = '${device}' AND ${where} ORDER BY time DESC LIMIT 100`,
    `SELECT count("temperature") FROM "sensor" WHERE ${where}`,
    `SELECT derivative(mean("battery"), 1m) FROM "sensor" WHERE "device" = '${device}' AND ${where} GROUP BY time(1m)`,
    `SHOW TAG VALUES FROM "sensor" WITH KEY = "device"`,
    `SHOW FIELD KEYS FROM "sensor"`,
  ]);
}

async function main(): Promise<void> {
  const srv = await startStrata(port, { env: { SERVICE__RETENTION__INTERVAL: '1m', SERVICE__LOGGING__LEVEL: 'warn' }, log: f.get('strata-log') });
  const pid = srv.pid;
  await http(srv.port, 'POST', `/query?q=${encodeURIComponent(`CREATE DATABASE soak WITH DURATION ${retention}`)}`, undefined);
  const ids = Array.from({ length: devices }, (_, i) => `d${i}`);
  let nextId = devices;
  let writes = 0;
  let queries = 0;
  let failures = 0;
  const firstFailures: string[] = [];
  const fail = (what: string) => {
    failures++;
    if (firstFailures.length < 5) firstFailures.push(what);
  };
  const started = Date.now();
  let endAt = started + minutes * 60_000;
  // Ctrl-C or a kill ends the run early, still through the report and the server's stop (its temp directory goes too).
  const finishEarly = () => {
    endAt = Date.now();
    wake?.();
  };
  let wake: (() => void) | undefined;
  process.once('SIGINT', finishEarly);
  process.once('SIGTERM', finishEarly);
  let stop = false;

  const writer = (async () => {
    let tick = 0;
    while (!stop) {
      const nowMs = Date.now();
      const atMs = nowMs - lagMs;
      const lines = ids.map((id, i) => `sensor,device=${id},site=s${i % 5} temperature=${(20 + Math.sin(tick / 50 + i)).toFixed(2)},humidity=${(50 + (tick % 7)).toFixed(1)},battery=${100 - (tick % 100)}i,rssi=${-60 - (i % 20)}i ${atMs}000000`);
      const answer = await http(srv.port, 'POST', '/write?db=soak', Buffer.from(lines.join('\n'))).catch((e: Error) => ({ status: 0, body: e.message }));
      if (answer.status === 204) writes++;
      else fail(`write ${answer.status} ${answer.body}`);
      tick++;
      await sleep(Math.max(0, writeMs - (Date.now() - nowMs)));
    }
  })();

  const querier = (async () => {
    while (!stop) {
      const t = Date.now();
      const q = dashboardQuery(t - lagMs, pick(ids));
      const answer = await http(srv.port, 'GET', `/query?db=soak&epoch=ms&q=${encodeURIComponent(q)}`, undefined).catch((e: Error) => ({ status: 0, body: e.message }));
      if (answer.status === 200 && !answer.body.includes('"error"')) queries++;
      else fail(`query ${answer.status} ${answer.body.slice(0, 200)} for ${q}`);
      await sleep(Math.max(0, queryMs - (Date.now() - t)));
    }
  })();

  const churner = (async () => {
    if (churnPerMin <= 0) return;
    while (!stop) {
      await sleep(60_000 / churnPerMin);
      ids[Math.floor(Math.random() * ids.length)] = `d${nextId++}`;
    }
  })();

  const samples: Sample[] = [];
  console.log(`soak: ${minutes} min, ${devices} devices every ${writeMs} ms, a query every ${queryMs} ms, churn ${churnPerMin}/min, retention ${retention}, points ${lagMs / 60_000} min in the past`);
  console.log(`machine: ${machine()}; load ${load()}`);
  console.log('| min | RSS MiB | heap MiB | fds | TSM files | WAL segments | writes | queries | failures |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  while (Date.now() < endAt) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(sampleS * 1000, Math.max(0, endAt - Date.now())));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const s: Sample = {
      atS: (Date.now() - started) / 1000,
      rssMiB: rssMiB(pid),
      heapMiB: await heapMiB(srv),
      fds: readdirSync(`/proc/${pid}/fd`).length,
      tsm: filesEndingIn(join(srv.dir, 'data'), '.tsm'),
      wal: filesEndingIn(join(srv.dir, 'wal'), '.wal'),
      writes,
      queries,
      failures,
    };
    samples.push(s);
    console.log(`| ${(s.atS / 60).toFixed(1)} | ${s.rssMiB.toFixed(1)} | ${s.heapMiB.toFixed(1)} | ${s.fds} | ${s.tsm} | ${s.wal} | ${s.writes} | ${s.queries} | ${s.failures} |`);
  }
  stop = true;
  await Promise.all([writer, querier, churner]);

  const late = samples.slice(Math.floor(samples.length / 2));
  const hours = late.map((s) => s.atS / 3600);
  const per = (get: (s: Sample) => number) => slope(hours, late.map(get)).toFixed(1);
  console.log(`\nslope over the second half (${late.length} samples), per hour: RSS ${per((s) => s.rssMiB)} MiB, heap ${per((s) => s.heapMiB)} MiB, fds ${per((s) => s.fds)}, TSM files ${per((s) => s.tsm)}, WAL segments ${per((s) => s.wal)}`);
  console.log(`writes ${writes}, queries ${queries}, failures ${failures}; load ${load()}`);
  for (const line of firstFailures) console.log(`failure: ${line}`);
  await srv.stop();
  closeAgents();
}

await main();
