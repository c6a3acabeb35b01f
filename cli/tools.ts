/**
 * Registration of the file tools on the cac instance: backup, restore, export, import,
 * inspect. Each loads the configuration like `serve` (`-c/--config`, `SERVICE__...` env);
 * directory flags override the configured directories for that run only.
 */
import type { CAC } from 'cac';
import { runBackup } from './backup.js';
import type { Config } from './config.js';
import { runExport, type ExportOptions } from './export.js';
import { runImport, type ImportOptions } from './import.js';
import { runInspect } from './inspect.js';
import { createLogger, type Logger } from './logger.js';
import { runRestore } from './restore.js';
import { loadProcessConfig } from './serve.js';
import { ToolUsageError } from './tool-errors.js';

export { ToolUsageError };

interface GlobalOptions {
  config?: string;
}


function setup(options: GlobalOptions): { config: Config; log: Logger } {
  const loaded = loadProcessConfig(options.config);
  const log = createLogger(loaded.config.logging);
  for (const warning of loaded.warnings) log.warn({}, warning);
  return { config: loaded.config, log };
}

function required(value: unknown, flag: string): string {
  if (typeof value !== 'string' || value === '') throw new ToolUsageError(`${flag} <dir> is required`);
  return value;
}

/**
 * The text of `--name <value>` exactly as typed. cac (mri) turns numeric-looking values into
 * numbers, which breaks nanosecond timestamps (> 2^53) and names such as a database "007".
 */
export function rawFlag(name: string, argv: readonly string[] = process.argv): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}` && i + 1 < argv.length) found = argv[++i];
    else if (a.startsWith(`--${name}=`)) found = a.slice(name.length + 3);
  }
  return found;
}

function rawFlags<T extends object>(options: T, names: readonly string[]): T {
  const out: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const n of names) {
    const v = rawFlag(n);
    if (v !== undefined) out[n.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())] = v;
  }
  return out as T;
}

export function registerToolCommands(cli: CAC): void {
  cli
    .command('backup', 'copy WAL, meta and data into a new backup directory (the server may be running)')
    .option('--output <dir>', 'backup directory to create (must not exist or be empty)')
    .action(async (options: GlobalOptions & { output?: string }) => {
      const { config, log } = setup(options);
      await runBackup(config, required(rawFlag('output') ?? options.output, '--output'), log);
    });

  cli
    .command('restore', 'replace the configured WAL, meta and data directories with a backup (server stopped)')
    .option('--input <dir>', 'backup directory (made by strata backup)')
    .action(async (options: GlobalOptions & { input?: string }) => {
      const { config, log } = setup(options);
      await runRestore(config, required(rawFlag('input') ?? options.input, '--input'), log);
    });

  cli
    .command('export', 'write stored points as line protocol (server stopped; opens the engine)')
    .option('--output <file>', 'output file (default: stdout)')
    .option('--gzip', 'gzip the output')
    .option('--database <db>', 'only this database')
    .option('--retention <rp>', 'only this retention policy')
    .option('--measurement <name>', 'only this measurement')
    .option('--start <time>', 'earliest time (RFC 3339 or ns since epoch), inclusive')
    .option('--end <time>', 'latest time (RFC 3339 or ns since epoch), inclusive')
    .option('--lponly', 'line protocol only, without the # DDL / # DML / # CONTEXT headers')
    .action(async (options: GlobalOptions & ExportOptions) => {
      const { config, log } = setup(options);
      await runExport(config, rawFlags(options, ['output', 'database', 'retention', 'measurement', 'start', 'end']), log);
    });

  cli
    .command('import [...files]', 'load line-protocol or influx -import files (- for stdin), over HTTP or into a data dir')
    .option('--host <url>', 'server URL', { default: 'http://127.0.0.1:8086' })
    .option('--data-dir <dir>', 'write into the engine directly (server stopped) instead of over HTTP')
    .option('--database <db>', 'database for lines before any # CONTEXT-DATABASE header')
    .option('--retention <rp>', 'retention policy for lines before any # CONTEXT-RETENTION-POLICY header')
    .option('--precision <p>', 'timestamp precision of the lines (n, u, ms, s, m, h)', { default: 'ns' })
    .option('--batch-size <n>', 'lines per write request', { default: 5000 })
    .option('--username <user>', 'HTTP basic auth user')
    .option('--password <password>', 'HTTP basic auth password')
    .action(async (files: string[], options: GlobalOptions & ImportOptions) => {
      const { config, log } = setup(options);
      // mri drops a bare `-`; it means stdin.
      const all = process.argv.slice(2).includes('-') && !files.includes('-') ? [...files, '-'] : files;
      await runImport(config, all, rawFlags(options, ['host', 'data-dir', 'database', 'retention', 'precision', 'username', 'password']), log);
    });

  cli
    .command('inspect', 'verify TSM and WAL checksums and summarise files per shard')
    .option('--data <dir>', 'data directory (default: chdb.session_data_path)')
    .option('--wal <dir>', 'WAL directory (default: storage.wal_dir)')
    .option('--json', 'print the report as JSON')
    .action(async (options: GlobalOptions & { data?: string; wal?: string; json?: boolean }) => {
      const { config } = setup(options);
      const damaged = await runInspect(config, rawFlags(options, ['data', 'wal']));
      if (damaged) process.exitCode = 2;
    });
}
