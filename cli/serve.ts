/**
 * `strata serve`: the composition root. Load the configuration, create the logger, open the
 * dependencies (engine), start the HTTP server, and on SIGINT/SIGTERM stop gracefully:
 * stop accepting, drain in-flight requests (bounded by server.request_timeout_secs), then the
 * final flush (`deps.close()`), exit 0 (spec "What the service does" item 11).
 */
import { readFileSync } from 'node:fs';
import { DiskMonitor, Engine, RetentionService, cacheMemory, diskThresholds, nowTime, type FreeSpaceSource, type WarmupReport } from '../engine/index.js';
import {
  ContinuousQueryScheduler,
  MaterializedViewMaintainer,
  executeMetaStatement,
  executeStatements,
  hashPasswordArgon2id,
  QueryRegistry,
  viewTargetOf,
} from '../ql/index.js';
import { parseDurationMs } from './duration.js';
import { engineOptionsFromConfig } from './engine-options.js';
import { SERVICE_VERSION, ServiceMetrics, serverStatsModules, startServer, type ServerDeps, type ServerOptions } from '../server/index.js';
import { ConfigError, loadConfig, type Config, type LoadedConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { DEFAULT_WARMUP_LIMITS, primeQueryPath } from './jit-warmup.js';
import { catchingStop, nextSignal } from './stop-signal.js';
import { compileBaselineOnFirstCall } from './baseline-jit.js';

/** What the composition root owns beyond what the server uses: the final flush. */
export interface AppDeps extends ServerDeps {
  /** Stop background work, flush the WAL into storage once more, release files. */
  close(): Promise<void>;
  /** [ops] Metrics fed by the engine (flushes, WAL sequence) and the disk monitor. */
  readonly metrics: ServiceMetrics;
  /** [ops] Disk protection ([disk]); started only when `disk.enabled`. */
  readonly disk: DiskMonitor;
  /** Write every cache to TSM now (server.jit_warmup's scratch engine reads both). */
  flush(): Promise<void>;
  /** The write path's JIT warm-up (`server.jit_warmup`): run before the server listens. */
  warmUpWritePath(): Promise<WarmupReport>;
}

/** Test seams of openDeps. */
export interface OpenDepsOverrides {
  /** Free-space source of the disk monitor (default: fs.statfs). */
  readonly statfs?: FreeSpaceSource;
  /**
   * prom-client's process collectors (default true). They observe the whole process and stay
   * registered (GC observer, event-loop delay monitor): a scratch engine must not add its own.
   */
  readonly processMetrics?: boolean;
}

/** A worker that has not loaded by then (a slow disk, a broken bundle) starts on its own later. */
const WORKERS_LOAD_TIMEOUT_MS = 5_000;

async function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Open the storage engine and adapt it to what the HTTP layer needs. */
export async function openDeps(config: Config, logger: Logger, overrides: OpenDepsOverrides = {}): Promise<AppDeps> {
  // [ops] metrics: the engine reports flushes through its FlushObserver
  const metrics = new ServiceMetrics({ replicationMode: config.cluster.replication.mode, processMetrics: overrides.processMetrics ?? true });
  const engine = await Engine.open(engineOptionsFromConfig(config, logger), metrics.flushObserver);
  const state = engine.state;
  // [auth] One registry for the /query route (attach) and the executor (SHOW/KILL QUERY).
  const queries = new QueryRegistry(config.server.max_concurrent_queries);
  // [ops] disk protection over every data path; its samples also feed service_disk_free_bytes
  const disk = new DiskMonitor({
    paths: [config.storage.wal_dir, config.storage.meta_dir, config.chdb.session_data_path],
    ...diskThresholds(config.disk),
    state,
    logger,
    ...(overrides.statfs ? { statfs: overrides.statfs } : {}),
    onReadOnly: () => metrics.diskReadonlyEvents.inc(),
  });
  if (config.disk.enabled) await disk.start(config.disk.check_interval_secs * 1000);
  metrics.bindSources({ walLastSequence: () => engine.lastWalSeq, diskFree: () => disk.sample(), cacheMemory: () => cacheMemory(engine.allShards()) });
  // Background services of the spec: retention enforcement, continuous queries, views.
  const retention = config.retention.enabled
    ? new RetentionService(engine, { intervalMs: parseDurationMs(config.retention.interval) ?? 12 * 3_600_000, logger })
    : undefined;
  const cqs = new ContinuousQueryScheduler(engine, { logger });
  const views = new MaterializedViewMaintainer(engine, { logger });
  const meta = views.metaExecutor(executeMetaStatement);
  engine.writeGuard = (db, rp, m) => {
    const v = viewTargetOf(engine.catalog, db, rp, m);
    return v ? `measurement "${m}" is maintained by materialized view "${v.name}"` : undefined;
  };
  metrics.bindRetention(() => retention?.counters);
  retention?.start();
  cqs.start();
  views.start();
  // Listen only once the write path's threads can work, else the first writes wait for them
  // (perf/README.md, section 14).
  await withTimeout(engine.whenWorkersLoaded(), WORKERS_LOAD_TIMEOUT_MS);
  const bind = `${config.server.bind_address}:${config.server.port}`;
  const statsModules = () => [
    // 1.x's continuous querier module: executions that wrote, executions that failed.
    { name: 'cq', values: { queryOk: cqs.counters.runs, queryFail: cqs.counters.errors } },
    ...serverStatsModules(metrics.httpd, metrics.pointsWriter, bind),
  ];
  return {
    metrics,
    disk,
    state,
    users: engine.catalog,
    queries,
    write: (req) => engine.write(req),
    query: (req, onResult) =>
      executeStatements(
        req.statements,
        {
          engine,
          database: req.db,
          retentionPolicy: req.rp,
          nowNs: nowNs(),
          signal: req.signal,
          hashPassword: hashPasswordArgon2id,
          queries,
          version: SERVICE_VERSION,
          statsModules,
          ...(req.user ? { user: req.user } : {}),
        },
        meta,
        onResult,
        req.sinkFor,
      ),
    databaseExists: (name) => engine.catalog.database(name) !== undefined,
    defaultRetentionPolicy: (name) => engine.catalog.database(name)?.defaultRp ?? '',
    warmUpWritePath: () => engine.warmUpWritePath(),
    ready: async () => !state.stopping,
    flush: () => engine.flush(),
    close: async () => {
      disk.stop();
      await retention?.stop();
      await cqs.stop();
      await views.stop();
      await engine.close();
    },
  };
}

function nowNs(): bigint {
  const t = nowTime();
  return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec);
}

/** fs access for loadConfig: undefined for a missing file, a ConfigError for any other failure. */
export function readConfigText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError([`cannot read config file ${path}: ${(err as Error).message}`]);
  }
}

export function loadProcessConfig(configPath: string | undefined): LoadedConfig {
  return loadConfig({ argvConfigPath: configPath, getenv: () => process.env, readFile: readConfigText });
}

export function serverOptions(config: Config): ServerOptions {
  return {
    server: config.server,
    auth: config.auth,
    rate_limit: config.rate_limit,
    statement_summary: config.statement_summary,
  };
}

/** server.jit_warmup: the query path primed on a scratch server before the user's storage opens. */
async function primeJit(config: Config, log: Logger, stop: AbortSignal): Promise<void> {
  // The scratch engine's and server's own lines (opened, replayed, listening) are not the user's.
  const quiet = log.child({ jit_warmup: true }, { level: log.isLevelEnabled('warn') ? 'warn' : 'error' });
  try {
    const report = await primeQueryPath(
      config,
      {
        openDeps: (c) => openDeps(c, quiet, { processMetrics: false }),
        startServer: (deps, c) => startServer(deps, serverOptions(c), quiet),
      },
      { ...DEFAULT_WARMUP_LIMITS, stop },
    );
    log.info(report, 'query path primed (server.jit_warmup)');
  } catch (err) {
    // Only speed is lost: serve the user's data anyway.
    log.warn({ err }, 'query path priming failed (server.jit_warmup); starting without it');
  }
}

/** A second signal while stopping means "now": exit without the final flush. */
function exitNow(log: Logger): (signal: NodeJS.Signals) => void {
  return (signal) => {
    log.error({ signal }, 'second signal: exiting without final flush');
    process.exit(1);
  };
}

export async function serve(opts: { configPath?: string | undefined }): Promise<void> {
  const loaded = loadProcessConfig(opts.configPath);
  const { config } = loaded;
  const log = createLogger(config.logging);
  for (const warning of loaded.warnings) log.warn({}, warning);

  // A stop during a warm-up ends it early; its scratch directory is removed before the exit.
  if (config.server.jit_warmup) {
    const signal = await catchingStop((stop) => primeJit(config, log, stop), exitNow(log));
    if (signal !== undefined) return log.info({ signal }, 'stopped during the JIT warm-up, before opening the storage');
  }
  const deps = await openDeps(config, log);
  if (config.server.jit_warmup) {
    // A failed warm-up costs only the compile time it would have saved: start anyway. It is bounded
    // (a few seconds) and not cut short by a stop, which waits for it and removes its scratch copy.
    const signal = await catchingStop(
      () =>
        deps.warmUpWritePath().then(
          (r) => log.info({ lines: r.lines, compactions: r.compactions, ms: Math.round(r.ms), cpuMs: Math.round(r.cpuMs) }, 'write path warmed up'),
          (err: unknown) => log.warn({ error: String(err) }, 'write path warm-up failed'),
        ),
      exitNow(log),
    );
    if (signal !== undefined) {
      log.info({ signal }, 'stopped during the JIT warm-up: final flush');
      await deps.close();
      return log.info({}, 'stopped');
    }
  }
  if (config.server.baseline_jit) compileBaselineOnFirstCall();
  const server = await startServer(deps, serverOptions(config), log).catch(async (err: unknown) => {
    await deps.close();
    throw err;
  });
  log.info(
    { address: config.server.bind_address, port: server.port, tls: config.server.tls_enabled, baselineJit: config.server.baseline_jit, config: loaded.file ?? 'defaults' },
    'strata listening',
  );

  const signal = await nextSignal();
  void nextSignal().then(exitNow(log));
  log.info({ signal, inFlight: server.inFlight }, 'shutting down: draining in-flight requests');
  await server.close({ drainTimeoutMs: config.server.request_timeout_secs * 1000 });
  log.info({}, 'final flush');
  await deps.close();
  log.info({}, 'stopped');
}
