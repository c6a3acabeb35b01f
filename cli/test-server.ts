/**
 * A real Strata server for end-to-end tests (imported only by *.test.ts): configuration through
 * loadConfig (SERVICE__ environment form), the engine opened in a fresh temp directory by
 * openDeps, and startServer with the same options `strata serve` passes. No mocks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerHandle } from '../server/index.js';
import type { ServerRuntime } from '../server/index.js';
import { loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { openDeps, serverOptions, type AppDeps } from './serve.js';

export interface RealServer {
  readonly port: number;
  readonly deps: AppDeps;
  readonly handle: ServerHandle;
  readonly config: Config;
  close(): Promise<void>;
}

/** `settings` maps dotted keys (`auth.enabled`) to values, as SERVICE__AUTH__ENABLED would. */
export async function startRealServer(settings: Readonly<Record<string, string | number | boolean>> = {}, runtime: ServerRuntime = {}): Promise<RealServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-e2e-'));
  const env: Record<string, string> = {
    SERVICE__SERVER__BIND_ADDRESS: '127.0.0.1',
    SERVICE__SERVER__PORT: '0',
    SERVICE__STORAGE__WAL_DIR: join(dir, 'wal'),
    SERVICE__STORAGE__META_DIR: join(dir, 'meta'),
    SERVICE__CHDB__SESSION_DATA_PATH: join(dir, 'data'),
    SERVICE__LOGGING__LEVEL: 'error',
  };
  for (const [key, value] of Object.entries(settings)) env[`SERVICE__${key.toUpperCase().replaceAll('.', '__')}`] = String(value);
  const { config } = loadConfig({ getenv: () => env, readFile: () => undefined });
  const log = createLogger(config.logging, { write: () => true });
  const deps = await openDeps(config, log).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  let handle: ServerHandle;
  try {
    handle = await startServer(deps, serverOptions(config), log, runtime);
  } catch (err) {
    await deps.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port: handle.port,
    deps,
    handle,
    config,
    async close() {
      await handle.close({ drainTimeoutMs: 2000 });
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const basic = (u: string, p: string): Record<string, string> => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
export const token = (u: string, p: string): Record<string, string> => ({ Authorization: `Token ${u}:${p}` });

export interface Call {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One request on its own connection (no agent), body read completely. */
export function call(srv: { readonly port: number }, c: Call): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: srv.port, method: c.method ?? 'GET', path: c.path, headers: c.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

/** `/query?q=...[&db=...]` */
export function q(text: string, db = ''): string {
  return `/query?q=${encodeURIComponent(text)}${db ? `&db=${db}` : ''}`;
}

export function errorOf(res: TestResponse): string | undefined {
  return (JSON.parse(res.text) as { error?: string }).error;
}

/** Run `text` as the seeded admin; every statement must succeed. */
export async function asAdmin(srv: RealServer, text: string): Promise<{ results: { series?: { values?: unknown[][] }[] }[] }> {
  const res = await call(srv, { method: 'POST', path: q(text), headers: basic('admin', 'admin-pw') });
  assert.equal(res.status, 200, res.text);
  const body = JSON.parse(res.text) as { results: { error?: string; series?: { values?: unknown[][] }[] }[] };
  for (const r of body.results) assert.equal(r.error, undefined, `${text}: ${r.error}`);
  return body;
}

/**
 * Bootstrap the first admin (admin/admin-pw) unauthenticated, then: databases db and other;
 * users writer (WRITE on db), reader (READ on db), allp (ALL on db), nobody (no grant).
 */
export async function seed(srv: RealServer): Promise<void> {
  const boot = await call(srv, { method: 'POST', path: q("CREATE USER admin WITH PASSWORD 'admin-pw' WITH ALL PRIVILEGES") });
  assert.equal(boot.status, 200, boot.text);
  await asAdmin(srv, 'CREATE DATABASE db; CREATE DATABASE other');
  await asAdmin(srv, "CREATE USER writer WITH PASSWORD 'w-pw'; GRANT WRITE ON db TO writer");
  await asAdmin(srv, "CREATE USER reader WITH PASSWORD 'r-pw'; GRANT READ ON db TO reader");
  await asAdmin(srv, "CREATE USER allp WITH PASSWORD 'a-pw'; GRANT ALL ON db TO allp");
  await asAdmin(srv, "CREATE USER nobody WITH PASSWORD 'n-pw'");
}
