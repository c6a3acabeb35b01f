/**
 * Test support for the file-tool tests: spawn `strata` (build/cli/main.js) as a user would,
 * with the three engine directories and the port set through SERVICE__ env vars.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

export interface Dirs {
  readonly wal: string;
  readonly meta: string;
  readonly data: string;
}

export const dirsUnder = (root: string): Dirs => ({ wal: join(root, 'wal'), meta: join(root, 'meta'), data: join(root, 'data') });

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** The parent's env minus SERVICE__ settings, plus the directories, port and extras. */
export function toolEnv(dirs: Dirs, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__') && !k.startsWith('STRATA_')) env[k] = v;
  return {
    ...env,
    SERVICE__SERVER__PORT: String(port),
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__STORAGE__WAL_DIR: dirs.wal,
    SERVICE__STORAGE__META_DIR: dirs.meta,
    SERVICE__CHDB__SESSION_DATA_PATH: dirs.data,
    SERVICE__LOGGING__LEVEL: 'warn',
    ...extra,
  };
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `strata <args>`; `killAfterMs` sends SIGKILL after that long (if still running). */
export function runStrata(args: string[], env: NodeJS.ProcessEnv, opts: { killAfterMs?: number; stdin?: string } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    const timer = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface RunningServer {
  readonly port: number;
  readonly child: ChildProcess;
  stderr(): string;
  /** SIGTERM and wait for a clean exit (final flush). */
  stop(): Promise<number | null>;
}

export async function startStrata(dirs: Dirs, extra: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, 'serve'], { env: toolEnv(dirs, port, extra), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/ping`).then(
      (r) => r.status === 204,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`strata serve exited early: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    child,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The raw answer text of /query (compare answers as text: JSON.parse rounds ns epochs). */
export async function queryText(port: number, q: string, db = '', epoch = 'ns'): Promise<string> {
  const body = new URLSearchParams({ q, db, epoch });
  const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', body });
  return res.text();
}

/** Parsed /query answer; times in microseconds by default so they stay exact as JS numbers. */
export async function query(port: number, q: string, db = '', epoch = 'u'): Promise<unknown> {
  return JSON.parse(await queryText(port, q, db, epoch)) as unknown;
}

export async function write(port: number, db: string, lines: string, rp?: string): Promise<number> {
  const q = new URLSearchParams({ db, ...(rp !== undefined && { rp }) });
  const res = await fetch(`http://127.0.0.1:${port}/write?${q.toString()}`, { method: 'POST', body: lines });
  await res.arrayBuffer();
  return res.status;
}
