/**
 * Authentication end to end (spec "Authentication", decisions.md "credentials in u/p", "first
 * admin", "per-database grants", clients.md items 3, 10-12): a real server with the real engine
 * in a temp directory (cli/test-server.ts). The matrix: every route class × every kind of
 * credentials → status and body.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { basic, call, type Call, errorOf, q, seed, startRealServer, token, type RealServer, type TestResponse } from './test-server.js';

const NO_CREDENTIALS = 'unable to parse authentication credentials';
const BAD_CREDENTIALS = 'authorization failed';
const ADMIN_REQUIRED = 'admin privileges required for internal routes';
const CREATE_ADMIN_FIRST = 'error authorizing query: create admin user first or disable authentication';

const withQuery = (path: string, extra: string) => path + (path.includes('?') ? '&' : '?') + extra;

type RouteClass = 'public' | 'login' | 'admin';
interface Route extends Call {
  readonly cls: RouteClass;
  /** Status when access is granted; undefined = anything but 401/403 (route owned elsewhere). */
  readonly ok?: number;
}

const ROUTES: readonly Route[] = [
  { cls: 'login', method: 'POST', path: '/write?db=db', body: 'm v=1', ok: 204 },
  { cls: 'login', method: 'GET', path: q('SHOW DATABASES'), ok: 200 },
  { cls: 'login', method: 'POST', path: q('SHOW DATABASES'), ok: 200 },
  { cls: 'login', method: 'GET', path: '/api/v1/statements' },
  { cls: 'login', method: 'DELETE', path: '/api/v1/statements' },
  { cls: 'public', method: 'GET', path: '/ping', ok: 204 },
  { cls: 'public', method: 'HEAD', path: '/ping', ok: 204 },
  { cls: 'public', method: 'GET', path: '/health', ok: 200 },
  { cls: 'public', method: 'HEAD', path: '/health', ok: 200 },
  { cls: 'public', method: 'GET', path: '/health/ready', ok: 200 },
  { cls: 'public', method: 'GET', path: '/metrics' },
  { cls: 'admin', method: 'GET', path: '/internal/status' },
  { cls: 'admin', method: 'POST', path: '/cluster/join' },
  { cls: 'admin', method: 'POST', path: '/api/v1/chdb?db=db', body: 'q=SELECT%201' },
  { cls: 'admin', method: 'POST', path: '/api/v1/sql?db=db', body: 'q=SELECT%201' },
];

/** What a request gets: 'ok', or [status, error text]. */
type Outcome = 'ok' | readonly [number, string];

interface Creds {
  readonly name: string;
  readonly apply: (c: Route) => Route;
  readonly outcome: (cls: RouteClass) => Outcome;
}

const none = (cls: RouteClass): Outcome => (cls === 'public' ? 'ok' : [401, cls === 'admin' ? BAD_CREDENTIALS : NO_CREDENTIALS]);
const bad = (cls: RouteClass): Outcome => (cls === 'public' ? 'ok' : [401, BAD_CREDENTIALS]);
const nonAdmin = (cls: RouteClass): Outcome => (cls === 'admin' ? [403, ADMIN_REQUIRED] : 'ok');
const granted = (): Outcome => 'ok';
const header = (h: Record<string, string>) => (c: Route): Route => ({ ...c, headers: { ...c.headers, ...h } });
const params = (u: string, p: string) => (c: Route): Route => ({ ...c, path: withQuery(c.path, `u=${u}&p=${p}`) });

const COMMON: readonly Creds[] = [
  { name: 'no credentials', apply: (c) => c, outcome: none },
  { name: 'Basic, bad password', apply: header(basic('admin', 'wrong')), outcome: bad },
  { name: 'Basic, unknown user', apply: header(basic('ghost', 'admin-pw')), outcome: bad },
  { name: 'Token, bad password', apply: header(token('admin', 'wrong')), outcome: bad },
  { name: 'Basic, non-admin', apply: header(basic('writer', 'w-pw')), outcome: nonAdmin },
  { name: 'Token, non-admin', apply: header(token('writer', 'w-pw')), outcome: nonAdmin },
  { name: 'Basic, admin', apply: header(basic('admin', 'admin-pw')), outcome: granted },
  { name: 'Token, admin', apply: header(token('admin', 'admin-pw')), outcome: granted },
  { name: 'malformed Authorization', apply: header({ Authorization: 'Basic %%%' }), outcome: none },
  {
    name: 'Basic with an empty user name',
    apply: header(basic('', 'admin-pw')),
    outcome: (cls) => (cls === 'public' ? 'ok' : [401, cls === 'admin' ? BAD_CREDENTIALS : 'username required']),
  },
  { name: 'unknown scheme', apply: header({ Authorization: 'Bearer abc' }), outcome: none },
];

async function check(srv: RealServer, route: Route, creds: Creds): Promise<void> {
  const res = await call(srv, creds.apply(route));
  const want = creds.outcome(route.cls);
  const label = `${creds.name}: ${route.method} ${route.path} → ${res.status} ${res.text}`;
  if (want === 'ok') {
    if (route.ok !== undefined) assert.equal(res.status, route.ok, label);
    else assert.ok(res.status !== 401 && res.status !== 403, label);
  } else {
    assert.equal(res.status, want[0], label);
    assert.equal(errorOf(res), want[1], label);
    assert.match(String(res.headers['content-type']), /application\/json/, label);
    assert.equal(res.headers['www-authenticate'], want[0] === 401 ? 'Basic realm="Strata"' : undefined, label);
  }
}

describe('auth matrix, query-parameter credentials off (spec default)', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
    await seed(srv);
  });
  after(() => srv.close());

  const creds: Creds[] = [
    ...COMMON,
    { name: 'u/p admin, flag off (ignored)', apply: params('admin', 'admin-pw'), outcome: none },
    { name: 'u/p bad + Basic admin, flag off', apply: (c) => header(basic('admin', 'admin-pw'))(params('admin', 'x')(c)), outcome: granted },
  ];
  for (const cr of creds) {
    it(`${cr.name}: every route class`, async () => {
      for (const route of ROUTES) await check(srv, route, cr);
    });
  }
});

describe('auth matrix, query-parameter credentials on', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true, 'auth.allow_query_param_credentials': true });
    await seed(srv);
  });
  after(() => srv.close());

  const creds: Creds[] = [
    ...COMMON,
    { name: 'u/p admin', apply: params('admin', 'admin-pw'), outcome: granted },
    { name: 'u/p non-admin', apply: params('writer', 'w-pw'), outcome: nonAdmin },
    { name: 'u/p bad password', apply: params('admin', 'nope'), outcome: bad },
    { name: 'u/p unknown user', apply: params('ghost', 'nope'), outcome: bad },
    // First extraction wins: u/p are taken, so a valid Basic header does not help.
    { name: 'u/p bad + Basic admin', apply: (c) => header(basic('admin', 'admin-pw'))(params('admin', 'x')(c)), outcome: bad },
    // Only u without p is no u/p credential: Basic is used.
    { name: 'u only + Basic admin', apply: (c) => header(basic('admin', 'admin-pw'))({ ...c, path: withQuery(c.path, 'u=ghost') }), outcome: granted },
  ];
  for (const cr of creds) {
    it(`${cr.name}: every route class`, async () => {
      for (const route of ROUTES) await check(srv, route, cr);
    });
  }
});

describe('auth disabled: credentials are ignored, whatever they are', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({});
    await call(srv, { method: 'POST', path: q('CREATE DATABASE db') });
  });
  after(() => srv.close());

  const creds: Creds[] = [
    { name: 'none', apply: (c) => c, outcome: granted },
    { name: 'python/node Basic root:root', apply: header(basic('root', 'root')), outcome: granted },
    { name: 'ruby u=root&p=root', apply: params('root', 'root'), outcome: granted },
    { name: 'Token garbage', apply: header(token('x', 'y')), outcome: granted },
    { name: 'malformed header', apply: header({ Authorization: 'Basic %%%' }), outcome: granted },
  ];
  for (const cr of creds) {
    it(`${cr.name}: no 401/403 anywhere`, async () => {
      for (const route of ROUTES) await check(srv, route, cr);
    });
  }
});

describe('statement summary route public when statement_summary.require_auth = false', { timeout: 30_000 }, () => {
  it('GET and DELETE /api/v1/statements without credentials are not refused', async () => {
    const srv = await startRealServer({ 'auth.enabled': true, 'statement_summary.require_auth': false });
    try {
      await seed(srv);
      for (const method of ['GET', 'DELETE']) {
        const res = await call(srv, { method, path: '/api/v1/statements' });
        assert.ok(res.status !== 401 && res.status !== 403, `${method} → ${res.status}`);
      }
      const res = await call(srv, { path: q('SHOW DATABASES') });
      assert.equal(res.status, 401);
    } finally {
      await srv.close();
    }
  });
});
