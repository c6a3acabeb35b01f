/**
 * Start-up cost of rebuilding shard field sets for shards written before `fields.json`
 * (engine/shard/shard-fields.ts: a shard with TSM files and no record reads its files' keys).
 *
 *   node build/perf/legacy-fields-open.js [--hours 12] [--series 100] [--shard-hours 168] [--runs 5]
 *
 * Loads TSBS cpu-only (10 s points, `--series` hosts, 10 fields each) into a fresh engine with
 * shards of `--shard-hours`, flushes and closes it; then opens and closes it `--runs` times
 * with every record in place, and `--runs` times with every `fields.json` deleted first (each
 * open rebuilds and rewrites them), alternating. Reports the median open times.
 */
import { readdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv, hrtime } from 'node:process';
import { Engine, engineOptions } from '../engine/index.js';
import { cpuOnly } from './datasets.js';
import { batches, flags, fmt, load, machine, median } from './bench-util.js';

const DB = 'bench';
const RECORD = 'fields.json';

async function records(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name === RECORD) out.push(join(e.parentPath, e.name));
  return out;
}

async function main(): Promise<void> {
  const f = flags(argv.slice(2));
  const hours = Number(f.get('hours') ?? 12);
  const series = Number(f.get('series') ?? 100);
  const shardHours = Number(f.get('shard-hours') ?? 168);
  const runs = Number(f.get('runs') ?? 5);
  const dir = await mkdtemp(join(tmpdir(), 'strata-legacy-fields-'));
  const options = engineOptions({ walDir: join(dir, 'wal'), metaDir: join(dir, 'meta'), dataDir: join(dir, 'data'), flushIntervalSec: 0 });
  try {
    const e = await Engine.open(options);
    await e.catalog.createDatabase(DB, { name: 'rp', durationSec: 0, replicaN: 1, shardGroupDurationSec: shardHours * 3600 });
    for (const body of batches(cpuOnly({ points: (hours * 3600) / 10, series }).lines(), 5000)) await e.write({ db: DB, precision: 'ns', body });
    await e.flush();
    const shards = e.allShards().length;
    const keys = e.allShards().reduce((n, s) => n + (s.files?.files().reduce((k, r) => k + r.stats().keys, 0) ?? 0), 0);
    await e.close();
    const timedOpen = async (): Promise<number> => {
      const t = hrtime.bigint();
      const opened = await Engine.open(options);
      const ms = Number(hrtime.bigint() - t) / 1e6;
      await opened.close();
      return ms;
    };
    const withRecords: number[] = [];
    const rebuilt: number[] = [];
    for (let i = 0; i < runs; i++) {
      withRecords.push(await timedOpen());
      const files = await records(join(dir, 'data'));
      if (files.length !== shards) throw new Error(`expected ${shards} ${RECORD} files, found ${files.length}`);
      for (const file of files) await unlink(file);
      rebuilt.push(await timedOpen());
    }
    console.log(`${machine()}; load ${load()}`);
    console.log(`${hours} h cpu, ${series} hosts: ${shards} shards, ${fmt(keys)} TSM keys; ${runs} opens each`);
    console.log(`open with records: median ${fmt(median(withRecords), 1)} ms (${withRecords.map((x) => fmt(x, 1)).join(', ')})`);
    console.log(`open rebuilding:   median ${fmt(median(rebuilt), 1)} ms (${rebuilt.map((x) => fmt(x, 1)).join(', ')})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
