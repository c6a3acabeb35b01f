/**
 * Bytes per value before and after compaction on a realistic dataset: S series × 10 integer
 * fields, one point every 10 s, values small random walks, written as many small level-0
 * files (one per flush of 100 points per key). The service then runs as in production: level
 * compactions while the shard is hot, a full compaction once it is cold.
 *
 * The default size keeps the suite fast (20 series × 2,000 points); set
 * STRATA_COMPACT_BENCH=full for the reference dataset (100 series × 10k points = 10M values).
 * Figures are printed as test diagnostics; the test asserts only the ratio and correctness.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fieldKey } from '../cache/cache.js';
import { silentLogger } from '../logger.js';
import { FieldType } from '../point.js';
import type { Shard } from '../shard/shard.js';
import { NO_TOMBSTONES } from '../tombstone/filter.js';
import { tempDir } from '../tsm/test-support.js';
import { CompactionService } from './service.js';
import { addFile, openShard, readThroughEngine } from './test-support.js';
import type { KeyRows, Row } from './test-support.js';

const FULL = process.env['STRATA_COMPACT_BENCH'] === 'full';
const SERIES = FULL ? 100 : 20;
const FIELDS = 10;
const POINTS = FULL ? 10_000 : 2_000;
const PER_FLUSH = 100;
const STEP_NS = 10_000_000_000;

function keys(): { key: string; walk: number; rng: number }[] {
  const out: { key: string; walk: number; rng: number }[] = [];
  for (let s = 0; s < SERIES; s++) {
    for (let f = 0; f < FIELDS; f++) {
      out.push({ key: fieldKey(`sensors,host=h${String(s).padStart(3, '0')},region=eu`, `f${f}`), walk: 1000 + s * 10 + f, rng: s * 7919 + f * 104_729 + 1 });
    }
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
}

/** xorshift32 step: −2..+2 with small steps most likely. */
function step(k: { rng: number }): number {
  let x = k.rng;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  k.rng = x >>> 0;
  return [-2, -1, -1, 0, 0, 0, 0, 1, 1, 2][k.rng % 10]!;
}

function totalBytes(shard: Shard): number {
  return shard.files!.files().reduce((n, r) => n + r.stats().bytes, 0);
}

test('bytes per value: small level-0 files vs compacted', async (t) => {
  const dir = await tempDir(t, 'compact-bpv');
  const shard = await openShard(dir);
  const ks = keys();
  const sample = new Map<string, Row[]>([ks[0]!, ks[ks.length >> 1]!, ks[ks.length - 1]!].map((k) => [k.key, []]));
  for (let start = 0; start < POINTS; start += PER_FLUSH) {
    const file: KeyRows[] = ks.map((k) => {
      const rows: Row[] = [];
      for (let i = start; i < start + PER_FLUSH; i++) {
        k.walk += step(k);
        rows.push([i * STEP_NS, k.walk]);
      }
      sample.get(k.key)?.push(...rows);
      return { key: k.key, type: FieldType.Integer, rows };
    });
    await addFile(shard, file);
  }
  const values = SERIES * FIELDS * POINTS;
  const l0Files = shard.files!.files().length;
  const before = totalBytes(shard);

  const clock = { now: 0 };
  const svc = new CompactionService({ shards: () => [shard], filter: NO_TOMBSTONES, logger: silentLogger, coldAfterMs: 1000, now: () => clock.now });
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let rounds = 0;
  for (let done = -1; done !== svc.counters.compactions; rounds++) {
    done = svc.counters.compactions;
    await svc.runOnce();
  }
  const leveled = totalBytes(shard);
  const leveledFiles = shard.files!.files().length;
  clock.now += 1000;
  await svc.runOnce();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  lag.disable();
  const after = totalBytes(shard);

  t.diagnostic(`dataset: ${SERIES} series × ${FIELDS} fields × ${POINTS} points = ${values} values in ${l0Files} level-0 files`);
  t.diagnostic(`level 0: ${before} B, ${(before / values).toFixed(3)} B/value`);
  t.diagnostic(`after level compactions: ${leveledFiles} files, ${(leveled / values).toFixed(3)} B/value`);
  t.diagnostic(`after full compaction: ${shard.files!.files().length} file(s), ${(after / values).toFixed(3)} B/value; ratio ${(before / after).toFixed(2)}×`);
  t.diagnostic(
    `compaction: ${svc.counters.compactions} runs, ${Math.round(ms)} ms wall, ~${Math.round(cpuMs)} ms CPU, ` +
      `${((svc.counters.bytesIn / ms) * 1e-3).toFixed(1)} MB/s read, ${(svc.counters.valuesIn / 1e3 / cpuMs).toFixed(2)}M values merged per CPU-second; ` +
      `blocks copied ${svc.counters.blocksCopied}, decoded ${svc.counters.blocksDecoded}; event-loop delay max ${(lag.max / 1e6).toFixed(1)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms`,
  );

  assert.ok(after < before / 2, `compaction should at least halve the size (${before} → ${after})`);
  assert.equal(shard.files!.files().length, 1);
  assert.equal(svc.counters.errors, 0);
  for (const [key, rows] of sample) assert.deepEqual(await readThroughEngine(shard, key, FieldType.Integer), rows);
  await shard.close();
  await rm(dir, { recursive: true, force: true });
});
