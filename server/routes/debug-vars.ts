/**
 * GET /debug/vars: 1.x's expvar document, which Telegraf's `inputs.influxdb` plugin and 1.x
 * monitoring scripts read. Its shape is 1.x's: `system` (currentTime, started, uptime),
 * `cmdline`, `memstats` (Go's field names, filled where Node measures the same thing), and one
 * `{"name", "tags", "values"}` point per SHOW STATS series, keyed as 1.x keys them
 * (`database:<db>`, `shard:<path>:<id>`, `httpd:<bind>`). The points are SHOW STATS's numbers, the
 * statement run through the executor. The route is public like /metrics (auth/routes.ts: an
 * unlisted path), as 1.6.7 serves it without credentials and Telegraf sends none.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { parseQuery, QueryStop, type StatementResult } from '../../ql/index.js';
import { authorizeQuery, queryUser, type Access } from '../auth/gate.js';
import { guarded } from '../auth/fallback.js';
import { sendError } from '../http/errors.js';
import { stringify, type J } from '../format/json.js';
import { methodNotAllowed, type RouteContext } from './context.js';

const SHOW_STATS = parseQuery('SHOW STATS');
const STARTED = new Date();

/** Go's runtime.MemStats names for what Node reports (the others are Go-only and left out). */
function memstats(): Record<string, number> {
  const mem = process.memoryUsage();
  return { Alloc: mem.heapUsed, Sys: mem.rss, HeapAlloc: mem.heapUsed, HeapSys: mem.heapTotal, HeapInuse: mem.heapUsed, HeapIdle: mem.heapTotal - mem.heapUsed };
}

/**
 * The document key of a SHOW STATS series, built as 1.x's serveExpvar builds it: the name, then
 * `:path:id` for storage modules, `:bind` for listeners, `:database` for per-database ones.
 */
function expvarKey(name: string, tags: Readonly<Record<string, string>>): string {
  if (tags.path !== undefined) return `${name}:${tags.path}` + (tags.id !== undefined ? `:${tags.id}` : '');
  if (tags.bind !== undefined) return `${name}:${tags.bind}`;
  if (tags.database !== undefined) return `${name}:${tags.database}`;
  return name;
}

/** SHOW STATS's series as expvar points, keyed as 1.x keys them (expvarKey). */
export function expvarPoints(result: StatementResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of result.series ?? []) {
    const tags = s.tags ?? {};
    const values: Record<string, unknown> = {};
    s.columns.forEach((c, i) => (values[c] = s.values[0]?.[i] ?? null));
    const name = s.name ?? '';
    out[expvarKey(name, tags)] = { name, tags, values };
  }
  return out;
}

export function registerDebugVarsRoutes(app: TemplatedApp, ctx: RouteContext): void {
  const document = async (granted: Access): Promise<string> => {
    authorizeQuery(granted, SHOW_STATS, '');
    const [stats] = await ctx.deps.query({ statements: SHOW_STATS, db: '', rp: '', signal: new QueryStop(), user: queryUser(granted) });
    const now = new Date();
    const doc = {
      system: { currentTime: now.toISOString(), started: STARTED.toISOString(), uptime: Math.floor((now.getTime() - STARTED.getTime()) / 1000) },
      cmdline: process.argv,
      memstats: memstats(),
      ...(stats ? expvarPoints(stats) : {}),
    };
    // stringify: exact int64 counters (the WAL sequence is a bigint) and Go's string escapes.
    return stringify(doc as J, false) + '\n';
  };
  const vars = (res: HttpResponse, req: HttpRequest): void => {
    const reply = ctx.begin(res, req);
    guarded(ctx, reply, req, (granted) => {
      document(granted)
        .then((text) => reply.send(200, text, 'application/json'), (err: unknown) => sendError(reply, err, ctx.log))
        .finally(() => {
          if (granted.kind === 'bootstrap') granted.release();
        });
    });
  };
  app.get('/debug/vars', vars).any('/debug/vars', (res, req) => methodNotAllowed(ctx.begin(res, req), 'GET'));
}
