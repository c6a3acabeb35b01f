/**
 * `strata import [files...]`: load line protocol, or influx's `-import` format, into a
 * running server over HTTP (batches of `--batch-size` lines, default 5000) or, with
 * `--data-dir`, straight into the engine (server stopped).
 *
 * The `-import` format: a `# DDL` section of statements (CREATE DATABASE / RETENTION POLICY,
 * run one by one; an error such as "already exists" is reported and skipped), a `# DML`
 * section of lines, and `# CONTEXT-DATABASE: <db>` / `# CONTEXT-RETENTION-POLICY: <rp>`
 * headers that set where the following lines go. Other `#` lines are comments. Files ending
 * in `.gz` (or starting with the gzip magic) are decompressed; `-` reads stdin. A string
 * field may span lines (export writes newlines raw); lines are joined while a quote is open.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DirectoryLockedError, Engine, type Precision } from '../engine/index.js';
import type { Config } from './config.js';
import { engineOptionsFromConfig } from './engine-options.js';
import { engineTarget, httpTarget, type ImportTarget } from './import-target.js';
import type { Logger } from './logger.js';
import { createProgress, type Progress } from './progress.js';
import { ToolUsageError } from './tool-errors.js';

export interface ImportOptions {
  host?: string;
  dataDir?: string;
  database?: string;
  retention?: string;
  precision?: string;
  batchSize?: number | string;
  username?: string;
  password?: string;
}

export interface ImportStats {
  lines: number;
  failed: number;
  statements: number;
  statementErrors: number;
}

const PRECISIONS: Record<string, Precision> = { n: 'ns', ns: 'ns', u: 'us', us: 'us', ms: 'ms', s: 's', m: 'm', h: 'h' };

/** True when `line` ends inside a quoted field value (it continues on the next line). */
export function endsInsideString(line: string): boolean {
  let i = 0;
  // Skip the series key: up to the first unescaped space.
  for (; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === ' ') break;
  }
  let inString = false;
  for (; i < line.length; i++) {
    const c = line[i];
    if (inString && c === '\\') i++;
    else if (c === '"') inString = !inString;
  }
  return inString;
}

async function openInput(file: string): Promise<Readable> {
  const raw: Readable = file === '-' ? process.stdin : createReadStream(file);
  // Peek at the first bytes for the gzip magic, then hand the stream on unchanged.
  const first = await new Promise<Buffer | null>((resolve, reject) => {
    raw.once('readable', () => resolve(raw.read(2) as Buffer | null));
    raw.once('error', reject);
  });
  if (first) raw.unshift(first);
  const gz = file.endsWith('.gz') || (first !== null && first[0] === 0x1f && first[1] === 0x8b);
  return gz ? raw.pipe(createGunzip()) : raw;
}

export class Importer {
  readonly stats: ImportStats = { lines: 0, failed: 0, statements: 0, statementErrors: 0 };
  private batch: string[] = [];
  private section: 'none' | 'ddl' | 'dml' = 'none';
  private db: string | undefined;
  private rp: string | undefined;

  constructor(
    private readonly target: ImportTarget,
    private readonly opts: { database?: string | undefined; retention?: string | undefined; precision: Precision; batchSize: number },
    private readonly log: Logger,
    private readonly progress: Progress,
  ) {
    this.db = opts.database;
    this.rp = opts.retention;
  }

  async file(path: string): Promise<void> {
    const rl = createInterface({ input: await openInput(path), crlfDelay: Infinity });
    let pending: string | undefined;
    for await (const text of rl) {
      const line = pending === undefined ? text : `${pending}\n${text}`;
      if (this.section !== 'ddl' && !line.startsWith('#') && endsInsideString(line)) {
        pending = line;
        continue;
      }
      pending = undefined;
      await this.line(line);
    }
    if (pending !== undefined) await this.line(pending);
    await this.flush();
  }

  private async line(raw: string): Promise<void> {
    const line = raw.trim();
    if (line === '') return;
    if (line.startsWith('#')) return this.header(line);
    if (this.section === 'ddl') {
      this.stats.statements++;
      const err = await this.target.ddl(line);
      if (err !== undefined) {
        this.stats.statementErrors++;
        this.log.warn({ statement: line, error: err }, 'import: statement failed; continuing');
      }
      return;
    }
    if (this.db === undefined) throw new ToolUsageError('line protocol before any database: use --database or a # CONTEXT-DATABASE: header');
    this.batch.push(raw);
    if (this.batch.length >= this.opts.batchSize) await this.flush();
  }

  private async header(line: string): Promise<void> {
    const ctx = /^#\s*CONTEXT-(DATABASE|RETENTION-POLICY)\s*:\s*(.*)$/.exec(line);
    if (ctx) {
      await this.flush();
      if (ctx[1] === 'DATABASE') this.db = ctx[2]!.trim();
      else this.rp = ctx[2]!.trim();
      return;
    }
    if (/^#\s*DDL\s*$/.test(line)) this.section = 'ddl';
    else if (/^#\s*DML\s*$/.test(line)) this.section = 'dml';
  }

  async flush(): Promise<void> {
    if (this.batch.length === 0 || this.db === undefined) return;
    const lines = this.batch;
    this.batch = [];
    const r = await this.target.write(this.db, this.rp, this.opts.precision, lines);
    this.stats.lines += lines.length;
    if (r.failed > 0) {
      this.stats.failed += r.failed;
      this.log.warn({ db: this.db, rp: this.rp, failed: r.failed, error: r.error }, 'import: batch partly or wholly refused');
    }
    this.progress.update(this.stats.lines);
  }
}

export async function runImport(config: Config, files: string[], opts: ImportOptions, log: Logger, progress: Progress = createProgress({ unit: 'lines' })): Promise<ImportStats> {
  const precision = PRECISIONS[opts.precision ?? 'ns'];
  if (!precision) throw new ToolUsageError(`--precision ${JSON.stringify(opts.precision)}: expected one of n, u, ms, s, m, h`);
  const batchSize = Number(opts.batchSize ?? 5000);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new ToolUsageError('--batch-size must be a positive integer');
  if (files.length === 0) throw new ToolUsageError('import: name at least one file (- for stdin)');
  let target: ImportTarget;
  if (opts.dataDir !== undefined) {
    const base = engineOptionsFromConfig(config, log);
    try {
      target = engineTarget(await Engine.open({ ...base, dataDir: opts.dataDir }));
    } catch (err) {
      if (err instanceof DirectoryLockedError) throw new ToolUsageError(`${err.message}: stop the server or import over HTTP (--host)`);
      throw err;
    }
  } else {
    target = httpTarget(opts.host ?? 'http://127.0.0.1:8086', { username: opts.username, password: opts.password });
  }
  const importer = new Importer(target, { database: opts.database, retention: opts.retention, precision, batchSize }, log, progress);
  try {
    progress.phase('import');
    for (const f of files) await importer.file(f);
  } finally {
    await target.close();
  }
  const s = importer.stats;
  progress.done(`imported ${s.lines - s.failed} of ${s.lines} lines, ${s.statements - s.statementErrors} of ${s.statements} statements`);
  if (s.failed > 0) process.exitCode = 1;
  return s;
}
