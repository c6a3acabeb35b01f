/**
 * `strata serve` and `strata inspect` of this build on given directories (`<dir>/wal`,
 * `<dir>/meta`, `<dir>/data`), kept after the server stops: for the scripts that damage or copy
 * a data directory and start a server on what is left (raw-copy.ts, data-dir-damage.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { execPath } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { http, ping } from './influxd.js';

const MAIN = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'cli', 'main.js');

export interface DirServer {
  readonly port: number;
  /** stderr so far (the log). */
  log(): string;
  /** The log's WARN and ERROR lines, shortened. */
  warnings(): string[];
  /** SIGTERM (or `signal`) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The settings that put a server on loopback `port` with its directories under `dir`. */
export function serviceDirs(dir: string, port: number): Record<string, string> {
  return {
    SERVICE__SERVER__PORT: String(port),
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
    SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
    SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
  };
}

export function dirEnv(dir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__') && !k.startsWith('STRATA_')) env[k] = v;
  return { ...env, ...serviceDirs(dir, port), SERVICE__LOGGING__LEVEL: 'info', ...extra };
}

/** Starts a server on `dir`; rejects with its log when it does not answer /ping within 60 s. */
export async function startOn(dir: string, port: number, extra: Record<string, string> = {}): Promise<DirServer> {
  const child = spawn(execPath, [MAIN, 'serve'], { env: dirEnv(dir, port, extra), stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await Promise.race([ping(port, 60_000), exited.then(() => Promise.reject(new Error('exited')))]);
  } catch {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`strata serve did not start on ${dir}:\n${log.slice(-1500)}`);
  }
  return {
    port,
    log: () => log,
    warnings: () => log.split('\n').filter((l) => /WARN|ERROR/.test(l) && !/stale directory lock/.test(l)).map((l) => l.slice(24, 260)),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await Promise.race([exited, sleep(60_000)]);
    },
  };
}

/** `strata inspect` on `dir`: 0 clean, 2 damage found, anything else a tool failure. */
export function inspectDir(dir: string): { code: number | null; output: string } {
  const r = spawnSync(execPath, [MAIN, 'inspect'], { env: dirEnv(dir, 0), encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Runs `strata <args>` with the directories of `dir` (backup, restore). */
export function strataTool(dir: string, args: string[], extra: Record<string, string> = {}): { code: number | null; stderr: string } {
  const r = spawnSync(execPath, [MAIN, ...args], { env: dirEnv(dir, 0, extra), encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stderr: r.stderr };
}

export { MAIN as STRATA_MAIN };

/** POST /query (DDL) or /write; GET-free so it also works for statements that change things. */
export async function post(port: number, path: string, body?: string): Promise<{ status: number; body: string }> {
  return http(port, 'POST', path, body === undefined ? undefined : Buffer.from(body));
}

/** `SELECT count(v) FROM m` in `db`: the count, or the answer's text when there is none. */
export async function countV(port: number, db: string): Promise<number | string> {
  const r = await post(port, `/query?${new URLSearchParams({ db, q: 'SELECT count(v) FROM m' }).toString()}`);
  const m = /"values":\[\[[^,]+,(\d+)\]\]/.exec(r.body);
  return m ? Number(m[1]) : r.body.trim().slice(0, 160);
}
