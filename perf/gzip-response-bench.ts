/**
 * Bytes and server CPU per /query request with and without `Accept-Encoding: gzip`, Strata
 * beside InfluxDB 1.6.7 (session g20, perf/QUERY.md). Loads ROWS generic points (10 series,
 * a float, an integer and a string field) into database `gzbench` of both servers, then asks
 * each answer shape RUNS times per server and encoding, the servers taking turns request by
 * request. CPU is the whole process's (/proc/PID/stat, all threads: zlib runs on libuv's pool
 * in Strata and on goroutines in InfluxDB), read before and after each request.
 *
 *   node build/perf/gzip-response-bench.js strata=http://127.0.0.1:P,PID influx=http://127.0.0.1:P,PID [ROWS] [RUNS]
 */
import { request } from 'node:http';
import { argv } from 'node:process';
import { median, processCpuMs } from './bench-util.js';

const [strataArg = '', influxArg = '', rowsArg = '100000', runsArg = '10'] = argv.slice(2);
const ROWS = Number(rowsArg);
const RUNS = Number(runsArg);
const BASE_S = 1_600_000_000;

interface Target {
  readonly name: string;
  readonly url: URL;
  readonly pid: number;
}

function target(arg: string): Target {
  const [name = '', rest = ''] = arg.split('=');
  const [url = '', pid = ''] = rest.split(',');
  return { name, url: new URL(url), pid: Number(pid) };
}

function send(t: Target, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; bytes: number; encoding: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: t.url.hostname, port: t.url.port, method, path, headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => ok({ status: res.statusCode ?? 0, bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function load(t: Target): Promise<void> {
  await send(t, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE gzbench')}`);
  for (let from = 0; from < ROWS; from += 10_000) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(ROWS, from + 10_000); i++) {
      lines.push(`bench,host=host_${i % 10},region=r${i % 3} usage=${((i * 7919) % 10_000) / 100},count=${i % 1000}i,state="s${i % 7}" ${BASE_S + i}`);
    }
    const res = await send(t, 'POST', '/write?db=gzbench&precision=s', {}, lines.join('\n'));
    if (res.status !== 204) throw new Error(`${t.name}: write answered ${res.status}`);
  }
}

const q = (text: string, extra = '') => `/query?db=gzbench${extra}&q=${encodeURIComponent(text)}`;
const SHAPES: { name: string; path: string; headers: Record<string, string> }[] = [
  { name: `raw ${ROWS} rows, JSON`, path: q('SELECT * FROM bench'), headers: {} },
  { name: `raw ${ROWS} rows, chunked=true (10000)`, path: q('SELECT * FROM bench', '&chunked=true&chunk_size=10000'), headers: {} },
  { name: `raw ${ROWS} rows, CSV`, path: q('SELECT * FROM bench'), headers: { accept: 'application/csv' } },
  { name: 'mean per host, 1 row each (small)', path: q('SELECT mean(usage) FROM bench GROUP BY host'), headers: {} },
];

const servers = [target(strataArg), target(influxArg)];
for (const t of servers) await load(t);
console.log(`rows ${ROWS}, runs ${RUNS}; median bytes on the wire and server CPU ms (all threads) per request`);
console.log('| answer | server | identity bytes | gzip bytes | ratio | identity CPU ms | gzip CPU ms | gzip/identity CPU |');
console.log('|---|---|---|---|---|---|---|---|');
for (const shape of SHAPES) {
  const stats = new Map<string, { bytes: number[]; cpu: number[] }>();
  for (let run = -2; run < RUNS; run++) {
    for (const t of servers) {
      for (const gzip of [false, true]) {
        const c0 = processCpuMs(t.pid);
        const res = await send(t, 'GET', shape.path, gzip ? { ...shape.headers, 'accept-encoding': 'gzip' } : shape.headers);
        const cpu = processCpuMs(t.pid) - c0;
        if (res.status !== 200) throw new Error(`${t.name} ${shape.name}: ${res.status}`);
        if (run < 0) continue; // warm-up
        const key = `${t.name} ${gzip} ${res.encoding}`;
        const s = stats.get(key) ?? { bytes: [], cpu: [] };
        s.bytes.push(res.bytes);
        s.cpu.push(cpu);
        stats.set(key, s);
      }
    }
  }
  for (const t of servers) {
    const plain = [...stats].find(([k]) => k.startsWith(`${t.name} false`))![1];
    const [zipKey, zipped] = [...stats].find(([k]) => k.startsWith(`${t.name} true`))!;
    const enc = zipKey.split(' ').at(-1);
    const ratio = median(plain.bytes) / median(zipped.bytes);
    console.log(
      `| ${shape.name} | ${t.name} | ${median(plain.bytes)} | ${median(zipped.bytes)}${enc === 'gzip' ? '' : ' (not compressed)'} | ${ratio.toFixed(1)}x | ${median(plain.cpu).toFixed(0)} | ${median(zipped.cpu).toFixed(0)} | ${(median(zipped.cpu) / median(plain.cpu)).toFixed(2)} |`,
    );
  }
}
