/**
 * Test harness for the real-client tests (cli/clients/*.test.ts): starts `strata serve` as a
 * child process on a free loopback port with fresh temporary directories, waits for /ping, and
 * offers small HTTP and subprocess helpers. Only the processes started here are ever killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** build/cli/main.js, next to this file's folder once compiled. */
export const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
/** Data files of these tests (repo root is the working directory, as for every test). */
export const FIXTURES = resolve(process.cwd(), 'fixtures/clients');

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/** Whether an executable exists (used to skip, with a reason, when a client is not installed). */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export function http(
  port: number,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<HttpAnswer> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${path}`)));
    req.on('error', fail);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A POST answering status 0 instead of failing when the connection breaks (the server was killed mid-request). */
export function postUnlessGone(port: number, path: string, body: string): Promise<HttpAnswer> {
  return http(port, 'POST', path, body, {}, 120_000).catch(() => ({ status: 0, headers: {}, body: '' }));
}

/** For a request postUnlessGone answered with status 0: expected once the server was killed, a failure before. */
export function brokenConnection(who: string, killed: () => boolean, failures: string[]): void {
  if (!killed()) failures.push(`${who}: connection failed while the server was up`);
}

/** GET /query with q (and extra params); returns the parsed JSON body. */
export async function query(port: number, q: string, params: Record<string, string> = {}): Promise<unknown> {
  const qs = new URLSearchParams({ ...params, q }).toString();
  const res = await http(port, 'GET', `/query?${qs}`);
  if (res.status !== 200) throw new Error(`query ${q}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as unknown;
}

/** POST /query (DDL). */
export async function exec(port: number, q: string, params: Record<string, string> = {}): Promise<unknown> {
  const qs = new URLSearchParams({ ...params, q }).toString();
  const res = await http(port, 'POST', `/query?${qs}`);
  if (res.status !== 200) throw new Error(`query ${q}: ${res.status} ${res.body}`);
  const parsed = JSON.parse(res.body) as { results?: { error?: string }[] };
  const err = parsed.results?.find((r) => r.error !== undefined);
  if (err) throw new Error(`query ${q}: ${err.error}`);
  return parsed;
}

/**
 * The rows of a one-statement GET /query on `srv`, times in epoch ms (`db` when given). A non-200
 * answer or a statement error throws, naming `context` and ending with the server's log tail.
 */
export async function serverRows(srv: Server, q: string, db: string | undefined, context: string): Promise<unknown[][]> {
  const res = await http(srv.port, 'GET', `/query?epoch=ms&${db ? `db=${encodeURIComponent(db)}&` : ''}q=${encodeURIComponent(q)}`, undefined, {}, 60_000);
  if (res.status !== 200) throw new Error(`${context}: ${q} answered ${res.status} ${res.body}\n${srv.log().slice(-3000)}`);
  const answer = JSON.parse(res.body) as { results?: { error?: string }[] };
  const error = answer.results?.[0]?.error;
  if (error !== undefined) throw new Error(`${context}: ${q}: ${error}\n${srv.log().slice(-3000)}`);
  return rows(answer);
}

/** The `values` rows of the first series of the first result (empty when there is none). */
export function rows(answer: unknown): unknown[][] {
  const a = answer as { results?: { series?: { values?: unknown[][] }[] }[] };
  return a.results?.[0]?.series?.[0]?.values ?? [];
}

/** The parent's env minus every SERVICE__ setting, plus the given ones. */
export function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE__')) env[k] = v;
  return { ...env, ...extra };
}

export interface Server {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  readonly child: ChildProcess;
  /** stderr (the log) so far, for assertion messages. */
  log(): string;
  /** Resolves with the exit code / signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** Reuse these data directories (restart after a crash); fresh ones otherwise. */
  readonly dir?: string;
  readonly port?: number;
  readonly env?: Record<string, string>;
}

async function ping(port: number): Promise<number> {
  try {
    return (await http(port, 'GET', '/ping', undefined, {}, 2000)).status;
  } catch {
    return 0;
  }
}

/** The environment of a `strata serve` on loopback `port` with its data under `dir`. */
export function serverEnv(dir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return envWith({
    SERVICE__SERVER__PORT: String(port),
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
    SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
    SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'engine'),
    ...extra,
  });
}

/**
 * Whether process `pid` holds a listening TCP socket on `port` (Linux /proc). A port from
 * freePort() is free only until someone binds it: on a busy machine another test's server can
 * take it before ours starts, ours then exits with "address in use", and /ping is answered by
 * the other one (seen as a database missing after a restart). Undefined without /proc.
 */
export function listensOn(pid: number, port: number): boolean | undefined {
  const inodes = new Set<string>();
  let tables = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
      tables++;
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && Number.parseInt(f[1]!.split(':')[1]!, 16) === port) inodes.add(f[9]!);
    }
  }
  if (tables === 0) return undefined; // no /proc: cannot tell
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

export async function startServer(opts: StartOptions = {}): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(opts);
    } catch (err) {
      // Only a port taken by another process is retried, on a new port (never a port the caller chose).
      if (!(err instanceof PortTakenError) || opts.port !== undefined || attempt >= 3) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function startServerOnce(opts: StartOptions): Promise<Server> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'strata-clients-'));
  const port = opts.port ?? (await freePort());
  const env = serverEnv(dir, port, opts.env);
  const child = spawn(process.execPath, [MAIN, 'serve'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    child.on('exit', (code, signal) => ok({ code, signal })),
  );
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !dead) {
    // A 204 counts only from our own child: another process may hold the port.
    if ((await ping(port)) === 204 && child.pid !== undefined && listensOn(child.pid, port) !== false) {
      return { port, url: `http://127.0.0.1:${port}`, dir, child, log: () => stderr, exited };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  await exited;
  if (!opts.dir) removeDir(dir); // only a directory this call created
  if (/address in use/.test(stderr)) throw new PortTakenError(`port ${port} was taken by another process:\n${stderr}`);
  throw new Error(`strata serve did not answer /ping on ${port}:\n${stderr}`);
}

/** SIGTERM (graceful) or SIGKILL the server and wait for the exit. */
export async function stopServer(s: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill(signal);
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 100_000);
  await s.exited;
  clearTimeout(timer);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `fn` against a fresh server (started with `opts`), then stops it and removes its data. */
export async function withServer<T>(opts: StartOptions, fn: (srv: Server) => Promise<T>): Promise<T> {
  const srv = await startServer(opts);
  try {
    return await fn(srv);
  } finally {
    await stopServer(srv);
    if (!opts.dir) removeDir(srv.dir);
  }
}

export interface CmdResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to completion (killed after timeoutMs), feeding `input` on stdin. */
export function runCmd(
  cmd: string,
  args: readonly string[],
  opts: { input?: string; timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CmdResult> {
  return new Promise((ok) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      ok({ code: -1, stdout, stderr: stderr + String(err) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}
