/**
 * WAL append throughput: N concurrent appenders for a fixed time per scenario, against a
 * WAL in a temp directory on the same disk as the OS temp dir. A background "flush"
 * truncates the WAL twice a second, as the engine's flush pipeline would.
 *
 *   node build/perf/wal-bench.js [seconds per scenario, default 5] [dir, default os.tmpdir()]
 *
 * Reports appends/s, MB/s of line-protocol payload, fdatasyncs and entries per sync, and
 * ack latency percentiles. Results and the machine go in perf/WAL.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv, hrtime, version } from 'node:process';
import { Wal } from '../engine/index.js';
import type { WalAppend, WalOptions } from '../engine/index.js';

interface Scenario {
  readonly name: string;
  readonly appenders: number;
  readonly linesPerEntry: number;
  readonly options: Partial<WalOptions>;
}

const SCENARIOS: Scenario[] = [
  { name: '64 appenders x 5000-line bodies (~1 MB)', appenders: 64, linesPerEntry: 5000, options: {} },
  { name: '64 appenders x 1-line bodies', appenders: 64, linesPerEntry: 1, options: {} },
  { name: '64 appenders x 10-line bodies', appenders: 64, linesPerEntry: 10, options: {} },
  { name: '64 appenders x 1-line bodies, batching off (batchSize 0)', appenders: 64, linesPerEntry: 1, options: { batchSize: 0 } },
  { name: '1 appender x 1-line bodies', appenders: 1, linesPerEntry: 1, options: {} },
];

/** ~200-byte lines, like a Telegraf cpu line with a few tags and fields. */
function body(lines: number, salt: number): Uint8Array {
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    parts.push(
      `cpu,host=server-${(salt + i) % 500},region=eu-west-1,cpu=cpu${i % 16} usage_user=${(i % 100) / 3},usage_system=${(i % 50) / 7},usage_idle=${95 - (i % 10)},usage_iowait=0.25,usage_steal=0.0,usage_guest=0.0,usage_nice=0.125,usage_irq=0.5 ${1_700_000_000_000_000_000n + BigInt(i)}\n`,
    );
  }
  return Buffer.from(parts.join(''));
}

function entry(lines: Uint8Array): WalAppend {
  return { db: 'bench', rp: 'autogen', precision: 'ns', defaultSec: 1_700_000_000, defaultNsec: 0, lines };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

async function run(s: Scenario, seconds: number, root: string): Promise<void> {
  const dir = await mkdtemp(join(root, 'strata-wal-bench-'));
  try {
    await measure(s, seconds, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function measure(s: Scenario, seconds: number, dir: string): Promise<void> {
  const wal = await Wal.open(dir, s.options);
  // A few distinct bodies so the checksum does not always see identical input.
  const bodies = Array.from({ length: 4 }, (_, i) => body(s.linesPerEntry, i * 7));
  const latencies: number[] = [];
  let appends = 0;
  let bytes = 0;
  const start = hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  const flusher = setInterval(() => void wal.truncateUpTo(wal.lastSeq), 500);
  const appender = async (id: number): Promise<void> => {
    for (let i = 0; hrtime.bigint() < end; i++) {
      const lines = bodies[(id + i) % bodies.length] as Uint8Array;
      const t0 = hrtime.bigint();
      await wal.append(entry(lines));
      latencies.push(Number(hrtime.bigint() - t0) / 1e6);
      appends++;
      bytes += lines.length;
    }
  };
  await Promise.all(Array.from({ length: s.appenders }, (_, id) => appender(id)));
  const elapsed = Number(hrtime.bigint() - start) / 1e9;
  clearInterval(flusher);
  const syncs = wal.syncCount;
  await wal.close();
  const sorted = Float64Array.from(latencies).sort();
  console.log(
    `| ${s.name} | ${(appends / elapsed).toFixed(0)} | ${(bytes / elapsed / 1e6).toFixed(1)} | ${syncs} | ${(appends / syncs).toFixed(1)} | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.99).toFixed(2)} | ${(bodies[0]?.length ?? 0).toLocaleString('en')} |`,
  );
}

const seconds = Number(argv[2] ?? 5);
const root = argv[3] ?? tmpdir();
console.log(`node ${version}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown cpu'}, dir ${root}, ${seconds} s per scenario`);
console.log('| scenario | appends/s | MB/s (payload) | fdatasyncs | entries/sync | p50 ack ms | p99 ack ms | body bytes |');
console.log('|---|---|---|---|---|---|---|---|');
for (const s of SCENARIOS) await run(s, seconds, root);
