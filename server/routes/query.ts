/**
 * GET|POST /query (spec "GET or POST /query", decisions.md, clients.md items 5, 9, 13-18):
 * `q` required; form bodies override query-string parameters (except `pretty`, read from the
 * URL as 1.x does); `db`/`rp` defaults; `epoch`; `params` for bind parameters; `chunked` +
 * `chunk_size`; `Accept: text/csv|application/csv`. Parse errors are 400 before anything
 * runs; statement errors are 200 with the error in that statement's result. The whole
 * execution is bounded by server.query_timeout_secs (408).
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { DatabaseNotFoundError, StrataError } from '../../engine/index.js';
import { parseParams, parseQuery as parseQl, printStatement, type Statement, type StatementResult } from '../../ql/index.js';
import { BadRequestError } from '../errors.js';
import { readBody } from '../http/body.js';
import { sendError } from '../http/errors.js';
import { parseQuery } from '../http/query.js';
import { chunkLines } from '../format/chunks.js';
import { StatementChunkWriter } from '../format/chunk-writer.js';
import { errorCsv, resultsToCsv } from '../format/csv.js';
import { parseEpoch, type Epoch } from '../format/epoch.js';
import { errorJson, resultsToJson } from '../format/json.js';
import type { RouteContext } from './context.js';
import { errorStatus, queryMeter } from '../metrics/http.js'; // [ops]
import { StatementClock } from '../statements/clock.js'; // [ops]

const READ_ONLY_KINDS = new Set(['Select', 'Explain']);
/**
 * Statements that never read the request's `db`: a missing `db` must not turn them into a 404
 * (python3-influxdb sends its default database on SHOW DATABASES / user management, so
 * `get_list_database()` failed before that database was created; 1.x runs them).
 */
const DB_INDEPENDENT_KINDS = new Set(['ShowDatabases', 'CreateUser', 'DropUser', 'SetPassword', 'ShowUsers', 'Grant', 'Revoke', 'ShowGrants']);

function wantsCsv(accept: string): boolean {
  return /\b(text|application)\/csv\b/i.test(accept);
}

class QueryTimeoutError extends StrataError {
  constructor() {
    super('query_timeout', 408, 'query timeout');
  }
}

/** 1.x warns about writes sent with GET but runs them. */
function deprecationMessages(stmts: readonly Statement[], method: string): Map<number, string> {
  const out = new Map<number, string>();
  if (method !== 'GET') return out;
  stmts.forEach((s, i) => {
    const readOnly = READ_ONLY_KINDS.has(s.kind) ? !(s.kind === 'Select' && s.target) : s.kind.startsWith('Show');
    if (!readOnly) out.set(i, `deprecated use of '${printStatement(s)}' in a read only context, please use a POST request instead`);
  });
  return out;
}

export function registerQueryRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const handle = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    const meter = queryMeter(ctx.metrics); // [ops]
    reply.onAbort(() => meter.done(undefined));
    const method = req.getMethod().toUpperCase();
    const url = parseQuery(req.getQuery());
    const csv = wantsCsv(req.getHeader('accept'));
    const isForm = /application\/x-www-form-urlencoded/i.test(req.getHeader('content-type'));
    const body =
      method === 'POST'
        ? readBody(reply, { maxBytes: ctx.options.server.max_body_size_bytes, gzip: false, timeoutMs: ctx.options.server.request_timeout_secs * 1000 })
        : Promise.resolve(new Uint8Array());
    const fail = (err: unknown, pretty: boolean) => {
      meter.done(reply.aborted ? undefined : errorStatus(err));
      if (csv && err instanceof StrataError) reply.send(err.status, errorCsv(err.message), 'text/csv');
      else if (err instanceof StrataError && !(err instanceof DatabaseNotFoundError)) reply.send(err.status, errorJson(err.message, pretty), 'application/json');
      else sendError(reply, err, ctx.log);
    };
    void (async () => {
      const pretty = url.get('pretty') === 'true';
      try {
        const params = new Map(url);
        const bytes = await body;
        if (isForm && bytes.length > 0) for (const [k, v] of new URLSearchParams(Buffer.from(bytes).toString('utf8'))) params.set(k, v);
        const q = params.get('q');
        if (q === undefined || q.trim() === '') throw new BadRequestError('missing required parameter "q"');
        const epoch = parseEpoch(params.get('epoch'));
        if (epoch === 'invalid') throw new BadRequestError(`invalid epoch "${params.get('epoch')}"`);
        let bind;
        const paramsText = params.get('params');
        if (paramsText) {
          try {
            bind = parseParams(paramsText);
          } catch (err) {
            throw new BadRequestError(`error parsing query parameters: ${(err as Error).message}`);
          }
        }
        let statements: Statement[];
        try {
          statements = parseQl(q, bind);
        } catch (err) {
          ctx.statements.record({ text: q, durationMs: 0, error: (err as Error).message, at: Date.now() }); // [ops]
          throw err;
        }
        const db = params.get('db') ?? '';
        const createsDb = statements.some((s) => s.kind === 'CreateDatabase' || s.kind === 'DropDatabase');
        const usesDb = statements.some((s) => !DB_INDEPENDENT_KINDS.has(s.kind));
        if (db !== '' && !createsDb && usesDb && !ctx.deps.databaseExists(db)) {
          meter.done(404); // [ops]
          reply.send(404, errorJson(`database not found: ${db}`, pretty), 'application/json');
          return;
        }
        const controller = new AbortController();
        reply.onAbort(() => controller.abort(new StrataError('client_gone', 499, 'client went away')));
        const timeoutMs = ctx.options.server.query_timeout_secs * 1000;
        const timer = timeoutMs > 0 ? setTimeout(() => controller.abort(new QueryTimeoutError()), timeoutMs) : undefined;
        const chunked = params.get('chunked') === 'true' && !csv;
        const chunkSize = Number(params.get('chunk_size') ?? 10000) || 10000;
        const warnings = deprecationMessages(statements, method);
        if (chunked) {
          if (timer) clearTimeout(timer);
          await streamChunked(reply, ctx, { statements, db, rp: params.get('rp') ?? '', controller, timer: undefined, epoch, pretty, chunkSize, warnings, timeoutMs: ctx.options.server.query_timeout_secs * 1000 });
          meter.done(200);
          return;
        }
        let results: StatementResult[];
        const clock = new StatementClock(ctx.statements.enabled ? statements.map((s) => printStatement(s)) : []); // [ops] per-statement summaries
        try {
          const run = ctx.deps.query({ statements, db, rp: params.get('rp') ?? '', signal: controller.signal }, (r) => clock.result(r));
          const timedOut = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
          results = await Promise.race([run, timedOut]);
        } catch (err) {
          clock.abandon((err as Error).message ?? String(err), ctx.statements);
          throw err;
        } finally {
          if (timer) clearTimeout(timer);
        }
        clock.finish(results, ctx.statements);
        if (results.some((r) => r.error !== undefined)) meter.statementFailed();
        results = results.map((r) => {
          const w = warnings.get(r.statementId);
          return w && !r.error ? { ...r, messages: [...(r.messages ?? []), { level: 'warning', text: w }] } : r;
        });
        meter.done(200);
        respond(reply, results, { csv, epoch, pretty, chunked: false, chunkSize });
      } catch (err) {
        fail(err, pretty);
      }
    })();
  };
  app.get('/query', handle).post('/query', handle);
}

/** chunked=true: stream each statement's series as 1.x chunk lines while the scan runs. */
async function streamChunked(
  reply: import('../http/respond.js').Reply,
  ctx: RouteContext,
  o: {
    statements: Statement[];
    db: string;
    rp: string;
    controller: AbortController;
    timer: undefined;
    epoch: Epoch | undefined;
    pretty: boolean;
    chunkSize: number;
    warnings: Map<number, string>;
    timeoutMs: number;
  },
): Promise<void> {
  const out = reply.stream(200, 'application/json');
  const writers = new Map<number, StatementChunkWriter>();
  const writerFor = (id: number) => {
    let w = writers.get(id);
    if (!w) writers.set(id, (w = new StatementChunkWriter(id, o.chunkSize, { epoch: o.epoch, pretty: o.pretty }, out.write)));
    return w;
  };
  const timer = o.timeoutMs > 0 ? setTimeout(() => o.controller.abort(new QueryTimeoutError()), o.timeoutMs) : undefined;
  try {
    await ctx.deps.query(
      { statements: o.statements, db: o.db, rp: o.rp, signal: o.controller.signal, sinkFor: writerFor },
      (r) => {
        const w = o.warnings.get(r.statementId);
        const result = w && !r.error ? { ...r, messages: [...(r.messages ?? []), { level: 'warning', text: w }] } : r;
        return writerFor(r.statementId).finish(result);
      },
    );
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await out.write(errorJson(message));
  } finally {
    if (timer) clearTimeout(timer);
    out.end();
  }
}

function respond(
  reply: import('../http/respond.js').Reply,
  results: StatementResult[],
  o: { csv: boolean; epoch: Epoch | undefined; pretty: boolean; chunked: boolean; chunkSize: number },
): void {
  if (o.csv) {
    reply.send(200, resultsToCsv(results, o.epoch), 'text/csv');
    return;
  }
  if (o.chunked) {
    reply.send(200, chunkLines(results, o.chunkSize, { epoch: o.epoch, pretty: o.pretty }).join(''), 'application/json');
    return;
  }
  reply.send(200, resultsToJson(results, { epoch: o.epoch, pretty: o.pretty }), 'application/json');
}
