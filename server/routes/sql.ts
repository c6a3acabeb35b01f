/**
 * POST /api/v1/chdb and POST /api/v1/sql (spec "POST /api/v1/chdb", decisions.md `/api/v1/chdb`):
 * a read-only SQL SELECT subset over one measurement of `db` (ql/sql/plan.ts), planned onto the
 * TimeseriesQL executor.
 *
 * Request: `db` (required) and optional `epoch` / `rp` in the query string; the SQL under `q` in a
 * form body (`application/x-www-form-urlencoded`), a JSON body `{"q": "..."}` or the query
 * string. Response 200 `{"columns": ["time", "host", "count(usage)"], "rows": [[...], ...]}`:
 * integers exact (int64), times RFC 3339 (UTC, ns precision) or integers in the `epoch` unit.
 * Errors `{"error": "..."}`: 400 (no `db`, no `q`, not a single SELECT, SQL not translatable,
 * statement errors), 404 (database not found), 408 (server.query_timeout_secs).
 * [auth] Admin-only: the gate answers 401/403 before the body is used.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { StrataError } from '../../engine/index.js';
import { loadSqlParser, parseSql, planSql, QueryKilledError, TooManyQueriesError, schemaFromResults, schemaStatements, shapeRows, type Cell, type Statement, type StatementResult } from '../../ql/index.js';
import { queryUser, type Access } from '../auth/gate.js';
import { BadRequestError } from '../errors.js';
import { readBody } from '../http/body.js';
import { sendError } from '../http/errors.js';
import { parseQuery } from '../http/query.js';
import { formatTimeNs, parseEpoch, type Epoch } from '../format/epoch.js';
import { stringify } from '../format/json.js';
import type { RouteContext } from './context.js';
import { errorStatus, queryMeter } from '../metrics/http.js'; // [ops] counted as queries

class SqlTimeoutError extends StrataError {
  constructor() {
    super('query_timeout', 408, 'query timeout');
  }
}

class DatabaseMissingError extends StrataError {
  constructor(db: string) {
    super('database_not_found', 404, `database not found: ${db}`);
  }
}

/** `q` from a form body, a JSON body `{"q": ...}`, or the query string. */
function sqlText(contentType: string, bytes: Uint8Array, url: ReadonlyMap<string, string>): string {
  const text = Buffer.from(bytes).toString('utf8');
  let q: string | undefined;
  if (/application\/json/i.test(contentType) || (!/x-www-form-urlencoded/i.test(contentType) && text.trimStart().startsWith('{'))) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new BadRequestError('invalid JSON body: expected {"q": "SELECT ..."}');
    }
    const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)['q'] : undefined;
    if (v !== undefined && typeof v !== 'string') throw new BadRequestError('"q" must be a string');
    q = v;
  } else if (text.length > 0) {
    q = new URLSearchParams(text).get('q') ?? undefined;
  }
  q ??= url.get('q');
  if (q === undefined || q.trim() === '') throw new BadRequestError('missing required parameter "q"');
  return q;
}

function jsonCells(row: readonly Cell[], timeColumns: ReadonlySet<number>, epoch: Epoch | undefined): (Cell | string)[] {
  return row.map((c, i) => {
    if (timeColumns.has(i) && typeof c === 'bigint') return formatTimeNs(c, epoch);
    if (typeof c === 'number' && !Number.isFinite(c)) return null;
    return c;
  });
}

export function registerSqlRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const handle = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    const meter = queryMeter(ctx.metrics);
    reply.onAbort(() => meter.done(undefined));
    const fail = (err: unknown): void => {
      meter.done(reply.aborted ? undefined : errorStatus(err));
      sendError(reply, err, ctx.log);
    };
    const url = parseQuery(req.getQuery());
    const contentType = req.getHeader('content-type');
    let access: Promise<Access>;
    try {
      access = ctx.gate.check(req); // [auth] 429 now; 401/403 once awaited
    } catch (err) {
      fail(err);
      return;
    }
    const body = readBody(reply, { maxBytes: ctx.options.server.max_body_size_bytes, gzip: false, timeoutMs: ctx.options.server.request_timeout_secs * 1000 });
    body.catch(() => {}); // not awaited when access is denied
    void (async () => {
      try {
        const granted = await access;
        const bytes = await body;
        const db = url.get('db') ?? '';
        if (db === '') throw new BadRequestError('database is required');
        const epoch = parseEpoch(url.get('epoch'));
        if (epoch === 'invalid') throw new BadRequestError(`invalid epoch "${url.get('epoch')}"`);
        const sql = sqlText(contentType, bytes, url);
        await loadSqlParser();
        const parsed = parseSql(sql);
        if (!ctx.deps.databaseExists(db)) throw new DatabaseMissingError(db);
        const run = runner(ctx, reply, { db, rp: url.get('rp') ?? '', user: queryUser(granted), text: sql });
        const plan = planSql(parsed, schemaFromResults(await run(schemaStatements(parsed.measurement))));
        const results = plan.statement ? await run([plan.statement]) : [];
        const out = shapeRows(plan, results[0]);
        const times = new Set(out.timeColumns);
        const rows = out.rows.map((r) => jsonCells(r, times, epoch));
        meter.done(200);
        reply.send(200, stringify({ columns: [...out.columns], rows }, url.get('pretty') === 'true') + '\n', 'application/json');
      } catch (err) {
        fail(err);
      }
    })();
  };
  app.post('/api/v1/chdb', handle).post('/api/v1/sql', handle);
}

/** SQL answers are never 200-with-an-error: the registry's 1.x statuses become HTTP ones. */
class SqlInterruptedError extends StrataError {
  constructor(status: number, message: string) {
    super('sql_interrupted', status, message);
  }
}

/**
 * Run statements through ServerDeps.query, registered as a running query (SHOW QUERIES lists the
 * SQL text, KILL QUERY stops it: 400 `query interrupted`; server.max_concurrent_queries: 503),
 * bounded by server.query_timeout_secs (408) and the client's presence.
 */
function runner(ctx: RouteContext, reply: Parameters<typeof sendError>[0], o: { db: string; rp: string; user: ReturnType<typeof queryUser>; text: string }) {
  const { db, rp, user } = o;
  return async (statements: Statement[]): Promise<StatementResult[]> => {
    const controller = new AbortController();
    let id: number;
    try {
      id = ctx.queries.attach(o.text, db, controller);
    } catch (err) {
      if (err instanceof TooManyQueriesError) throw new SqlInterruptedError(503, err.message);
      throw err;
    }
    reply.onAbort(() => controller.abort(new StrataError('client_gone', 499, 'client went away')));
    const timeoutMs = ctx.options.server.query_timeout_secs * 1000;
    const timer = timeoutMs > 0 ? setTimeout(() => controller.abort(new SqlTimeoutError()), timeoutMs) : undefined;
    try {
      let running: Promise<StatementResult[]>;
      try {
        running = ctx.deps.query({ statements, db, rp, signal: controller.signal, user });
      } catch (err) {
        ctx.queries.detach(id);
        throw err;
      }
      const aborted = new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(controller.signal.reason);
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => {});
      void running.then(
        () => ctx.queries.detach(id),
        () => ctx.queries.detach(id),
      );
      return await Promise.race([running, aborted]);
    } catch (err) {
      if (err instanceof QueryKilledError) throw new SqlInterruptedError(400, err.message);
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
    }
  };
}
