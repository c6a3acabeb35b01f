/**
 * `strata inspect [--data <dir>] [--wal <dir>]`: verify every TSM block and WAL record
 * checksum and summarise the files per shard (series, blocks, points, bytes per point).
 * Read only, so it may run next to a live server. Returns true when damage was found
 * (the command then exits 2); a torn tail at the end of the last WAL segment is an
 * interrupted append, reported but not counted as damage.
 */
import { inspectDataDir, inspectSeriesLogs, inspectWalDir, type SeriesLogReport, type ShardReport, type WalSegmentReport } from '../engine/index.js';
import type { Config } from './config.js';
import { formatAmount } from './progress.js';

export interface InspectReport {
  readonly dataDir: string;
  readonly walDir: string;
  readonly shards: readonly ShardReport[];
  readonly seriesLogs: readonly SeriesLogReport[];
  readonly wal: readonly WalSegmentReport[];
  readonly problems: number;
}

export async function inspect(dataDir: string, walDir: string, onFile?: (f: string) => void): Promise<InspectReport> {
  const shards = await inspectDataDir(dataDir, onFile);
  const seriesLogs = await inspectSeriesLogs(dataDir);
  const wal = await inspectWalDir(walDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  let problems = 0;
  for (const s of shards) for (const f of s.files) problems += f.problems.length;
  for (const w of wal) problems += w.problems.filter((p) => !p.torn).length;
  for (const l of seriesLogs) problems += l.problems.length;
  return { dataDir, walDir, shards, seriesLogs, wal, problems };
}

const perPoint = (bytes: number, points: number) => (points > 0 ? (bytes / points).toFixed(2) : '-');

export function formatInspect(r: InspectReport): string {
  const out: string[] = [`data ${r.dataDir}`];
  for (const s of r.shards) {
    out.push(
      `  shard ${s.db}/${s.rp}/${s.shard}: ${s.files.length} files, ${s.series} series, ${s.blocks} blocks, ${s.points} points, ` +
        `${formatAmount(s.bytes, 'bytes')}, ${perPoint(s.bytes, s.points)} bytes/point`,
    );
    for (const f of s.files) {
      const status = f.problems.length === 0 ? 'ok' : `DAMAGED (${f.problems.length})`;
      out.push(`    ${f.file}: ${f.keys} keys, ${f.blocks} blocks, ${f.points} points, ${f.bytes} bytes, ${perPoint(f.bytes, f.points)} B/pt: ${status}`);
      for (const p of f.problems) out.push(`      offset ${p.offset}: ${p.reason}`);
    }
  }
  if (r.shards.length === 0) out.push('  (no shards)');
  for (const l of r.seriesLogs) {
    out.push(`  series log ${l.file}: ${l.records} records, ${l.bytes} bytes: ${l.problems.length === 0 ? 'ok' : 'DAMAGED'}`);
    for (const p of l.problems) out.push(`    offset ${p.offset}: ${p.reason}`);
  }
  out.push(`wal ${r.walDir}`);
  for (const w of r.wal) {
    const bad = w.problems.filter((p) => !p.torn).length;
    const seqs = w.firstSeq === undefined ? 'no entries' : `seq ${w.firstSeq}..${w.lastSeq}`;
    out.push(`  ${w.file}: ${w.entries} entries, ${seqs}, ${w.bytes} bytes: ${bad === 0 ? 'ok' : `DAMAGED (${bad})`}`);
    for (const p of w.problems) out.push(`    offset ${p.offset}: ${p.torn ? 'torn tail (interrupted append): ' : ''}${p.reason}`);
  }
  if (r.wal.length === 0) out.push('  (no segments)');
  out.push(r.problems === 0 ? 'no damage found' : `${r.problems} problem(s) found`);
  return out.join('\n') + '\n';
}

export async function runInspect(config: Config, opts: { data?: string; wal?: string; json?: boolean }): Promise<boolean> {
  const report = await inspect(opts.data ?? config.chdb.session_data_path, opts.wal ?? config.storage.wal_dir);
  process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatInspect(report));
  return report.problems > 0;
}
