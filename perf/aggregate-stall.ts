/**
 * How long a heavy aggregate holds the server: each query runs over a large group (default
 * 10M points from 100 series) while another connection sends `GET /ping` every 10 ms; reported
 * are the query's wall time and the slowest and 99th-percentile ping. A server that computes a
 * group's answer in one synchronous step answers nothing else meanwhile (writes included).
 *
 *   node build/perf/aggregate-stall.js --url http://127.0.0.1:PORT [--load] [--series 100] [--per 100000] [--only REGEX]
 *
 * `--load` writes the dataset first (database `stall`, measurement `m`, tag `s`, float `v` with
 * repeated values, integer `n`), through /write, so the same command loads InfluxDB 1.6.7.
 */
import { parseArgs } from 'node:util';
import { loadStallData } from './stall-data.js';

const QUERIES = [
  'SELECT count(v) FROM m',
  'SELECT stddev(v) FROM m',
  'SELECT percentile(v, 50) FROM m',
  'SELECT percentile(n, 50) FROM m',
  'SELECT mode(v) FROM m',
  'SELECT mode(n) FROM m',
  'SELECT median(v) FROM m',
  'SELECT stddev(n) FROM m GROUP BY time(1d)',
  'SELECT integral(v) FROM m',
  'SELECT integral(n, 1m) FROM m GROUP BY time(1d)',
];
async function measure(url: string, q: string): Promise<{ seconds: number; worst: number; p99: number; pings: number; status: number }> {
  const pings: number[] = [];
  let running = true;
  const pinger = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${url}/ping`);
      pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const res = await fetch(`${url}/query?db=stall&q=${encodeURIComponent(q)}`);
  await res.text();
  const seconds = (performance.now() - t0) / 1000;
  running = false;
  await pinger;
  pings.sort((a, b) => a - b);
  return { seconds, worst: pings[pings.length - 1] ?? 0, p99: pings[Math.floor(pings.length * 0.99)] ?? 0, pings: pings.length, status: res.status };
}

const { values } = parseArgs({ options: { url: { type: 'string' }, load: { type: 'boolean' }, series: { type: 'string' }, per: { type: 'string' }, only: { type: 'string' } } });
if (!values.url) throw new Error('--url is required');
if (values.load) await loadStallData(values.url, 'stall', Number(values.series ?? 100), Number(values.per ?? 100_000));
console.log('| query | status | wall s | worst ping ms | p99 ping ms | pings |\n|---|---|---|---|---|---|');
const only = values.only === undefined ? undefined : new RegExp(values.only, 'i');
for (const q of QUERIES.filter((text) => !only || only.test(text))) {
  const m = await measure(values.url, q);
  console.log(`| \`${q}\` | ${m.status} | ${m.seconds.toFixed(2)} | ${m.worst.toFixed(0)} | ${m.p99.toFixed(0)} | ${m.pings} |`);
}
