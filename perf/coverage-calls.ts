/**
 * Function calls per request, from V8's precise coverage (q17): run a fresh server with
 * `NODE_V8_COVERAGE=DIR` (Node records every function's invocation count and writes them at
 * exit), send N requests, stop it; do the same with M requests into another directory. The
 * difference divided by the request count is what one request executes, in calls, which does
 * not move with the machine's load as CPU time does.
 *
 *   node build/perf/coverage-calls.js DIR_FEWER DIR_MORE REQUESTS_BETWEEN [TOP=40]
 *
 * Reads the largest coverage file of each directory (the main thread's; workers write smaller ones).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { argv } from 'node:process';

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];
}

const [fewer, more, between, topArg] = argv.slice(2);
if (!fewer || !more || !between) {
  console.error('usage: coverage-calls DIR_FEWER DIR_MORE REQUESTS_BETWEEN [TOP]');
  process.exit(2);
}
const requests = Number(between);
const top = Number(topArg ?? 40);

function counts(dir: string): Map<string, number> {
  const files = readdirSync(dir).map((f) => `${dir}/${f}`);
  const main = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const out = new Map<string, number>();
  if (!main) return out;
  for (const script of (JSON.parse(readFileSync(main, 'utf8')) as Coverage).result) {
    const url = script.url.replace(/^file:\/\/.*?\/build\//, '');
    for (const f of script.functions) {
      const key = `${url}:${f.ranges[0]?.startOffset ?? 0} ${f.functionName || '(anonymous)'}`;
      out.set(key, (out.get(key) ?? 0) + (f.ranges[0]?.count ?? 0));
    }
  }
  return out;
}

const before = counts(fewer);
const perFunction: [string, number][] = [];
let total = 0;
for (const [key, n] of counts(more)) {
  const calls = (n - (before.get(key) ?? 0)) / requests;
  if (calls <= 0) continue;
  perFunction.push([key, calls]);
  total += calls;
}
perFunction.sort((a, b) => b[1] - a[1]);
console.log(`calls per request: ${total.toFixed(0)} in ${perFunction.length} functions`);
for (const [key, calls] of perFunction.slice(0, top)) console.log(`${calls.toFixed(1).padStart(9)}  ${key}`);
