/**
 * SIGKILL torture: a real `strata serve` is killed at random moments while writers append,
 * overwrite (at each precision in turn) and DELETE across several shard groups, with flushes
 * and compactions running, and sometimes again while it is starting up. After every restart
 * each writer's series must hold exactly its acknowledged state, except where the one request
 * it had in flight at the kill may or may not have landed. Some deletes are DROP SERIES, and
 * now and then a writer copies its series with SELECT ... INTO, whose answer promises what a
 * 204 does. Beside the writers a catalog actor creates, fills, alters and drops databases,
 * policies and a continuous query (crash-torture-ddl.ts), and optionally a backup is taken
 * live and checked (crash-torture-backup.ts). Used by crash-torture.test.ts (a few rounds in
 * `make test`) and crash-torture-run.ts (many rounds and seeds, for hunting).
 *
 * Each writer owns one series and issues one request at a time, so at a kill it has at most one
 * unanswered request: its points may each be there (new value) or not (old state), and a
 * pending DELETE may have removed each covered point or not. Everything else is exact. After a
 * verify the stored state becomes the model, which settles those unknowns. SHOW SERIES must list
 * a series with stored rows and must not list one after an answered DROP SERIES that no
 * acknowledged write followed (a narrow window here: drop-crash.test.ts aims at it).
 */
import { spawn } from 'node:child_process';
import { mulberry32 } from '../../engine/index.js';
import { BackupActor, type BackupStats, type Issued } from './crash-torture-backup.js';
import { DdlActor, type DdlStats } from './crash-torture-ddl.js';
import { brokenConnection, freePort, http, MAIN, postUnlessGone as post, serverEnv, serverRows, startServer, stopServer, type Server } from './harness.js';

export interface TortureOptions {
  readonly dir: string;
  readonly rounds: number;
  readonly seed: number;
  readonly writers?: number;
  /** Kill between these many ms into a round. */
  readonly killMs?: readonly [number, number];
  /** Fraction of restarts that are first killed while starting up. */
  readonly startupKillRate?: number;
  readonly env?: Record<string, string>;
  /** Progress lines (round summaries). */
  readonly log?: (line: string) => void;
  /** Appends the server's stderr here after each server exits, when given. */
  readonly serverLog?: (text: string) => void;
  /**
   * Weeks (shard groups) new points go to in a round, a different run of them each round
   * (default: all six). Fewer leave the other shards cold, so with a short
   * SERVICE__STORAGE__COMPACT_FULL_WRITE_COLD_DURATION full compactions purge deleted rows
   * while the round runs.
   */
  readonly hotWeeks?: number;
  /** Loopback port of every server the run starts (default: a free one each time). */
  readonly port?: number;
  /** Called with the server down, before each restart (the runner's --break-round uses it to show a verify failing). */
  readonly beforeRestart?: (round: number) => void;
  /** Run the catalog actor beside the writers (crash-torture-ddl.ts); default true. */
  readonly ddl?: boolean;
  /** The catalog actor's answered requests, line by line. */
  readonly ddlTrace?: (line: string) => void;
  /** A live backup each round, restored and checked (crash-torture-backup.ts); default false. */
  readonly backups?: boolean;
}

export interface TortureStats {
  rounds: number;
  acked: number;
  overwrites: number;
  deletes: number;
  /** DROP SERIES among the deletes. */
  drops: number;
  /** SELECT ... INTO copies acknowledged. */
  intos: number;
  startupKills: number;
  checked: number;
  ddl: DdlStats | undefined;
  backups: BackupStats | undefined;
}

const WEEK_MS = 7 * 86_400_000;
const BASE_MS = Date.UTC(2023, 0, 2); // a Monday: shard groups of 7 d start on Thursdays, so weeks straddle them
const WEEKS = 6;
const DB = 'tort';
/** Write precisions and the factor (numerator, denominator) from ms to each. */
const PRECISIONS: readonly (readonly [string, readonly [bigint, bigint]])[] = [
  ['ms', [1n, 1n]],
  ['s', [1n, 1000n]],
  ['us', [1000n, 1n]],
  ['ns', [1_000_000n, 1n]],
];

type Pending =
  | { kind: 'write'; lines: Map<number, number> }
  | { kind: 'delete'; lo: number; hi: number }
  | { kind: 'into'; rows: ReadonlyMap<number, number> }
  | null;

interface Writer {
  readonly name: string;
  /** time (ms) -> value, as acknowledged. */
  model: Map<number, number>;
  /** The same for its copy in `tort_copy`, made by SELECT ... INTO (later copies win a time). */
  copy: Map<number, number>;
  nextSlot: number[];
  pending: Pending;
  seq: number;
  /** An acknowledged DROP SERIES with no acknowledged write after it: the index must not list the series. */
  dropped: boolean;
}

export async function torture(opts: TortureOptions): Promise<TortureStats> {
  const rand = mulberry32(opts.seed);
  const nWriters = opts.writers ?? 4;
  const [killLo, killHi] = opts.killMs ?? [200, 4200];
  const startupKillRate = opts.startupKillRate ?? 0.15;
  const env = { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__FLUSH__MAX_POINTS_PER_BATCH: '10000', ...opts.env };
  const log = opts.log ?? (() => undefined);
  // Its own generator: adding the actor leaves the writers' sequence of a seed as it was.
  const ddl = opts.ddl === false ? undefined : new DdlActor(mulberry32(opts.seed ^ 0x5eed), opts.ddlTrace);
  const issued = (w: Writer): Issued | undefined =>
    w.pending?.kind === 'write' ? { w: w.name, kind: 'write', lines: w.pending.lines } : w.pending?.kind === 'delete' ? { w: w.name, kind: 'delete', lo: w.pending.lo, hi: w.pending.hi } : undefined;
  const backups = opts.backups
    ? new BackupActor(
        { dir: opts.dir, db: DB, measurement: 'tort', env, ...(opts.port !== undefined && { port: opts.port }), snapshot: () => new Map(writers.map((w) => [w.name, { model: new Map(w.model), pending: issued(w) }])) },
        mulberry32(opts.seed ^ 0xbac),
      )
    : undefined;
  const stats: TortureStats = { rounds: 0, acked: 0, overwrites: 0, deletes: 0, drops: 0, intos: 0, startupKills: 0, checked: 0, ddl: ddl?.stats, backups: backups?.stats };
  const writers: Writer[] = Array.from({ length: nWriters }, (_, w) => ({
    name: `w${w}`,
    model: new Map(),
    copy: new Map(),
    nextSlot: Array.from({ length: WEEKS }, () => 0),
    dropped: false,
    pending: null,
    seq: 0,
  }));

  const port = opts.port;
  let srv = await startServer({ dir: opts.dir, env, port });
  try {
    const created = await http(srv.port, 'POST', `/query?q=${encodeURIComponent(`CREATE DATABASE ${DB}`)}`);
    if (created.status !== 200 || created.body.includes('"error"')) throw new Error(`CREATE DATABASE: ${created.status} ${created.body}`);

    for (let round = 0; round < opts.rounds; round++) {
      const s = srv;
      const killAfterMs = killLo + Math.floor(rand() * (killHi - killLo));
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        s.child.kill('SIGKILL');
      }, killAfterMs);
      const failures: string[] = [];
      const hot = Array.from({ length: opts.hotWeeks ?? WEEKS }, (_, i) => (round + i) % WEEKS);
      const record = (w: Writer) => backups?.record(issued(w));
      await Promise.all([
        ...writers.map((w) => runWriter(s.port, w, round, hot, rand, () => killed, stats, failures, record)),
        ddl?.run(s.port, round, () => killed, failures),
        backups?.run(round, () => killed, failures),
      ]);
      clearTimeout(timer);
      const exit = await s.exited;
      opts.serverLog?.(s.log());
      if (failures.length > 0) throw new Error(`round ${round}: ${failures.join('; ')}`);
      if (exit.signal !== 'SIGKILL') throw new Error(`round ${round}: server exited by itself (${JSON.stringify(exit)})\n${s.log().slice(-3000)}`);

      opts.beforeRestart?.(round);
      while (rand() < startupKillRate) {
        await killDuringStartup(opts.dir, env, 20 + Math.floor(rand() * 800), opts.serverLog, port);
        stats.startupKills++;
      }
      srv = await startServer({ dir: opts.dir, env, port });
      opts.ddlTrace?.(`-- round ${round} killed at ${killAfterMs} ms, restarted`);
      const ddlProblems = (await ddl?.verify(srv, round)) ?? [];
      if (ddlProblems.length > 0) throw new Error(`round ${round} ddl: ${ddlProblems.length} problems: ${ddlProblems.slice(0, 8).join('; ')}\n${srv.log().slice(-3000)}`);
      for (const w of writers) stats.checked += await verify(srv, w, round);
      stats.rounds++;
      log(`round ${round}: killed at ${killAfterMs} ms; ${stats.acked} acked, ${stats.overwrites} overwrites, ${stats.deletes} deletes (${stats.drops} DROP SERIES), ${stats.intos} INTO, ${stats.startupKills} start-up kills, ${writers.reduce((n, w) => n + w.model.size, 0)} points held${ddl ? `; ddl ${ddl.stats.creates} CREATE, ${ddl.stats.dropDatabases} DROP DATABASE, ${ddl.stats.dropMeasurements} DROP MEASUREMENT, ${ddl.stats.policiesCreated}/${ddl.stats.policiesDropped} policies created/dropped, ${ddl.stats.alters} ALTER, ${ddl.stats.cqs} CQ created/dropped, ${ddl.stats.points} points` : ''}${backups ? `; ${backups.stats.backups} backups checked` : ''}`);
    }
    return stats;
  } finally {
    await stopServer(srv, 'SIGKILL');
    opts.serverLog?.(srv.log());
  }
}

async function runWriter(
  port: number,
  w: Writer,
  round: number,
  hot: readonly number[],
  rand: () => number,
  killed: () => boolean,
  stats: TortureStats,
  failures: string[],
  /** Called as each write or DELETE is issued (the backup check's journal). */
  record: (w: Writer) => void,
): Promise<void> {
  while (!killed()) {
    w.seq++;
    if (rand() < 0.08 && w.model.size > 0) {
      const week = Math.floor(rand() * WEEKS);
      const span = 1 + Math.floor(rand() * 400);
      let lo = BASE_MS + week * WEEK_MS + Math.floor(rand() * Math.max(1, w.nextSlot[week]!)) * 1000;
      // Sometimes reach into the next week (one DELETE over two shard groups), and now and then
      // drop the whole series: the index forgets it and the next write brings it back.
      let hi = lo + (rand() < 0.1 ? WEEK_MS : span * 1000);
      const drop = rand() < 0.05;
      if (drop) [lo, hi] = [-Infinity, Infinity];
      w.pending = { kind: 'delete', lo, hi };
      record(w);
      const q = drop ? `DROP SERIES FROM tort WHERE w = '${w.name}'` : `DELETE FROM tort WHERE w = '${w.name}' AND time >= ${lo}ms AND time < ${hi}ms`;
      const res = await post(port, `/query?db=${DB}&q=${encodeURIComponent(q)}`, '');
      if (res.status === 0) return brokenConnection(w.name, killed, failures); // killed with the DELETE in flight: stays pending
      if (res.status !== 200 || res.body.includes('"error"')) {
        failures.push(`${w.name} DELETE answered ${res.status} ${res.body}`);
        return;
      }
      for (const t of [...w.model.keys()]) if (t >= lo && t < hi) w.model.delete(t);
      w.pending = null;
      stats.deletes++;
      if (drop) stats.drops++;
      if (drop) w.dropped = true;
      continue;
    }
    if (rand() < 0.02 && w.model.size > 0) {
      // INTO writes through the ingestion path: its answer promises the same as a 204.
      const rows = new Map(w.model);
      w.pending = { kind: 'into', rows };
      const q = `SELECT v INTO tort_copy FROM tort WHERE w = '${w.name}' GROUP BY w`;
      const res = await post(port, `/query?db=${DB}&q=${encodeURIComponent(q)}`, '');
      if (res.status === 0) return brokenConnection(w.name, killed, failures);
      if (res.status !== 200 || res.body.includes('"error"')) {
        failures.push(`${w.name} SELECT INTO answered ${res.status} ${res.body}`);
        return;
      }
      for (const [t, v] of rows) w.copy.set(t, v);
      w.pending = null;
      stats.intos++;
      continue;
    }
    const n = rand() < 0.3 ? 1 + Math.floor(rand() * 5) : 1 + Math.floor(rand() * 200);
    const lines = new Map<number, number>();
    const known = rand() < 0.2 ? [...w.model.keys()] : [];
    for (let k = 0; k < n; k++) {
      let t: number;
      if (known.length > 0 && rand() < 0.5) {
        t = known[Math.floor(rand() * known.length)]!;
        stats.overwrites++;
      } else {
        const week = hot[Math.floor(rand() * hot.length)]!;
        t = BASE_MS + week * WEEK_MS + w.nextSlot[week]! * 1000;
        w.nextSlot[week]!++;
      }
      lines.set(t, round * 100_000_000 + (w.seq % 100_000) * 1000 + k);
    }
    w.pending = { kind: 'write', lines };
    record(w);
    // Every precision in turn (times are whole seconds): the WAL logs each body with its own.
    const [precision, perMs] = PRECISIONS[w.seq % PRECISIONS.length]!;
    const body = [...lines].map(([t, v]) => `tort,w=${w.name} v=${v}i,r=${round}i ${BigInt(t) * perMs[0] / perMs[1]}`).join('\n');
    const res = await post(port, `/write?db=${DB}&precision=${precision}`, body);
    if (res.status === 0) return brokenConnection(w.name, killed, failures);
    if (res.status !== 204) {
      failures.push(`${w.name} /write answered ${res.status} ${res.body}`);
      return;
    }
    for (const [t, v] of lines) w.model.set(t, v);
    w.pending = null;
    w.dropped = false;
    stats.acked += lines.size;
  }
}

async function verify(srv: Server, w: Writer, round: number): Promise<number> {
  const p = w.pending;
  const source = await readSeries(srv, 'tort', w, round);
  const problems = compare(source, w.model, (t, v) => {
    if (p?.kind === 'write' && p.lines.get(t) === v) return true;
    return p?.kind === 'delete' && v === undefined && t >= p.lo && t < p.hi;
  }).map((x) => `tort ${x}, pending ${describe(p, t0(x))}`);
  const copy = await readSeries(srv, 'tort_copy', w, round);
  problems.push(...compare(copy, w.copy, (t, v) => p?.kind === 'into' && p.rows.get(t) === v).map((x) => `tort_copy ${x}, pending ${describe(p, t0(x))}`));
  // Aggregates read block statistics and tombstones through other paths than raw rows.
  const cq = `SELECT count(v), max(v) FROM tort WHERE w = '${w.name}'`;
  const aggRow = (await serverRows(srv, cq, DB, `round ${round} ${w.name} count/max`))[0] as number[] | undefined;
  const count = aggRow?.[1] ?? 0;
  const max = aggRow?.[2];
  let storedMax: number | undefined;
  for (const v of source.values()) if (storedMax === undefined || v > storedMax) storedMax = v;
  if (count !== source.size || max !== storedMax) problems.push(`count/max ${count}/${max} but raw rows give ${source.size}/${storedMax}`);
  // The index, which SHOW SERIES (and Grafana's variables) read, as durable as the rows: listed
  // while rows are stored, gone after an answered DROP SERIES (unless a write in flight may have
  // brought it back).
  const listed = (await serverRows(srv, `SHOW SERIES FROM tort WHERE w = '${w.name}'`, DB, `round ${round} ${w.name} SHOW SERIES`)).length > 0;
  if (source.size > 0 && !listed) problems.push(`${source.size} rows stored but SHOW SERIES does not list the series`);
  if (w.dropped && p?.kind !== 'write' && listed) problems.push('SHOW SERIES lists the series after an answered DROP SERIES');
  if (problems.length > 0) {
    throw new Error(`round ${round} ${w.name}: ${problems.length} problems: ${problems.slice(0, 8).join('; ')}\n${srv.log().slice(-3000)}`);
  }
  w.model = source;
  w.copy = copy;
  if (p?.kind === 'write' && source.size > 0) w.dropped = false;
  w.pending = null;
  return source.size + copy.size;
}

async function readSeries(srv: Server, measurement: string, w: Writer, round: number): Promise<Map<number, number>> {
  const q = `SELECT v FROM ${measurement} WHERE w = '${w.name}'`;
  const stored = new Map<number, number>();
  for (const [t, v] of await serverRows(srv, q, DB, `round ${round} ${w.name}`)) stored.set(t as number, v as number);
  return stored;
}

/** Times where `stored` differs from `model` in a way the in-flight request does not explain. */
function compare(stored: ReadonlyMap<number, number>, model: ReadonlyMap<number, number>, inFlight: (t: number, v: number | undefined) => boolean): string[] {
  const out: string[] = [];
  for (const t of new Set([...model.keys(), ...stored.keys()])) {
    const v = stored.get(t);
    if (v === model.get(t) || inFlight(t, v)) continue;
    out.push(`t=${t} (${new Date(t).toISOString()}): stored ${v ?? 'nothing'}, acknowledged ${model.get(t) ?? 'nothing'}`);
  }
  return out;
}

const t0 = (problem: string): number => Number(/t=(\d+)/.exec(problem)?.[1]);

function describe(p: Pending, t: number): string {
  if (p?.kind === 'write') return `write of ${p.lines.size} points${p.lines.has(t) ? ` (${p.lines.get(t)} here)` : ''}`;
  if (p?.kind === 'delete') return `DELETE [${p.lo}, ${p.hi})`;
  if (p?.kind === 'into') return `INTO of ${p.rows.size} points${p.rows.has(t) ? ` (${p.rows.get(t)} here)` : ''}`;
  return 'none';
}

/** Starts `strata serve` on the same directories and SIGKILLs it after `afterMs`, ready or not. */
async function killDuringStartup(dir: string, extraEnv: Record<string, string>, afterMs: number, serverLog?: (text: string) => void, fixedPort?: number): Promise<void> {
  const port = fixedPort ?? (await freePort());
  const env = serverEnv(dir, port, extraEnv);
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGKILL');
  await exited;
  serverLog?.(stderr);
}
