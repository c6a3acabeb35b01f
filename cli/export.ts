/**
 * `strata export`: stored points as line protocol, to stdout or a file, optionally gzipped,
 * filtered by database, retention policy, measurement and time range.
 *
 * Reads through the engine itself (Engine.open on the configured directories, then the
 * series index and engine.cursor per series-field), so the output is exactly what queries
 * see: cache and WAL replay included, deleted rows hidden, duplicates resolved, every field
 * type exact (integers `i`, unsigned `u`, int64 beyond 2^53). The price: the server must be
 * stopped (the WAL directory lock refuses a second opener), and closing the engine runs its
 * normal final flush. Flush and compaction timers are off while exporting.
 *
 * Default output is influx's `-import` format: `# DDL` (CREATE DATABASE / RETENTION POLICY),
 * then `# DML` with `# CONTEXT-DATABASE:` / `# CONTEXT-RETENTION-POLICY:` before each
 * policy's lines; `--lponly` writes the lines alone.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { DirectoryLockedError, Engine, formatPoint, MAX_TIME_NS, MIN_TIME_NS, type DatabaseInfo } from '../engine/index.js';
import type { Config } from './config.js';
import { engineOptionsFromConfig } from './engine-options.js';
import { seriesPoints } from './export-series.js';
import type { Logger } from './logger.js';
import { createProgress, type Progress } from './progress.js';
import { ToolUsageError } from './tool-errors.js';

export interface ExportOptions {
  output?: string;
  gzip?: boolean;
  database?: string;
  retention?: string;
  measurement?: string;
  start?: string;
  end?: string;
  lponly?: boolean;
}

/** RFC 3339 (any fraction digits) or integer nanoseconds since the epoch. */
export function parseTimeNs(text: string, flag: string): bigint {
  if (/^-?\d+$/.test(text)) return BigInt(text);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new ToolUsageError(`${flag} ${JSON.stringify(text)} is neither RFC 3339 nor nanoseconds`);
  const frac = /\.(\d+)/.exec(text)?.[1] ?? '';
  const subMs = BigInt((frac.slice(3) + '000000').slice(0, 6));
  return BigInt(Math.floor(ms)) * 1_000_000n + subMs;
}

const ident = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function ddlFor(db: DatabaseInfo, only?: string): string[] {
  const out = [`CREATE DATABASE ${ident(db.name)}`];
  for (const rp of db.rps) {
    if (only !== undefined && rp.name !== only) continue;
    const duration = rp.durationSec === 0 ? 'INF' : `${rp.durationSec}s`;
    out.push(
      `CREATE RETENTION POLICY ${ident(rp.name)} ON ${ident(db.name)} DURATION ${duration} REPLICATION ${rp.replicaN} ` +
        `SHARD DURATION ${rp.shardGroupDurationSec}s${db.defaultRp === rp.name ? ' DEFAULT' : ''}`,
    );
  }
  return out;
}

/** Buffered writes with backpressure. */
class LineSink {
  private buf: string[] = [];
  private size = 0;
  constructor(private readonly out: Writable) {}
  async line(s: string): Promise<void> {
    this.buf.push(s);
    this.size += s.length + 1;
    if (this.size >= 1 << 16) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const chunk = this.buf.join('\n') + '\n';
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  async end(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}

export async function runExport(config: Config, opts: ExportOptions, logger: Logger, progress: Progress = createProgress({ unit: 'lines' })): Promise<number> {
  const startNs = opts.start ? parseTimeNs(opts.start, '--start') : MIN_TIME_NS;
  const endNs = opts.end ? parseTimeNs(opts.end, '--end') : MAX_TIME_NS;
  const base = engineOptionsFromConfig(config, logger);
  let engine: Engine;
  try {
    engine = await Engine.open({ ...base, flushIntervalSec: 0, compaction: { ...base.compaction, intervalMs: 0 } });
  } catch (err) {
    if (err instanceof DirectoryLockedError) throw new ToolUsageError(`${err.message}: stop the server before exporting`);
    throw err;
  }
  let lines = 0;
  try {
    const dbs = engine.catalog.databases().filter((d) => opts.database === undefined || d.name === opts.database);
    if (opts.database !== undefined && dbs.length === 0) throw new ToolUsageError(`database not found: ${opts.database}`);
    const fileOut = opts.output && opts.output !== '-' ? createWriteStream(opts.output) : undefined;
    const target: Writable = fileOut ?? process.stdout;
    let out: Writable = target;
    if (opts.gzip) {
      const gz = createGzip();
      gz.pipe(target);
      out = gz;
    }
    const sink = new LineSink(out);
    if (!opts.lponly) {
      await sink.line('# DDL');
      for (const db of dbs) for (const s of ddlFor(db, opts.retention)) await sink.line(s);
      await sink.line('# DML');
    }
    progress.phase('export');
    for (const info of dbs) {
      const db = await engine.database(info.name);
      for (const rp of info.rps) {
        if (opts.retention !== undefined && rp.name !== opts.retention) continue;
        if (!opts.lponly) {
          await sink.line(`# CONTEXT-DATABASE: ${info.name}`);
          await sink.line(`# CONTEXT-RETENTION-POLICY: ${rp.name}`);
        }
        for (const m of db.index.measurementNames()) {
          if (opts.measurement !== undefined && m !== opts.measurement) continue;
          const mi = db.index.measurement(m);
          if (!mi) continue;
          const fields = [...mi.fields.keys()].sort();
          for (const id of mi.seriesIds) {
            const series = db.index.seriesById(id);
            if (!series) continue;
            for await (const p of seriesPoints(engine, info.name, rp.name, series, fields, startNs, endNs)) {
              await sink.line(formatPoint(p));
              progress.update(++lines);
            }
          }
        }
      }
    }
    if (out !== process.stdout) await sink.end();
    else await sink.flush();
    if (fileOut && out !== fileOut) await new Promise<void>((r) => (fileOut.writableFinished ? r() : fileOut.once('finish', () => r())));
    progress.done(`exported ${lines} points`);
  } finally {
    await engine.close();
  }
  return lines;
}
