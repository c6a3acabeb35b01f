/**
 * server.jit_warmup: before `strata serve` opens the user's storage and listens, run the query
 * path (HTTP route, parser, planner, executor, cursors over TSM files and the cache, JSON and
 * CSV writers) a few hundred times on a scratch server, so the first queries users send run
 * optimized code.
 *
 * Why: a fresh process spends ~0.9 ms of CPU on a one-host, one-hour group-by-time query that an
 * aged one answers in ~0.2 ms; the difference is V8 still interpreting and compiling the query
 * path for the first ~100-200 requests of a query shape (perf/QUERY.md, sessions q11 and q12).
 * Optimized code and type feedback live with the functions, not with the objects: priming on
 * other data with the same classes serves the user's queries too.
 *
 * The scratch server is the real one (openDeps + startServer, the same code `serve` runs) over
 * its own temporary directory (os.tmpdir()), listening on an ephemeral loopback port only while
 * priming runs, with a logger that writes warnings and errors only; the directory is removed
 * afterwards. Nothing reaches the user's WAL, meta or data directories, metrics registry or
 * statement summaries. Queries are generic InfluxQL shapes over a generic schema with random
 * tags and windows (texts vary, so the parser is primed too); bounded by a request count and a
 * wall-time budget.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerHandle } from '../server/index.js';
import type { Config } from './config.js';

/** What priming needs from the composition root: a scratch engine behind the real deps, and the real server. */
export interface WarmupHooks<D extends ScratchDeps> {
  openDeps(config: Config): Promise<D>;
  startServer(deps: D, config: Config): Promise<ServerHandle>;
}

/** The scratch engine's handles priming uses beside the server. */
export interface ScratchDeps {
  /** Write the cache to TSM files (so both are read). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface WarmupLimits {
  /** Query requests to send at most. */
  readonly requests: number;
  /** Stop sending queries after this much wall time (ms) from the start, whatever the count. */
  readonly budgetMs: number;
  /** Where the scratch directory is made (default os.tmpdir()). */
  readonly tmpRoot?: string;
  /** Aborted when the process is asked to stop: priming ends early and removes its scratch directory. */
  readonly stop?: AbortSignal;
}

/**
 * On the 2-core bench machine, 200-800 priming requests cut a fresh process's CPU for the
 * requests 6-20 of a one-host group-by-time query from ~0.6-1.0 ms to ~0.2-0.4 ms, with no
 * clear gain beyond ~200 (perf/QUERY.md, q12). The wall budget (with the ~0.4-1 s of setup)
 * bounds start-up on a slow or loaded machine.
 */
export const DEFAULT_WARMUP_LIMITS: WarmupLimits = { requests: 800, budgetMs: 2000 };

export interface WarmupReport {
  readonly requests: number;
  /** Of wallMs: opening the scratch engine and server, writing and flushing its data. */
  readonly setupMs: number;
  readonly wallMs: number;
  /** Process CPU (user + system, all threads) spent priming. */
  readonly cpuMs: number;
}

const DB = 'warmup';
const TAGS = ['a', 'b', 'c', 'd'];
/** Scratch data: 4 series, one point every 10 s for 3 h, in 3 parts (2 TSM files and the cache). */
const START_MS = Date.UTC(2000, 0, 1);
const STEP_MS = 10_000;
const POINTS = 1080;
const PARTS = 3;

/** A small deterministic generator: the same priming on every start. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function lines(part: number): string {
  const out: string[] = [];
  const rnd = lcg(part + 1);
  const per = POINTS / PARTS;
  for (let k = part * per; k < (part + 1) * per; k++) {
    const ns = BigInt(START_MS + k * STEP_MS) * 1_000_000n;
    for (const t of TAGS) {
      const v = Math.floor(rnd() * 100);
      out.push(`m,t=${t},u=${k % 2 ? 'x' : 'y'} f=${(rnd() * 100).toFixed(3)},i=${v}i,s="s${v % 7}",b=${v % 2 === 0} ${ns}`);
    }
  }
  return out.join('\n') + '\n';
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Generic statement shapes: aggregates by time and tag, raw scans, filters, ordering, limits, SHOW. */
function statement(rnd: () => number, n: number): { q: string; extra?: string } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const span = POINTS * STEP_MS;
  const from = START_MS + Math.floor(rnd() * (span / 2) / 60_000) * 60_000;
  const to = from + pick([10, 30, 60, 120]) * 60_000;
  const window = `time >= '${rfc3339(from)}' and time < '${rfc3339(to)}'`;
  const tag = pick(TAGS);
  const field = pick(['f', 'i']);
  const agg = pick(['max', 'min', 'mean', 'sum', 'count', 'first', 'last']);
  const every = pick(['1m', '5m', '10m', '1h']);
  switch (n % 12) {
    case 0:
    case 1:
    case 2:
      return { q: `SELECT ${agg}(${field}) FROM m WHERE (t = '${tag}') AND ${window} GROUP BY time(${every})` };
    case 3:
      return { q: `SELECT max(f), min(i), ${agg}(${field}) FROM m WHERE (t = '${tag}' OR t = '${pick(TAGS)}') AND ${window} GROUP BY time(${every})` };
    case 4:
      return { q: `SELECT ${agg}(${field}) FROM m WHERE ${window} GROUP BY time(1h), t` };
    case 5:
      return { q: `SELECT * FROM m WHERE ${field} > ${Math.floor(rnd() * 90)} AND (t = '${tag}') AND ${window}` };
    case 6:
      return { q: `SELECT * FROM m GROUP BY "t" ORDER BY time DESC LIMIT 1` };
    case 7:
      return { q: `SELECT ${agg}(${field}) FROM m WHERE time < '${rfc3339(to)}' GROUP BY time(${every}) LIMIT ${1 + Math.floor(rnd() * 9)}` };
    case 8:
      return { q: `SELECT count(*) FROM m WHERE ${window}`, extra: pick(['', '&epoch=ms']) };
    case 9:
      return { q: `SELECT * FROM m WHERE t = '${tag}' ORDER BY time DESC LIMIT ${10 * (1 + Math.floor(rnd() * 20))}` };
    case 10:
      return { q: `SELECT f, i, s, b FROM m WHERE ${window} LIMIT 50`, extra: pick(['', '&epoch=s', '&chunked=true']) };
    default:
      return { q: pick(['SHOW MEASUREMENTS', 'SHOW TAG VALUES WITH KEY = "t"', 'SHOW FIELD KEYS', 'SHOW SERIES', 'SHOW TAG KEYS']) };
  }
}

class WarmupRequestError extends Error {
  constructor(path: string, status: number, body: string) {
    super(`jit warm-up: ${path.slice(0, 120)} answered ${status}: ${body.slice(0, 200)}`);
  }
}

function send(agent: Agent, port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      // A statement error is a 200 with `"error"` in its result: priming would not run what it should.
      res.on('end', () => ((res.statusCode ?? 0) < 300 && !text.includes('"error"') ? resolve(text) : reject(new WarmupRequestError(path, res.statusCode ?? 0, text))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Scratch configuration: the user's settings, but its own directories, loopback, an ephemeral port, no auth/TLS/limits/disk/retention. */
function scratchConfig(config: Config, dir: string): Config {
  return {
    ...config,
    server: { ...config.server, bind_address: '127.0.0.1', port: 0, tls_enabled: false, max_concurrent_queries: 0, jit_warmup: false },
    auth: { ...config.auth, enabled: false },
    rate_limit: { ...config.rate_limit, enabled: false },
    storage: { ...config.storage, wal_dir: join(dir, 'wal'), meta_dir: join(dir, 'meta') },
    chdb: { ...config.chdb, session_data_path: join(dir, 'data') },
    disk: { ...config.disk, enabled: false },
    retention: { ...config.retention, enabled: false },
  };
}

function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export async function primeQueryPath<D extends ScratchDeps>(config: Config, hooks: WarmupHooks<D>, limits: WarmupLimits = DEFAULT_WARMUP_LIMITS): Promise<WarmupReport> {
  const t0 = performance.now();
  const c0 = processCpuMs();
  const dir = await mkdtemp(join(limits.tmpRoot ?? tmpdir(), 'strata-jit-warmup-'));
  let requests = 0;
  let setupMs = 0;
  try {
    const scratch = scratchConfig(config, dir);
    const deps = await hooks.openDeps(scratch);
    let server: ServerHandle | undefined;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      server = await hooks.startServer(deps, scratch);
      const port = server.port;
      const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
      await send(agent, port, 'POST', '/query', `q=${encodeURIComponent(`CREATE DATABASE ${DB}`)}`, form);
      for (let part = 0; part < PARTS && !limits.stop?.aborted; part++) {
        await send(agent, port, 'POST', `/write?db=${DB}&precision=ns`, lines(part));
        if (part < PARTS - 1) await deps.flush(); // the last part stays in the cache
      }
      setupMs = performance.now() - t0;
      const rnd = lcg(42);
      const deadline = t0 + limits.budgetMs;
      for (; requests < limits.requests && performance.now() < deadline && !limits.stop?.aborted; requests++) {
        const { q, extra = '' } = statement(rnd, requests);
        const csv = requests % 25 === 24 ? { Accept: 'text/csv' } : undefined;
        await send(agent, port, 'GET', `/query?db=${DB}&q=${encodeURIComponent(q)}${extra}`, undefined, csv);
      }
    } finally {
      agent.destroy();
      await server?.close({ drainTimeoutMs: 1000 });
      await deps.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { requests, setupMs: Math.round(setupMs), wallMs: Math.round(performance.now() - t0), cpuMs: Math.round(processCpuMs() - c0) };
}
