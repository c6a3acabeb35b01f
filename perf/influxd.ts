/**
 * A throw-away InfluxDB 1.6.7 for the comparisons, started through the conformance oracle
 * script (loopback only), then restarted with a config that compacts cold shards quickly:
 * `compact-full-write-cold-duration` and `cache-snapshot-write-cold-duration` = "10s"
 * (defaults 4h / 10m). `wal-fsync-delay` stays "0s", the default: every write is fsynced to
 * the WAL before it is acknowledged, the same durability as Strata's group commit.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bytesOf } from './bench-util.js';

const ORACLE = '/work/shared/conformance/oracle.sh';

export interface Influxd {
  readonly pid: number;
  readonly port: number;
  readonly dir: string;
  readonly conf: string;
  readonly child: ChildProcess;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitExit(pid: number): Promise<void> {
  for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
}

export async function ping(port: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await http(port, 'GET', '/ping', undefined);
      if (r.status === 204) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`no /ping answer on port ${port}`);
    await sleep(100);
  }
}

export async function startInfluxd(port: number, rpc: number): Promise<Influxd> {
  const dir = `/tmp/cf-oracle-${port}`;
  const first = Number(execFileSync(ORACLE, ['start', String(port), String(rpc)], { encoding: 'utf8' }).trim());
  process.kill(first, 'SIGTERM');
  await waitExit(first);
  const confPath = join(dir, 'influxdb.conf');
  let conf = readFileSync(confPath, 'utf8');
  if (!/wal-fsync-delay = "0s"/.test(conf)) throw new Error('influxd config: wal-fsync-delay is not "0s"');
  conf = conf
    .replace(/compact-full-write-cold-duration = "[^"]*"/, 'compact-full-write-cold-duration = "10s"')
    .replace(/cache-snapshot-write-cold-duration = "[^"]*"/, 'cache-snapshot-write-cold-duration = "10s"');
  writeFileSync(confPath, conf);
  const log = openSync(join(dir, 'influxd.log'), 'a');
  const child = spawn('influxd', ['-config', confPath], { detached: true, stdio: ['ignore', log, log] });
  child.unref();
  const pid = child.pid!;
  writeFileSync(join(dir, 'influxd.pid'), `${pid}\n`);
  await ping(port);
  return { pid, port, dir, conf: confPath, child };
}

/** Stop our influxd (and reap it: a zombie would keep oracle.sh's wait loop spinning), then clean up. */
export async function stopInfluxd(inst: Influxd): Promise<void> {
  if (inst.child.exitCode === null && inst.child.signalCode === null) {
    const exited = new Promise<void>((resolve) => inst.child.once('exit', () => resolve()));
    inst.child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
    if (inst.child.exitCode === null && inst.child.signalCode === null) {
      inst.child.kill('SIGKILL');
      await exited;
    }
  }
  execFileSync(ORACLE, ['stop', String(inst.port)]);
}

const agents = new Map<number, Agent>();

export function agentFor(port: number, sockets: number): Agent {
  let a = agents.get(port);
  if (!a) {
    a = new Agent({ keepAlive: true, maxSockets: sockets });
    agents.set(port, a);
  }
  return a;
}

export function closeAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/** One request on a keep-alive agent (loopback). */
export function http(port: number, method: string, path: string, body: Buffer | undefined, agent?: Agent): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: agent ?? agentFor(port, 16) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.setHeader('Content-Length', body.length);
    req.end(body);
  });
}

export async function query(port: number, db: string, q: string): Promise<unknown> {
  const r = await http(port, 'POST', `/query?db=${encodeURIComponent(db)}&q=${encodeURIComponent(q)}`, undefined);
  if (r.status !== 200) throw new Error(`query ${q}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
  return JSON.parse(r.body) as unknown;
}

/** Sum every numeric cell except the time column of a SELECT count(*) answer. */
export function sumCounts(answer: unknown): number {
  let total = 0;
  const results = (answer as { results?: { series?: { values?: unknown[][] }[]; error?: string }[] }).results ?? [];
  for (const r of results) {
    if (r.error) throw new Error(r.error);
    for (const s of r.series ?? []) for (const row of s.values ?? []) for (const v of row.slice(1)) if (typeof v === 'number') total += v;
  }
  return total;
}

/**
 * Wait until every shard of `db` holds a single TSM generation, no compaction temp file and
 * an empty WAL, stable for 3 s (or `timeoutMs`). Returns the TSM bytes and files then.
 */
export async function waitCompacted(inst: Influxd, db: string, timeoutMs: number): Promise<{ bytes: number; files: number; settled: boolean }> {
  const dataDir = join(inst.dir, 'data', db);
  const walDir = join(inst.dir, 'wal', db);
  const until = Date.now() + timeoutMs;
  let stableSince = 0;
  let last = '';
  for (;;) {
    const state = await shardState(dataDir);
    const wal = await bytesOf(walDir, '.wal');
    const done = state.ok && wal.bytes === 0;
    const sig = state.sig;
    if (done && sig === last) {
      if (stableSince === 0) stableSince = Date.now();
      if (Date.now() - stableSince >= 3000) return { ...(await bytesOf(dataDir, '.tsm')), settled: true };
    } else stableSince = 0;
    last = sig;
    if (Date.now() > until) return { ...(await bytesOf(dataDir, '.tsm')), settled: false };
    await sleep(1000);
  }
}

async function shardState(dataDir: string): Promise<{ ok: boolean; sig: string }> {
  let ok = true;
  const sig: string[] = [];
  for (const rp of await readdir(dataDir).catch(() => [] as string[])) {
    if (rp.startsWith('_')) continue; // _series: the series file, not a retention policy
    for (const shard of await readdir(join(dataDir, rp)).catch(() => [] as string[])) {
      const names = await readdir(join(dataDir, rp, shard)).catch(() => [] as string[]);
      const gens = new Set(names.filter((n) => n.endsWith('.tsm')).map((n) => n.split('-')[0]));
      if (gens.size !== 1 || names.some((n) => n.endsWith('.tmp'))) ok = false;
      sig.push(`${rp}/${shard}:${names.sort().join(',')}`);
    }
  }
  if (sig.length === 0) ok = false;
  return { ok, sig: sig.join(';') };
}
