/**
 * `strata serve`: the composition root. Load the configuration, create the logger, open the
 * dependencies (engine), start the HTTP server, and on SIGINT/SIGTERM stop gracefully:
 * stop accepting, drain in-flight requests (bounded by server.request_timeout_secs), then the
 * final flush (`deps.close()`), exit 0 (spec "What the service does" item 11).
 */
import { readFileSync } from 'node:fs';
import { Engine, nowTime } from '../engine/index.js';
import { executeMetaStatement, executeStatements, hashPasswordArgon2id, QueryRegistry } from '../ql/index.js';
import { engineOptionsFromConfig } from './engine-options.js';
import { startServer, type ServerDeps, type ServerOptions } from '../server/index.js';
import { ConfigError, loadConfig, type Config, type LoadedConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';

/** What the composition root owns beyond what the server uses: the final flush. */
export interface AppDeps extends ServerDeps {
  /** Stop background work, flush the WAL into storage once more, release files. */
  close(): Promise<void>;
}

/** Open the storage engine and adapt it to what the HTTP layer needs. */
export async function openDeps(config: Config, logger: Logger): Promise<AppDeps> {
  const engine = await Engine.open(engineOptionsFromConfig(config, logger));
  const state = engine.state;
  // [auth] One registry for the /query route (attach) and the executor (SHOW/KILL QUERY).
  const queries = new QueryRegistry(config.server.max_concurrent_queries);
  return {
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
          ...(req.user ? { user: req.user } : {}),
        },
        executeMetaStatement,
        onResult,
      ),
    databaseExists: (name) => engine.catalog.database(name) !== undefined,
    ready: async () => !state.stopping,
    close: () => engine.close(),
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

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on).off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on).on('SIGTERM', on);
  });
}

export async function serve(opts: { configPath?: string | undefined }): Promise<void> {
  const loaded = loadProcessConfig(opts.configPath);
  const { config } = loaded;
  const log = createLogger(config.logging);
  for (const warning of loaded.warnings) log.warn({}, warning);

  const deps = await openDeps(config, log);
  const server = await startServer(deps, serverOptions(config), log).catch(async (err: unknown) => {
    await deps.close();
    throw err;
  });
  log.info(
    { address: config.server.bind_address, port: server.port, tls: config.server.tls_enabled, config: loaded.file ?? 'defaults' },
    'strata listening',
  );

  const signal = await nextSignal();
  // A second signal while draining means "now": exit without the final flush.
  void nextSignal().then((again) => {
    log.error({ signal: again }, 'second signal: exiting without final flush');
    process.exit(1);
  });
  log.info({ signal, inFlight: server.inFlight }, 'shutting down: draining in-flight requests');
  await server.close({ drainTimeoutMs: config.server.request_timeout_secs * 1000 });
  log.info({}, 'final flush');
  await deps.close();
  log.info({}, 'stopped');
}
