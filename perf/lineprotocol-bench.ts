/**
 * Line-protocol parser throughput on one core: lines/s and MB/s for
 *   (a) TSBS cpu-only lines (10 tags, 10 integer fields, ns timestamps), and
 *   (b) edge-sensor lines (3 tags, 1–4 fields of mixed types).
 * Inputs are generated before timing. "warm" = series keys already in the parser's key cache
 * (steady state: the same hosts write every interval); "cold" = cache cleared before every
 * batch (every series seen for the first time in the process).
 *
 *   npx tsc -p . && node build/perf/lineprotocol-bench.js [seconds-per-case]
 */
import { clearKeyCache, parseLineProtocol } from '../engine/index.js';
import { cpus, loadavg } from 'node:os';

const REGIONS = ['us-east-1', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'sa-east-1'];
const OSES = ['Ubuntu16.10', 'Ubuntu16.04LTS', 'Ubuntu15.10'];
const ARCHES = ['x64', 'x86'];
const TEAMS = ['SF', 'NYC', 'LON', 'CHI'];
const ENVS = ['production', 'staging', 'test'];
const CPU_FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];

// Deterministic generator so runs are comparable.
let seed = 42;
function rnd(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}
const pick = <T>(a: readonly T[]): T => a[rnd(a.length)]!;

function tsbsBatch(hosts: number, lines: number, t0: number): string {
  const tags: string[] = [];
  for (let h = 0; h < hosts; h++) {
    const region = pick(REGIONS);
    tags.push(
      `cpu,hostname=host_${h},region=${region},datacenter=${region}${'abc'[rnd(3)]},rack=${rnd(100)},os=${pick(OSES)},` +
        `arch=${pick(ARCHES)},team=${pick(TEAMS)},service=${rnd(20)},service_version=${rnd(2)},service_environment=${pick(ENVS)}`,
    );
  }
  let out = '';
  for (let i = 0; i < lines; i++) {
    const f = CPU_FIELDS.map((k) => `${k}=${rnd(100)}i`).join(',');
    out += `${tags[i % hosts]} ${f} ${t0 + Math.floor(i / hosts) * 10}000000000\n`;
  }
  return out;
}

function sensorBatch(devices: number, lines: number, t0: number): string {
  let out = '';
  for (let i = 0; i < lines; i++) {
    const d = i % devices;
    const nf = 1 + (d % 4);
    const parts = [`temp=${(15 + rnd(2000) / 100).toFixed(2)}`, `hum=${rnd(100)}i`, `ok=${rnd(2) ? 't' : 'f'}`, `batt=${(rnd(1000) / 10).toFixed(1)}`];
    out += `sensor,site=site${d % 50},device=dev${d},kind=k${d % 7} ${parts.slice(0, nf).join(',')} ${t0 + i}000000000\n`;
  }
  return out;
}

interface Case {
  readonly name: string;
  readonly batches: Buffer[];
  readonly lines: number;
  readonly bytes: number;
}

function makeCase(name: string, gen: (i: number) => string, count: number, linesPer: number): Case {
  const batches: Buffer[] = [];
  for (let i = 0; i < count; i++) batches.push(Buffer.from(gen(i)));
  return { name, batches, lines: count * linesPer, bytes: batches.reduce((a, b) => a + b.length, 0) };
}

interface Rate {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * Best round by wall clock, and best round by process CPU time (user + system, all threads,
 * GC helpers included). On a shared machine the CPU figure is the steadier per-core measure.
 */
function run(c: Case, seconds: number, cold: boolean): Rate {
  const opts = { precision: 'ns' as const, defaultSec: 1_700_000_000, defaultNsec: 0 };
  let wall = 0;
  let cpu = 0;
  const deadline = performance.now() + seconds * 1000;
  let rounds = 0;
  while (performance.now() < deadline || rounds < 3) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    let parsed = 0;
    for (const b of c.batches) {
      if (cold) clearKeyCache();
      const r = parseLineProtocol(b, opts);
      parsed += r.points.length;
      if (r.errors.length) throw new Error(`bench input has errors: ${r.errors[0]!.reason}`);
    }
    const dt = (performance.now() - t) / 1000;
    const used = process.cpuUsage(c0);
    if (parsed !== c.lines) throw new Error(`parsed ${parsed} of ${c.lines}`);
    wall = Math.max(wall, c.lines / dt);
    cpu = Math.max(cpu, c.lines / ((used.user + used.system) / 1e6));
    rounds++;
  }
  return { wall, cpu };
}

const fmt = (c: Case, linesPerSec: number): string =>
  `${(linesPerSec / 1e6).toFixed(3)} M lines/s ${((linesPerSec * c.bytes) / c.lines / 1e6).toFixed(1)} MB/s`;

const seconds = Number(process.argv[2] ?? 3);
const tsbs = makeCase('tsbs cpu-only (1000 hosts, 5000 lines/batch)', (i) => tsbsBatch(1000, 5000, 1451606400 + i * 50), 20, 5000);
const sensor = makeCase('edge sensor (10000 devices, 5000 lines/batch)', (i) => sensorBatch(10000, 5000, 1700000000 + i * 5000), 40, 5000);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const c of [tsbs, sensor]) {
  console.log(`${c.name}: ${(c.bytes / c.lines).toFixed(0)} bytes/line`);
  run(c, 1, false); // warm up the JIT
  for (const cold of [false, true]) {
    const r = run(c, seconds, cold);
    console.log(`  ${cold ? 'cold' : 'warm'}: wall ${fmt(c, r.wall)} | cpu-time ${fmt(c, r.cpu)}`);
  }
}
console.log(`load at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
