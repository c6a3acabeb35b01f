/**
 * Storage-engine benchmark (no HTTP), with InfluxDB 1.6.7 on the same data for comparison.
 *
 *   node build/perf/engine-bench.js [--datasets cpu,cpu-float,sensor] [--runs 3]
 *       [--hours 4] [--sensor-hours 1] [--writers 4] [--targets strata,influx]
 *       [--snapshot-mb 64]
 *
 * Each (dataset, target, run) is a fresh child process with fresh directories, so its peak RSS
 * is its own. Line protocol is generated and cut into 5000-line bodies before the clock starts.
 *
 * Strata: `engine.write` from N concurrent writers (each write resolves after WAL fdatasync),
 * `engine.flush()`, bytes of `*.tsm` / field values, then a full scan through one cursor per
 * series-field (every value decoded), peak RSS from `process.resourceUsage().maxRSS`.
 * InfluxDB: the same bodies POSTed to /write by N keep-alive connections, wait for the full
 * compaction of the cold shard (see influxd.ts), bytes of `*.tsm` / field values, a full scan
 * with `SELECT count(*) FROM <measurement>` (every value read and decoded by influxd), and its
 * peak RSS (VmHWM).
 *
 * Aggregates (both systems, after the scan): `SELECT count(*) FROM <m>` and `SELECT max(<first
 * field>) FROM <m>` through the query layer (Strata: ql executor in-process, where whole blocks
 * answer from their index stats; InfluxDB: HTTP). Reported as values covered per second.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv, hrtime, execPath } from 'node:process';
import { Engine, engineOptions, makeSeriesKey, MIN_TIME_NS, MAX_TIME_NS } from '../engine/index.js';
import { cpuOnly, edgeSensors, type Dataset } from './datasets.js';
import { batches, bytesOf, flags, fmt, load, machine, median, MiB, percentile, pool, vmHwm } from './bench-util.js';
import { executeStatements, parseQuery } from '../ql/index.js';
import { agentFor, closeAgents, http, query, startInfluxd, stopInfluxd, sumCounts, waitCompacted } from './influxd.js';

const LINES_PER_BATCH = 5000;
const DB = 'bench';

interface Result {
  readonly dataset: string;
  readonly target: string;
  readonly lines: number;
  readonly values: number;
  readonly ingestSec: number;
  readonly p99BatchMs: number;
  readonly flushSec: number;
  readonly tsmBytes: number;
  readonly tsmFiles: number;
  readonly compacted: boolean;
  readonly scanSec: number;
  readonly scanned: number;
  /** Seconds of `SELECT count(*)` and of `SELECT max(field)` over everything. */
  readonly countSec: number;
  readonly maxSec: number;
  /** Values of the field max() reads. */
  readonly maxValues: number;
  readonly peakRss: number;
  /** Strata: RSS after generation and a full GC, before the engine opens (the bodies it holds). */
  readonly baseRss: number;
  readonly load: string;
}

function makeDataset(name: string, f: Map<string, string>): Dataset {
  const hours = Number(f.get('hours') ?? 4);
  const sensorHours = Number(f.get('sensor-hours') ?? 1);
  if (name === 'cpu') return cpuOnly({ points: Math.round((hours * 3600) / 10) });
  if (name === 'cpu-float') return cpuOnly({ points: Math.round((hours * 3600) / 10), floats: true });
  if (name === 'sensor') return edgeSensors({ points: Math.round(sensorHours * 3600) });
  throw new Error(`unknown dataset ${name}`);
}

interface Prepared {
  readonly bodies: Buffer[];
  readonly lines: number;
  readonly values: number;
  readonly measurement: string;
  readonly fields: { seriesKey: string; field: string }[];
  readonly firstField: string;
  readonly firstFieldValues: number;
}

function prepare(ds: Dataset): Prepared {
  const fields: { seriesKey: string; field: string }[] = [];
  let values = 0;
  let lines = 0;
  let measurement = '';
  let firstFieldValues = 0;
  let firstField: string | undefined;
  for (const s of ds.series()) {
    firstField ??= s.fields[0]?.name;
    if (s.fields.some((f) => f.name === firstField)) firstFieldValues += s.offsets.length;
    measurement = s.measurement;
    const key = makeSeriesKey(s.measurement, s.tags);
    for (const f of s.fields) fields.push({ seriesKey: key, field: f.name });
    values += s.fields.length * s.offsets.length;
    lines += s.offsets.length;
  }
  return { bodies: batches(ds.lines(), LINES_PER_BATCH), lines, values, measurement, fields, firstField: firstField ?? '', firstFieldValues };
}

const secSince = (t0: bigint): number => Number(hrtime.bigint() - t0) / 1e9;

async function timedWrites(p: Prepared, writers: number, write: (b: Buffer) => Promise<void>): Promise<{ sec: number; p99: number }> {
  const lat: number[] = [];
  const t0 = hrtime.bigint();
  await pool(p.bodies.length, writers, async (i) => {
    const t = hrtime.bigint();
    await write(p.bodies[i]!);
    lat.push(Number(hrtime.bigint() - t) / 1e6);
  });
  return { sec: secSince(t0), p99: percentile(lat, 0.99) };
}

async function runStrata(name: string, p: Prepared, f: Map<string, string>): Promise<Result> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-engine-bench-'));
  const writers = Number(f.get('writers') ?? 4);
  const engine = await Engine.open(
    engineOptions({
      walDir: join(dir, 'wal'),
      metaDir: join(dir, 'meta'),
      dataDir: join(dir, 'data'),
      flushIntervalSec: 0,
      cacheSnapshotBytes: Number(f.get('snapshot-mb') ?? 64) * MiB,
    }),
  ).catch(async (err: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  try {
    await engine.catalog.createDatabase(DB);
    const ingest = await timedWrites(p, writers, async (body) => void (await engine.write({ db: DB, precision: 'ns', body })));
    const t1 = hrtime.bigint();
    await engine.flush();
    const flushSec = secSince(t1);
    const tsm = await bytesOf(join(dir, 'data'), '.tsm');
    const t2 = hrtime.bigint();
    let scanned = 0;
    for (const sf of p.fields) {
      const c = engine.cursor({ db: DB, rp: 'autogen', measurement: p.measurement, seriesKey: sf.seriesKey, field: sf.field, startNs: MIN_TIME_NS, endNs: MAX_TIME_NS, ascending: true });
      for (let b = await c.next(); b; b = await c.next()) scanned += b.column.values.length;
      c.close();
    }
    const scanSec = secSince(t2);
    const sql = async (q: string) => {
      const t = hrtime.bigint();
      const out = await executeStatements(parseQuery(q), { engine, database: DB, retentionPolicy: '', nowNs: 0n });
      if (JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes('"error"')) throw new Error(`${q}: ${JSON.stringify(out)}`);
      return secSince(t);
    };
    const countSec = await sql(`SELECT count(*) FROM ${p.measurement}`);
    const maxSec = await sql(`SELECT max(${p.firstField}) FROM ${p.measurement}`);
    return {
      dataset: name,
      target: 'strata',
      lines: p.lines,
      values: p.values,
      ingestSec: ingest.sec,
      p99BatchMs: ingest.p99,
      flushSec,
      tsmBytes: tsm.bytes,
      tsmFiles: tsm.files,
      compacted: false,
      scanSec,
      scanned,
      countSec,
      maxSec,
      maxValues: p.firstFieldValues,
      peakRss: process.resourceUsage().maxRSS * 1024,
      baseRss,
      load: load(),
    };
  } finally {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function runInflux(name: string, p: Prepared, f: Map<string, string>): Promise<Result> {
  const port = Number(f.get('influx-port') ?? 18386);
  const writers = Number(f.get('writers') ?? 4);
  const inst = await startInfluxd(port, port + 2);
  try {
    await query(port, DB, `CREATE DATABASE ${DB}`);
    const agent = agentFor(port, writers);
    const ingest = await timedWrites(p, writers, async (body) => {
      const r = await http(port, 'POST', `/write?db=${DB}&precision=ns`, body, agent);
      if (r.status !== 204) throw new Error(`influxd write: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    });
    const t1 = hrtime.bigint();
    const tsm = await waitCompacted(inst, DB, Number(f.get('compact-timeout') ?? 150) * 1000);
    const flushSec = secSince(t1);
    const t2 = hrtime.bigint();
    const scanned = sumCounts(await query(port, DB, `SELECT count(*) FROM ${p.measurement}`));
    const scanSec = secSince(t2);
    const t3 = hrtime.bigint();
    await query(port, DB, `SELECT max(${p.firstField}) FROM ${p.measurement}`);
    const maxSec = secSince(t3);
    return {
      dataset: name,
      target: 'influxdb',
      lines: p.lines,
      values: p.values,
      ingestSec: ingest.sec,
      p99BatchMs: ingest.p99,
      flushSec,
      tsmBytes: tsm.bytes,
      tsmFiles: tsm.files,
      compacted: tsm.settled,
      scanSec,
      scanned,
      countSec: scanSec,
      maxSec,
      maxValues: p.firstFieldValues,
      peakRss: await vmHwm(inst.pid),
      baseRss: NaN,
      load: load(),
    };
  } finally {
    closeAgents();
    await stopInfluxd(inst);
  }
}

let baseRss = NaN;

async function child(f: Map<string, string>): Promise<void> {
  const name = f.get('dataset')!;
  const target = f.get('target')!;
  const p = prepare(makeDataset(name, f));
  (globalThis as { gc?: () => void }).gc?.();
  baseRss = process.memoryUsage().rss;
  const r = target === 'strata' ? await runStrata(name, p, f) : await runInflux(name, p, f);
  console.log('RESULT ' + JSON.stringify(r));
}

function report(all: Result[], datasets: string[]): void {
  console.log(`\nmachine: ${machine()}; ${new Date().toISOString()}\n`);
  console.log('| dataset | target | lines | values | values/s ingest | p99 batch ms | flush/compact s | TSM files | bytes/value | scan values/s | count(*) values/s | max() values/s | peak RSS MiB | of which bodies MiB | load (1 min) per run |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const med = (rs: Result[], g: (r: Result) => number): number => median(rs.map(g));
  const summary: string[] = [];
  for (const d of datasets) {
    const byTarget = new Map<string, Result[]>();
    for (const r of all.filter((x) => x.dataset === d)) byTarget.set(r.target, [...(byTarget.get(r.target) ?? []), r]);
    const m = new Map<string, { ingest: number; bpv: number; scan: number; count: number; max: number; rss: number }>();
    for (const [t, rs] of byTarget) {
      const ingest = med(rs, (r) => r.values / r.ingestSec);
      const bpv = med(rs, (r) => r.tsmBytes / r.values);
      const scan = med(rs, (r) => r.scanned / r.scanSec);
      const rss = med(rs, (r) => r.peakRss);
      const count = med(rs, (r) => r.values / r.countSec);
      const max = med(rs, (r) => r.maxValues / r.maxSec);
      m.set(t, { ingest, bpv, scan, count, max, rss });
      const r0 = rs[0]!;
      const runs = `${rs.length} run(s)`;
      console.log(
        `| ${d} | ${t} (${runs}${t === 'influxdb' && rs.some((r) => !r.compacted) ? ', compaction not settled' : ''}) | ${fmt(r0.lines)} | ${fmt(r0.values)} | ${fmt(ingest)} | ${fmt(med(rs, (r) => r.p99BatchMs), 1)} | ${fmt(med(rs, (r) => r.flushSec), 2)} | ${fmt(med(rs, (r) => r.tsmFiles))} | ${fmt(bpv, 3)} | ${fmt(scan)} | ${fmt(count)} | ${fmt(max)} | ${fmt(rss / MiB)} | ${t === 'strata' ? fmt(med(rs, (r) => r.baseRss) / MiB) : '–'} | ${rs.map((r) => r.load.split(' ')[0]).join(', ')} |`,
      );
      for (const r of rs) if (r.scanned !== r.values) console.log(`  WARNING ${d}/${t}: scanned ${r.scanned} of ${r.values} values`);
    }
    const s = m.get('strata');
    const i = m.get('influxdb');
    if (s && i) {
      summary.push(
        `| ${d} | ${(s.ingest / i.ingest).toFixed(2)} | ${(s.bpv / i.bpv).toFixed(2)} | ${(s.scan / i.scan).toFixed(2)} | ${(s.count / i.count).toFixed(2)} | ${(s.max / i.max).toFixed(2)} | ${(s.rss / i.rss).toFixed(2)} |`,
      );
    }
  }
  if (summary.length) {
    console.log('\n| dataset | ingest Strata/InfluxDB | bytes/value Strata/InfluxDB | scan Strata/InfluxDB | count(*) Strata/InfluxDB | max() Strata/InfluxDB | peak RSS Strata/InfluxDB |');
    console.log('|---|---|---|---|---|---|---|');
    for (const l of summary) console.log(l);
  }
}

async function main(): Promise<void> {
  const args = argv.slice(2);
  const f = flags(args);
  if (f.has('child')) return child(f);
  const datasets = (f.get('datasets') ?? 'cpu,cpu-float,sensor').split(',');
  const targets = (f.get('targets') ?? 'strata,influx').split(',');
  const runs = Number(f.get('runs') ?? 3);
  const passthrough = args.filter((a, i) => !['--datasets', '--targets', '--runs'].includes(a) && !['--datasets', '--targets', '--runs'].includes(args[i - 1] ?? ''));
  const all: Result[] = [];
  for (const d of datasets) {
    for (let run = 0; run < runs; run++) {
      for (const t of targets) {
        const out = spawnSync(execPath, ['--expose-gc', argv[1]!, '--child', '--dataset', d, '--target', t, ...passthrough], { encoding: 'utf8', maxBuffer: 64 * MiB });
        const line = out.stdout.split('\n').find((l) => l.startsWith('RESULT '));
        if (!line) {
          console.error(`${d}/${t} run ${run + 1} failed:\n${out.stdout}\n${out.stderr}`);
          continue;
        }
        const r = JSON.parse(line.slice(7)) as Result;
        all.push(r);
        console.error(`${d}/${t} run ${run + 1}: ${fmt(r.values / r.ingestSec)} values/s, ${(r.tsmBytes / r.values).toFixed(3)} B/value, scan ${fmt(r.scanned / r.scanSec)} values/s, count(*) ${r.countSec.toFixed(3)} s, max() ${r.maxSec.toFixed(3)} s, RSS ${fmt(r.peakRss / MiB)} MiB, load ${r.load}`);
      }
    }
  }
  report(all, datasets);
}

await main();
