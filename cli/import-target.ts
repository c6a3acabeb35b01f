/**
 * Where `strata import` sends its statements and batches: a running server over HTTP
 * (`/query` for DDL, `/write` for lines), or the engine opened directly on a data directory
 * (server stopped; same code paths as the server's handlers).
 */
import { Engine, nowTime, type Precision } from '../engine/index.js';
import { ToolUsageError } from './tool-errors.js';
import { executeMetaStatement, executeStatements, hashPasswordArgon2id, parseQuery } from '../ql/index.js';

export interface WriteOutcome {
  /** Lines the server or engine refused (a partial write counts its dropped lines). */
  readonly failed: number;
  readonly error?: string;
}

export interface ImportTarget {
  /** Run one DDL statement; resolves with its error text, if any. */
  ddl(statement: string): Promise<string | undefined>;
  write(db: string, rp: string | undefined, precision: Precision, lines: readonly string[]): Promise<WriteOutcome>;
  close(): Promise<void>;
}

/** Influx `precision` parameter spelling of an engine precision. */
const WIRE: Record<Precision, string> = { ns: 'ns', us: 'u', ms: 'ms', s: 's', m: 'm', h: 'h' };

function droppedOf(message: string, lines: number): number {
  const m = /dropped=(\d+)/.exec(message);
  return m ? Number(m[1]) : lines;
}

/** fetch, with "server not reachable" turned into a one-line usage error. */
async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    throw new ToolUsageError(`cannot reach the server at ${new URL(url).origin}: ${cause}`);
  }
}

export function httpTarget(host: string, auth: { username?: string | undefined; password?: string | undefined }): ImportTarget {
  const base = host.replace(/\/+$/, '');
  const headers: Record<string, string> = {};
  if (auth.username !== undefined) headers['Authorization'] = 'Basic ' + Buffer.from(`${auth.username}:${auth.password ?? ''}`).toString('base64');
  return {
    async ddl(statement) {
      const res = await call(`${base}/query`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ q: statement }).toString(),
      });
      const body = (await res.json().catch(() => ({}))) as { error?: string; results?: { error?: string }[] };
      return body.error ?? body.results?.[0]?.error ?? (res.ok ? undefined : `HTTP ${res.status}`);
    },
    async write(db, rp, precision, lines) {
      const q = new URLSearchParams({ db, precision: WIRE[precision] });
      if (rp !== undefined) q.set('rp', rp);
      const res = await call(`${base}/write?${q.toString()}`, { method: 'POST', headers, body: lines.join('\n') });
      if (res.status === 204) return { failed: 0 };
      const text = await res.text();
      let error = text;
      try {
        error = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: keep the text
      }
      return { failed: res.status < 500 ? droppedOf(error, lines.length) : lines.length, error: `HTTP ${res.status}: ${error}` };
    },
    close: () => Promise.resolve(),
  };
}

export function engineTarget(engine: Engine): ImportTarget {
  const nowNs = () => {
    const t = nowTime();
    return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec);
  };
  return {
    async ddl(statement) {
      try {
        const results = await executeStatements(
          parseQuery(statement),
          { engine, database: '', retentionPolicy: '', nowNs: nowNs(), hashPassword: hashPasswordArgon2id },
          executeMetaStatement,
        );
        return results.find((r) => r.error !== undefined)?.error;
      } catch (err) {
        return (err as Error).message;
      }
    },
    async write(db, rp, precision, lines) {
      try {
        await engine.write({ db, ...(rp !== undefined && { rp }), precision, body: Buffer.from(lines.join('\n'), 'utf8') });
        return { failed: 0 };
      } catch (err) {
        const message = (err as Error).message;
        return { failed: droppedOf(message, lines.length), error: message };
      }
    },
    close: () => engine.close(),
  };
}
