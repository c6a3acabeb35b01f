/**
 * Test helpers for the HTTP layer (imported only by *.test.ts): a recording ServerDeps and a
 * tiny node:http client that exposes status, headers and raw body bytes.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { NodeState, QueryRunRequest, ServerDeps, WriteRequest } from './deps.js';
import type { StatementResult } from '../ql/index.js';
import { startServer, type ServerHandle } from './app.js';
import { defaultServerOptions, type ServerSection } from './options.js';
import { collectingLogger } from '../engine/index.js';

/** ServerDeps that records writes and answers with whatever the test scripts. */
export class RecordingDeps implements ServerDeps {
  readonly writes: WriteRequest[] = [];
  state: NodeState = { readOnly: false, stopping: false };
  /** Called for each write after recording it; throw or reject to simulate engine outcomes. */
  onWrite: (req: WriteRequest) => Promise<void> = async () => {};
  isReady: () => Promise<boolean> = async () => true;

  /** Answers the body's points as the engine counts them: lines neither blank nor comments. */
  async write(req: WriteRequest): Promise<number> {
    const body = Buffer.from(req.body); // the server reuses body buffers
    this.writes.push({ ...req, body });
    await this.onWrite(req);
    return body
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).length;
  }
  ready(): Promise<boolean> {
    return this.isReady();
  }
  /** Scripted query answers (HTTP-layer tests only). */
  onQuery: (req: QueryRunRequest) => Promise<StatementResult[]> = async (req) => req.statements.map((_, i) => ({ statementId: i }));
  /** Hands each result to `onResult` as well, as ServerDeps' contract asks (the route builds its answer from them). */
  async query(req: QueryRunRequest, onResult?: (r: StatementResult) => void | Promise<void>): Promise<StatementResult[]> {
    const results = await this.onQuery(req);
    for (const r of results) await onResult?.(r);
    return results;
  }
  databases = new Set<string>();
  databaseExists(name: string): boolean {
    return this.databases.has(name);
  }
  defaultRetentionPolicy(name: string): string {
    return this.databases.has(name) ? 'autogen' : '';
  }
}

export interface TestServer {
  readonly deps: RecordingDeps;
  readonly handle: ServerHandle;
  readonly port: number;
  readonly log: ReturnType<typeof collectingLogger>;
  close(): Promise<void>;
}

export async function startTestServer(server: Partial<ServerSection> = {}): Promise<TestServer> {
  const deps = new RecordingDeps();
  const log = collectingLogger();
  const options = defaultServerOptions({ server: { bind_address: '127.0.0.1', port: 0, ...server } });
  const handle = await startServer(deps, options, log);
  return { deps, handle, port: handle.port, log, close: () => handle.close({ drainTimeoutMs: 1000 }) };
}

export interface TestResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

export function request(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array },
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
