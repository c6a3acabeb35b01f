/**
 * Parser throughput: statements/s for a Grafana-style dashboard query (and a few others).
 * Run: npx tsc -p . && node build/perf/parser-bench.js [seconds-per-case]
 * Results and the machine they came from are recorded in perf/PARSER.md.
 */
import { cpus } from 'node:os';
import { parseQuery } from '../ql/index.js';

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['grafana dashboard', 'SELECT mean("value") FROM "cpu" WHERE ("host" =~ /^(a|b)$/) AND time >= now() - 6h and time <= now() GROUP BY time(1m), "host" fill(null)'],
  ['raw select', "SELECT * FROM cpu WHERE host = 'server01' AND time < '2024-03-09T01:00:00Z'"],
  ['subquery', 'SELECT sum(rate) FROM (SELECT non_negative_derivative(max(reads), 1s) AS rate FROM diskio GROUP BY time(20m), host, "name") WHERE time >= \'2024-03-09T10:00:00Z\' AND time < \'2024-03-09T12:00:00Z\' GROUP BY time(20m)'],
  ['show tag values', 'SHOW TAG VALUES FROM cpu WITH KEY IN (host, region) WHERE region = \'us-east\''],
  ['syntax error', 'SELEC * FROM cpu'],
];

function run(q: string): void {
  try {
    parseQuery(q);
  } catch {
    // the error case measures error construction too
  }
}

const seconds = Number(process.argv[2] ?? '2');
console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}`);
console.log('throughput is measured on process CPU time (the machine is shared), wall time in parentheses');
for (const [name, q] of CASES) {
  for (let i = 0; i < 2000; i++) run(q); // warm up
  let n = 0;
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  const budgetUs = seconds * 1e6;
  let cpuUs = 0;
  while (cpuUs < budgetUs) {
    for (let i = 0; i < 500; i++) run(q);
    n += 500;
    const d = process.cpuUsage(cpu0);
    cpuUs = d.user + d.system;
  }
  const wallUs = Number(process.hrtime.bigint() - wall0) / 1e3;
  const perSec = (n * 1e6) / cpuUs;
  const wallPerSec = (n * 1e6) / wallUs;
  console.log(
    `${name.padEnd(18)} ${Math.round(perSec).toString().padStart(8)} statements/s  ${(1e6 / perSec).toFixed(1)} µs/statement` +
      `  (wall ${Math.round(wallPerSec)}/s; ${q.length} chars)`,
  );
}
