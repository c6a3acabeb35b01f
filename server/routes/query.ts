/**
 * GET|POST /query (spec "GET or POST /query", decisions.md, clients.md items 5, 9, 13-18):
 * `q` required; form bodies override query-string parameters (except `pretty`, read from the
 * URL as 1.x does); `db`/`rp` defaults; `epoch`; `params` for bind parameters; `chunked` +
 * `chunk_size`; `Accept: text/csv|application/csv`. Parse errors are 400 before anything
 * runs; statement errors are 200 with the error in that statement's result. The whole
 * execution is bounded by server.query_timeout_secs (408).
 * [auth] Order: rate limit (429), authentication (401/bootstrap 403), parse (400), statement
 * authorization (403 `error authorizing query: ...`), database check (404), then the batch is
 * registered as a running query (SHOW QUERIES / KILL QUERY, server.max_concurrent_queries) and
 * runs with the user in QueryContext.user.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { DatabaseNotFoundError, StrataError } from '../../engine/index.js';
import { eventLoopTurned, ParseCache, parseParams, printQuery, QueryKilledError, QueryStop, statementTimeZone, TooManyQueriesError, type Statement, type StatementResult } from '../../ql/index.js';
import type { QueryRunRequest } from '../deps.js';
import type { Reply } from '../http/respond.js';
import { authorizeQuery, queryUser, type Access } from '../auth/gate.js';
import { BadRequestError } from '../errors.js';
import { readBody } from '../http/body.js';
import { sendError } from '../http/errors.js';
import { QueryStringCache } from '../http/query-cache.js';
import { Deadlines } from '../http/deadlines.js';
import { parseChunkSize } from '../http/chunk-size.js';
import { StatementChunkWriter } from '../format/chunk-writer.js';
import { notExecutedChunks } from '../format/not-executed.js';
import { mergeResults } from '../format/merge-results.js';
import { STREAM_AFTER_CELLS, UnchunkedAnswer } from '../format/unchunked-answer.js';
import { chunkStyleOf } from '../format/chunk-style.js';
import { CsvDocument, errorCsv, resultsToCsv } from '../format/csv.js';
import { JsonDocument } from '../format/json-document.js';
import { PrettyJsonDocument } from '../format/pretty-json-document.js';
import { parseEpoch, type Epoch } from '../format/epoch.js';
import { errorJson, resultsToJson } from '../format/json.js';
import { methodNotAllowed, type RouteContext } from './context.js';
import { errorStatus, queryMeter } from '../metrics/http.js'; // [ops]
import { StatementClock } from '../statements/clock.js'; // [ops]
import { shapeableText, statementText } from '../statements/statement-text.js'; // [ops]
import { readOnlyWarnings, type WarningLookup } from '../statements/read-only-warning.js';

/**
 * Statements that never read the request's `db`: a missing `db` must not turn them into a 404
 * (python3-influxdb sends its default database on SHOW DATABASES / user management, so
 * `get_list_database()` failed before that database was created; 1.x runs them).
 */
const DB_INDEPENDENT_KINDS = new Set(['ShowDatabases', 'CreateUser', 'DropUser', 'SetPassword', 'ShowUsers', 'Grant', 'Revoke', 'ShowGrants']);

/**
 * 1.x answers CSV only when the Accept header is exactly one of these (its response writer
 * switches on the whole value): a list, a parameter or another case gets JSON.
 */
function wantsCsv(accept: string): boolean {
  return accept === 'application/csv' || accept === 'text/csv';
}

class QueryTimeoutError extends StrataError {
  constructor() {
    super('query_timeout', 408, 'query timeout');
  }
}

/** The result with its statement's deprecation warning, if any. */
function withWarning(r: StatementResult, warnings: WarningLookup | undefined): StatementResult {
  const w = warnings?.get(r.statementId);
  return w && !r.error ? { ...r, messages: [...(r.messages ?? []), { level: 'warning', text: w }] } : r;
}

/** Whether the batch needs the request's database to exist (a loop, not two closures per request). */
function needsDatabase(stmts: readonly Statement[]): boolean {
  let uses = false;
  for (const s of stmts) {
    if (s.kind === 'CreateDatabase' || s.kind === 'DropDatabase') return false;
    if (!DB_INDEPENDENT_KINDS.has(s.kind)) uses = true;
  }
  return uses;
}

/** server.query_timeout_secs of every running /query batch. */
const deadlines = new Deadlines();
/** Leading and trailing runs of Go's unicode.IsSpace characters. */
const GO_SPACE_EDGES = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** `strings.TrimSpace`; the regex (which scans the whole text for its trailing run) only when an end is not plain ASCII text. */
function goTrimSpace(q: string | undefined): string | undefined {
  if (q === undefined || q === '') return q;
  const first = q.charCodeAt(0);
  const last = q.charCodeAt(q.length - 1);
  if (first > 32 && first < 127 && last > 32 && last < 127) return q;
  return q.replace(GO_SPACE_EDGES, '');
}

/** The query-string parameters with a form body's on top. */
function withForm(url: ReadonlyMap<string, string>, body: Uint8Array): Map<string, string> {
  const params = new Map(url);
  for (const [k, v] of new URLSearchParams(Buffer.from(body).toString('utf8'))) params.set(k, v);
  return params;
}

const NO_BODY = new Uint8Array(0);

/** Distinct query texts whose statements are kept parsed (ql/parser/parse-cache.ts). */
const PARSED_TEXTS = 512;

export function registerQueryRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const parses = new ParseCache(PARSED_TEXTS);
  const queryStrings = new QueryStringCache(PARSED_TEXTS);
  const handle = (res: HttpResponse, req: HttpRequest): void => {
    eventLoopTurned(); // uWS calls handlers from the loop: no need to yield at the first checkpoint
    const reply = ctx.begin(res, req);
    const meter = queryMeter(ctx.metrics); // [ops]
    reply.onAbort(() => meter.done(undefined));
    const method = req.getMethod().toUpperCase();
    const url = queryStrings.parse(req.getQuery());
    const csv = wantsCsv(req.getHeader('accept'));
    const isForm = method === 'POST' && /application\/x-www-form-urlencoded/i.test(req.getHeader('content-type'));
    const fail = (err: unknown, pretty: boolean) => {
      meter.done(reply.aborted ? undefined : errorStatus(err));
      if (csv && err instanceof StrataError) reply.failure(err.status, err.message, errorCsv(err.message), 'text/csv');
      else if (err instanceof StrataError && !(err instanceof DatabaseNotFoundError)) reply.failure(err.status, err.message, errorJson(err.message, pretty), 'application/json');
      else sendError(reply, err, ctx.log);
    };
    let access: Access | Promise<Access>;
    try {
      access = ctx.gate.checkNow(req); // [auth] 429 now; 401/403 once awaited
    } catch (err) {
      fail(err, url.get('pretty') === 'true');
      return;
    }
    // GET has no body to read: no promise to make and await.
    const body =
      method === 'POST'
        ? readBody(reply, { maxBytes: ctx.options.server.max_body_size_bytes, gzip: false, timeoutMs: ctx.options.server.request_timeout_secs * 1000 })
        : undefined;
    body?.catch(() => {}); // [auth] not awaited when access is denied
    void (async () => {
      const pretty = url.get('pretty') === 'true';
      let granted: Access | undefined;
      try {
        granted = access instanceof Promise ? await access : access;
        const bytes = body === undefined ? NO_BODY : await body;
        // The query string's map is shared (QueryStringCache): copied only when a form overrides it.
        const params = isForm && bytes.length > 0 ? withForm(url, bytes) : url;
        // 1.x reads `strings.TrimSpace(q)`: parse errors count lines and chars from the first non-space.
        const q = goTrimSpace(params.get('q'));
        if (q === undefined || q === '') throw new BadRequestError('missing required parameter "q"');
        const epoch = parseEpoch(params.get('epoch'));
        if (epoch === 'invalid') throw new BadRequestError(`invalid epoch "${params.get('epoch')}"`);
        let bind;
        const paramsText = params.get('params');
        if (paramsText) {
          try {
            bind = parseParams(paramsText);
          } catch (err) {
            throw new BadRequestError((err as Error).message); // parseParams' texts carry 1.x's prefix
          }
        }
        let statements: Statement[];
        try {
          statements = parses.parse(q, bind);
        } catch (err) {
          ctx.statements.record({ text: q, durationMs: 0, error: (err as Error).message, at: Date.now() }); // [ops]
          throw err;
        }
        const db = params.get('db') ?? '';
        authorizeQuery(granted, statements, db); // [auth] 403 before the database is looked up
        if (db !== '' && needsDatabase(statements) && !ctx.deps.databaseExists(db)) {
          meter.done(404); // [ops]
          const message = `database not found: ${db}`;
          reply.failure(404, message, errorJson(message, pretty), 'application/json');
          return;
        }
        const run = { statements, db, rp: params.get('rp') ?? '', user: queryUser(granted) }; // [auth]
        const chunked = params.get('chunked') === 'true' && !csv;
        const chunkSize = parseChunkSize(params.get('chunk_size'));
        const warnings = method === 'GET' ? readOnlyWarnings(statements, { db, rp: run.rp, defaultRp: (d) => ctx.deps.defaultRetentionPolicy(d) }) : undefined;
        if (chunked) {
          await streamChunked(reply, ctx, { run, epoch, pretty, chunkSize, warnings });
          meter.done(200);
          return;
        }
        let results: StatementResult[];
        // [ops] per-statement summaries, recorded after the answer is sent
        const clock = ctx.statements.enabled ? new StatementClock(statements, statementText, shapeableText(q, bind !== undefined, statements)) : new StatementClock([], statementText);
        // JSON (compact or pretty) and CSV stream once they are large.
        const answer = unchunkedAnswer(reply, csv, pretty, epoch, statements);
        try {
          results = await runRegistered(ctx, { ...run, sinkFor: answer.sinkFor }, reply, (r) => {
            clock.result(r);
            return answer.finish(withWarning(r, warnings));
          });
        } catch (err) {
          // [auth] 1.x answers these 200, with the error on the statement that could not run.
          if (err instanceof Interrupted) {
            results = err.results;
            const last = answer.finish(results[results.length - 1]!);
            if (last) await last;
          } else {
            answer.cut();
            clock.abandon((err as Error).message ?? String(err), ctx.statements);
            throw err;
          }
        }
        try {
          let buffered: StatementResult[] | Promise<undefined> | undefined = answer.end(statements.length);
          if (buffered instanceof Promise) buffered = await buffered;
          if (buffered) respond(reply, mergeResults(buffered, statements.length), { csv, epoch, pretty });
        } finally {
          // [ops] Bookkeeping after the answer is on its way (same tick: the next request sees it).
          clock.finish(results, ctx.statements);
          if (results.some((r) => r.error !== undefined)) meter.statementFailed();
        }
        meter.done(200);
      } catch (err) {
        fail(err, pretty);
      } finally {
        if (granted?.kind === 'bootstrap') granted.release(); // [auth]
      }
    })();
  };
  app
    .get('/query', handle)
    .post('/query', handle)
    .options('/query', (res, req) => ctx.begin(res, req).empty(200)) // CORS preflight, as 1.x
    .any('/query', (res, req) => methodNotAllowed(ctx.begin(res, req), 'OPTIONS, GET, POST'));
}

/** [auth] The batch ended early: too many concurrent queries, or KILL QUERY; `results` are 1.x's answer. */
class Interrupted extends Error {
  constructor(readonly results: StatementResult[]) {
    super('interrupted');
  }
}

/**
 * [auth] Run the batch registered in the running-query registry (SHOW QUERIES / KILL QUERY),
 * bounded by server.query_timeout_secs (408) and aborted when the client goes away. The
 * registry entry is removed only when the executor has really stopped. `early`: settle as soon
 * as the signal fires (a buffered answer can be sent at once); otherwise wait for the executor
 * (a chunked answer must not be ended while the executor may still write to it).
 */
async function runRegistered(
  ctx: RouteContext,
  req: Omit<QueryRunRequest, 'signal'>,
  reply: Reply,
  onResult: (r: StatementResult) => void | Promise<void>,
  early = true,
): Promise<StatementResult[]> {
  const stop = new QueryStop();
  let id: number;
  try {
    id = ctx.queries.attach(() => printQuery(req.statements, { redactPasswords: true }), req.db, stop);
  } catch (err) {
    if (err instanceof TooManyQueriesError) throw new Interrupted([{ statementId: 0, error: err.message }]);
    throw err;
  }
  reply.onAbort(() => stop.abort(new StrataError('client_gone', 499, 'client went away')));
  const timeoutMs = ctx.options.server.query_timeout_secs * 1000;
  const timer = timeoutMs > 0 ? deadlines.add(timeoutMs, () => stop.abort(new QueryTimeoutError())) : undefined;
  const done: StatementResult[] = [];
  let running: Promise<StatementResult[]>;
  try {
    running = ctx.deps.query({ ...req, signal: stop }, (r) => {
      done.push(r);
      return onResult(r);
    });
  } catch (err) {
    if (timer) deadlines.remove(timer);
    ctx.queries.detach(id);
    throw err;
  }
  const detach = () => ctx.queries.detach(id);
  try {
    if (!early) {
      void running.then(detach, detach);
      return await running;
    }
    // A buffered answer settles as soon as the query is stopped, without waiting for the
    // executor; the registry entry goes when the executor has stopped (one reaction for both).
    return await new Promise<StatementResult[]>((resolve, reject) => {
      running.then(
        (results) => {
          detach();
          resolve(results);
        },
        (err: unknown) => {
          detach();
          reject(err);
        },
      );
      stop.onStop(reject);
    });
  } catch (err) {
    if (err instanceof QueryKilledError) throw new Interrupted([...done, { statementId: done.length, error: err.message }]);
    throw err;
  } finally {
    if (timer) deadlines.remove(timer);
  }
}

function unchunkedAnswer(reply: Reply, csv: boolean, pretty: boolean, epoch: Epoch | undefined, statements: readonly Statement[]): UnchunkedAnswer {
  const zoneOf = (id: number) => statementTimeZone(statements[id]);
  return new UnchunkedAnswer({
    document: () => (csv ? new CsvDocument(epoch) : pretty ? new PrettyJsonDocument(epoch, zoneOf) : new JsonDocument(epoch, zoneOf)),
    streamAfterCells: STREAM_AFTER_CELLS,
    open: () => reply.stream(200, csv ? 'text/csv' : 'application/json'),
  });
}

/** chunked=true: stream each statement's series as 1.x chunk lines while the scan runs. */
async function streamChunked(
  reply: Reply,
  ctx: RouteContext,
  o: {
    run: Omit<QueryRunRequest, 'signal' | 'sinkFor'>;
    epoch: Epoch | undefined;
    pretty: boolean;
    chunkSize: number;
    warnings: WarningLookup | undefined;
  },
): Promise<void> {
  const out = reply.stream(200, 'application/json');
  const writers = new Map<number, StatementChunkWriter>();
  const writerFor = (id: number) => {
    let w = writers.get(id);
    if (!w) {
      const st = o.run.statements[id];
      writers.set(id, (w = new StatementChunkWriter(id, o.chunkSize, { epoch: o.epoch, pretty: o.pretty }, out.write, chunkStyleOf(st), statementTimeZone(st))));
    }
    return w;
  };
  // the failing statement's place in the batch (its result may say statement 0: RewriteError);
  // only the last result's error ended the batch (a refused SHOW condition does not: executor.ts)
  let finished = 0;
  let failedId: number | undefined;
  const finish = (r: StatementResult) => {
    failedId = r.error !== undefined ? finished : undefined;
    finished++;
    return writerFor(r.statementId).finish(withWarning(r, o.warnings));
  };
  try {
    await runRegistered(ctx, { ...o.run, sinkFor: writerFor }, reply, finish, false);
    if (failedId !== undefined) for (const line of notExecutedChunks(failedId, o.run.statements.length, { epoch: o.epoch, pretty: o.pretty })) await out.write(line);
  } catch (err) {
    const last = err instanceof Interrupted ? err.results[err.results.length - 1] : undefined;
    if (last) await finish(last); // [auth] killed or over max_concurrent_queries: that statement's error
    else await out.write(errorJson(err instanceof Error ? err.message : String(err)));
  } finally {
    out.end();
  }
}

function respond(
  reply: Reply,
  results: StatementResult[],
  o: { csv: boolean; epoch: Epoch | undefined; pretty: boolean },
): void {
  if (o.csv) {
    reply.send(200, resultsToCsv(results, o.epoch), 'text/csv');
    return;
  }
  reply.send(200, resultsToJson(results, { epoch: o.epoch, pretty: o.pretty }), 'application/json');
}
