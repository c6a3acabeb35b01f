/**
 * Main-thread CPU per /query request of two or more Strata processes, interleaved (s13, q12's
 * method made repeatable): single-groupby-1-1-1's text with a fixed host and window (`fixed`),
 * a random second-aligned window (`window`: a new text each request, one shape) or a random host
 * and window (`hostwindow`), sent over one kept-alive socket per server (socket-get.ts).
 *
 *   node build/perf/query-cpu-ab.js [--gzip] MODE BLOCKS PER_BLOCK name=http://127.0.0.1:P,PID [name=URL,PID ...]
 *
 * `--gzip` sends `Accept-Encoding: gzip` with every request (as Go clients and Grafana do).
 *
 * The servers take turns in blocks of PER_BLOCK requests (the order reversed every block, the
 * same texts for all), so load drift on a shared machine hits them alike. A request's CPU is
 * the main thread's (/proc/PID/task/PID/schedstat, ns) from its start to the next request's
 * start on the same server, so work done after the answer was sent (the statement summary)
 * counts. Reported: the median over all requests, and the median wall time. The servers must
 * hold `perf/query-bench.ts`'s data (`--load-strata-only`).
 */
import { readFileSync } from 'node:fs';
import { argv, hrtime } from 'node:process';
import { SocketGet } from './socket-get.js';

const gzip = argv[2] === '--gzip';
const [mode, blocksArg, perArg, ...serverArgs] = argv.slice(gzip ? 3 : 2);
if (!mode || !['fixed', 'window', 'hostwindow'].includes(mode) || serverArgs.length === 0) {
  console.error('usage: query-cpu-ab fixed|window|hostwindow BLOCKS PER_BLOCK name=URL,PID ...');
  process.exit(2);
}
const blocks = Number(blocksArg);
const perBlock = Number(perArg);

const START_MS = Date.parse('2016-01-01T00:00:00Z');
const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
let seed = 4242;
const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;

/** single-groupby-1-1-1 (perf/query-bench.ts), host 42 at 05:17 unless drawn. */
function text(): string {
  let host = 42;
  let from = START_MS + (360 - 43) * 60_000;
  if (mode !== 'fixed') from = START_MS + Math.floor(rnd() * 660 * 60) * 1000;
  if (mode === 'hostwindow') host = Math.floor(rnd() * 100);
  return `SELECT max(usage_user) from cpu where (hostname = 'host_${host}') and time >= '${at(from)}' and time < '${at(from + 3_600_000)}' group by time(1m)`;
}

interface Server {
  readonly name: string;
  readonly pid: string;
  readonly get: SocketGet;
  readonly cpuMs: number[];
  readonly wallMs: number[];
}

const servers: Server[] = [];
for (const arg of serverArgs) {
  const [name = '', target = ''] = arg.split('=');
  const [url = '', pid = ''] = target.split(',');
  servers.push({ name, pid, get: await SocketGet.open(url, gzip ? { 'Accept-Encoding': 'gzip' } : {}), cpuMs: [], wallMs: [] });
}

const mainThreadNs = (pid: string): number => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);

for (let b = 0; b < blocks; b++) {
  const texts = Array.from({ length: perBlock + 1 }, text);
  for (const s of b % 2 === 0 ? servers : [...servers].reverse()) {
    let previous: number | undefined;
    for (const t of texts) {
      const cpu = mainThreadNs(s.pid);
      const t0 = hrtime.bigint();
      const res = await s.get.get(`/query?db=benchmark&q=${encodeURIComponent(t)}`);
      const t1 = hrtime.bigint();
      if (res.status !== 200) throw new Error(`${s.name} answered ${res.status}: ${res.body.slice(0, 200)}`);
      if (previous !== undefined) s.cpuMs.push((cpu - previous) / 1e6);
      previous = cpu;
      s.wallMs.push(Number(t1 - t0) / 1e6);
    }
  }
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
for (const s of servers) {
  s.get.close();
  console.log(`${mode} ${s.name}: ${s.cpuMs.length} requests, median CPU ${median(s.cpuMs).toFixed(3)} ms, median wall ${median(s.wallMs).toFixed(3)} ms`);
}
