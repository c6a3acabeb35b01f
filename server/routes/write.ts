/**
 * POST /write (spec "POST /write", decisions.md). Steps, in the spec's order:
 * 1. parameters: `db` required (400 `database is required`), `precision` (400 on an unknown
 *    unit), `rp` optional (empty = default policy); `u`/`p` are left to the auth layer;
 * 2. the body, gunzipped when `Content-Encoding: gzip`, capped at server.max_body_size_bytes
 *    before and after decompression (413); a corrupt gzip body is a 400 with Go's gzip text,
 *    after the database check; an invalid `consistency` is 1.x's 400 (http/consistency.ts);
 * 3. the engine (ServerDeps.write): database check, parse, field types, cardinality, WAL
 *    append + fsync. It resolves → 204; its typed rejections map through http/errors.ts.
 * The body's Content-Type is ignored: clients send none, octet-stream or even form encoding.
 * While the server or engine is stopping writes get 503; in read-only disk mode 507.
 * [auth] Before all of it: the rate limit (429) and authentication (401, bootstrap 403); after
 * the parameters: the WRITE grant on `db` (403 `"u" user is not authorized to write to
 * database "db"`, checked before the database's existence so it is not revealed).
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { BufferRecycler, DatabaseNotFoundError, ReadOnlyError, StrataError } from '../../engine/index.js';
import type { Precision } from '../deps.js';
import { BadRequestError, ServerStoppingError } from '../errors.js';
import { declaredLength, isGzip, readBody } from '../http/body.js';
import { sendError } from '../http/errors.js';
import { parsePrecision } from '../http/precision.js';
import { consistencyError, validConsistency } from '../http/consistency.js';
import { parseQuery } from '../http/query.js';
import { methodNotAllowed, type RouteContext } from './context.js';
import { authorizeWrite, type Access } from '../auth/gate.js';
import { errorStatus, pointsRefused, pointsWritten, storedDespite, writeMeter } from '../metrics/http.js'; // [ops]

interface WriteParams {
  readonly db: string;
  readonly rp: string | undefined;
  readonly precision: Precision;
  /** `consistency` names none of 1.x's levels: refused once the body is read (consistency.ts). */
  readonly badConsistency: boolean;
}

function checkParams(ctx: RouteContext, req: HttpRequest): WriteParams {
  if (ctx.stopping() || ctx.deps.state.stopping) throw new ServerStoppingError();
  const params = parseQuery(req.getQuery());
  const db = params.get('db') ?? '';
  if (db === '') throw new BadRequestError('database is required');
  const precision = parsePrecision(params.get('precision'));
  if (ctx.deps.state.readOnly) throw new ReadOnlyError();
  return { db, rp: params.get('rp') || undefined, precision, badConsistency: !validConsistency(params.get('consistency')) };
}

/**
 * The checks 1.x makes between reading the body and writing it, in its order: the database
 * exists (also before a corrupt gzip body's error), then the consistency level.
 */
function checkBeforeWrite(ctx: RouteContext, params: WriteParams, bytes: Uint8Array): void {
  if (!params.badConsistency) return;
  if (!ctx.deps.databaseExists(params.db)) throw new DatabaseNotFoundError(params.db);
  const err = consistencyError(bytes, params.precision);
  if (err) throw err;
}

/** A body that could not be read names a missing database first, as 1.x checks it before gunzipping. */
async function readOrMissingDatabase(ctx: RouteContext, db: string, body: Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await body;
  } catch (err) {
    if (err instanceof BadRequestError && !ctx.deps.databaseExists(db)) throw new DatabaseNotFoundError(db);
    throw err;
  }
}

/** /write names the missing database in quotes, as 1.x does (decisions.md "missing database"). */
function writeError(err: unknown): unknown {
  if (err instanceof DatabaseNotFoundError) {
    return new StrataError(err.code, err.status, `database not found: ${JSON.stringify(err.database)}`);
  }
  return err;
}

export function registerWriteRoutes(app: TemplatedApp, ctx: RouteContext): void {
  // Large bodies reuse buffers of earlier ones (see BufferRecycler): the engine is done with a
  // body once its write settled (ServerDeps.write).
  const bodies = new BufferRecycler();
  const write = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    let access: Promise<Access>;
    const meter = writeMeter(ctx.metrics); // [ops]
    reply.onAbort(() => meter.done(undefined));
    let params: WriteParams;
    let body: Promise<Uint8Array>;
    try {
      access = ctx.gate.check(req); // [auth] 429 now; 401/403 once awaited
    } catch (err) {
      meter.done(errorStatus(err));
      sendError(reply, err, ctx.log);
      return;
    }
    try {
      params = checkParams(ctx, req);
      // Synchronously, before any await: uWS only delivers data to a handler set now.
      body = readBody(reply, {
        maxBytes: ctx.options.server.max_body_size_bytes,
        gzip: isGzip(req.getHeader('content-encoding')),
        timeoutMs: ctx.options.server.request_timeout_secs * 1000,
        declaredLength: declaredLength(req.getHeader('content-length')),
        buffers: bodies,
      });
      body.catch(() => {}); // [auth] not awaited when access is denied; the reader still settles
    } catch (err) {
      // [auth] A 401 takes precedence over a parameter error (1.x authenticates first).
      void access.then(
        () => {
          meter.done(errorStatus(err));
          sendError(reply, err, ctx.log);
        },
        (authErr: unknown) => {
          meter.done(errorStatus(authErr));
          sendError(reply, authErr, ctx.log);
        },
      );
      return;
    }
    void (async () => {
      let bytes: Uint8Array | undefined;
      try {
        authorizeWrite(await access, params.db); // [auth]
        bytes = await readOrMissingDatabase(ctx, params.db, body);
        checkBeforeWrite(ctx, params, bytes);
        ctx.metrics.writePayloadBytes.observe(bytes.byteLength); // [ops] payload size after decompression
        ctx.metrics.httpd.writeReqBytes += bytes.byteLength;
        const stored = await ctx.deps.write({ ...params, body: bytes });
        ctx.metrics.ingestionPoints.inc(stored);
        pointsWritten(ctx.metrics, stored);
        meter.done(204);
        reply.noContent();
      } catch (err) {
        ctx.metrics.ingestionPoints.inc(storedDespite(err)); // [ops] a partial write keeps its good lines
        if (bytes) pointsRefused(ctx.metrics, err);
        meter.done(reply.aborted ? undefined : errorStatus(err));
        sendError(reply, writeError(err), ctx.log);
      } finally {
        if (bytes) bodies.release(bytes);
      }
    })();
  };

  app
    .post('/write', write)
    .options('/write', (res, req) => ctx.begin(res, req).empty(200)) // CORS preflight, as 1.x
    .any('/write', (res, req) => methodNotAllowed(ctx.begin(res, req), 'OPTIONS, POST'));
}
