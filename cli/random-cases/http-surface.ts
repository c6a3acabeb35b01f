/**
 * The HTTP surface as clients meet it: /write and /query with missing, empty or odd
 * parameters (`db`, `consistency`, `chunk_size`, `epoch`, `pretty`, `chunked`, `params` JSON,
 * `u`/`p` and Basic auth while auth is off), gzip bodies (good, and plain text declared gzip),
 * `q` empty or only a comment or `;`, POST forms against the query string, the Accept header's
 * spellings, /ping and /status with and without `verbose`, HEAD and methods a route does not
 * take. The answer's status, body, Content-Type and the presence of X-Influxdb-Version are
 * compared.
 *
 * Left out, as decisions.md answers them otherwise than 1.6.7 (documented): an unknown `rp`
 * or `db` (404), unknown precisions and epochs (400), unknown paths (a JSON 404), msgpack.
 */
import type { Picker } from './pick.js';

export interface HttpCase {
  readonly path: string;
  readonly method: string;
  readonly db?: string;
  readonly q?: string;
  readonly q_in_url?: boolean;
  readonly body?: string;
  readonly gzip?: boolean;
  readonly params?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly accept?: string;
  readonly form?: Record<string, string>;
  readonly check_headers: readonly string[];
  readonly setup: readonly ({ readonly q: string } | { readonly write: string; readonly db: string })[];
  readonly teardown: readonly { readonly q: string }[];
  readonly verify?: readonly { readonly q: string; readonly db: string; readonly params?: Record<string, string> }[];
}

const CHECKED = ['Content-Type', 'X-Influxdb-Version'];
const GOOD_LINES = ['m v=1 1', 'm,t=a v=2i 2\nm,t=b v=3i 3', 'm v=1 1\nbad line\nm v=4 4', 'm v=1 1\n', '', '   \n', '# only a comment', 'bad'];
const AUTH: readonly Record<string, string>[] = [{}, { u: 'someone', p: 'secret' }, { u: '' }, { p: 'x' }];
const BASIC = ['Basic c29tZW9uZTpzZWNyZXQ=', 'Basic ', 'Basic !!!', 'Bearer abc', 'Token x:y'];

function authParams(p: Picker): { params: Record<string, string>; headers: Record<string, string> } {
  const params = p.chance(0.2) ? p.pick(AUTH) : {};
  const headers: Record<string, string> = p.chance(0.15) ? { Authorization: p.pick(BASIC) } : {};
  return { params, headers };
}

function writeRequest(p: Picker, db: string): Partial<HttpCase> {
  const auth = authParams(p);
  const params: Record<string, string> = { ...auth.params };
  if (p.chance(0.4)) params['consistency'] = p.pick(['any', 'one', 'quorum', 'all', 'ALL', 'One', '', 'two', 'none', ' any']);
  if (p.chance(0.3)) params['precision'] = p.pick(['', 'n', 'ns', 's', 'ms', 'm', 'h']);
  if (p.chance(0.15)) params['rp'] = p.pick(['', 'autogen']);
  const kind = p.r();
  const target = kind < 0.07 ? {} : kind < 0.12 ? { db: '' } : { db };
  const body = p.pick(GOOD_LINES);
  const gz = p.r();
  const encoding = gz < 0.25 ? { gzip: true } : gz < 0.35 ? { headers: { ...auth.headers, 'Content-Encoding': 'gzip' } } : {};
  return { path: '/write', method: p.chance(0.95) ? 'POST' : p.pick(['GET', 'PUT']), ...target, body, params, headers: auth.headers, ...encoding };
}

const QUERIES = ['SHOW MEASUREMENTS', 'SELECT * FROM m', 'SELECT count(v) FROM m', 'SHOW FIELD KEYS; SELECT * FROM m', '', ' ', '-- only a comment', ';', 'SHOW DATABASES;', ';SHOW MEASUREMENTS', 'SELECT * FROM m WHERE v > $v', 'SELECT * FROM m LIMIT $n'];
const PARAMS_JSON = ['{"v": 1}', '{"n": 1}', '{"v": 1.5, "n": 2}', '{}', '{"n": "1"}', '{"v": 1} trailing', '[1]', '"x"', '{', '{"n": 1,}', '{n: 1}', 'null', ' '];
const ACCEPTS = ['application/json', 'application/csv', 'text/csv', '*/*', 'text/plain', 'application/csv, application/json', 'text/csv; charset=utf-8', 'TEXT/CSV', 'application/json, text/csv', ''];

function queryRequest(p: Picker, db: string): Partial<HttpCase> {
  const auth = authParams(p);
  const params: Record<string, string> = { ...auth.params };
  if (p.chance(0.3)) params['epoch'] = p.pick(['', 'ns', 'n', 'ms', 's', 'm', 'h']);
  if (p.chance(0.3)) params['chunked'] = p.pick(['true', 'false', '1', 'TRUE', '']);
  if (p.chance(0.3)) params['chunk_size'] = p.pick(['1', '2', '0', '-1', 'x', '2.5', '']);
  if (p.chance(0.2)) params['pretty'] = p.pick(['true', '1', 'false', 'TRUE']);
  if (p.chance(0.3)) params['params'] = p.pick(PARAMS_JSON);
  if (p.chance(0.1)) params['rp'] = p.pick(['', 'autogen']);
  const post = p.chance(0.5);
  const accept = p.chance(0.3) ? { accept: p.pick(ACCEPTS) } : {};
  const target = p.chance(0.08) ? {} : p.chance(0.05) ? { db: '' } : { db };
  const q = p.chance(0.04) ? {} : { q: p.pick(QUERIES) };
  // A POST form's values win over the query string's (Go's FormValue reads the body first).
  const form = post && p.chance(0.2) ? { form: { q: p.pick(QUERIES) } } : {};
  return { path: '/query', method: post ? 'POST' : 'GET', ...target, ...q, ...(post && p.chance(0.3) ? { q_in_url: true } : {}), ...form, params, headers: auth.headers, ...accept };
}

function otherRequest(p: Picker): Partial<HttpCase> {
  const path = p.pick(['/ping', '/ping', '/status', '/query', '/write']);
  const method = p.pick(['GET', 'HEAD', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']);
  const params: Record<string, string> = path === '/ping' && p.chance(0.5) ? { verbose: p.pick(['true', 'false', '1', '']) } : {};
  return { path, method: path === '/ping' || path === '/status' || method !== 'POST' ? method : 'PUT', params };
}

/** A request on a scratch database `db` holding two points, which verify reads back after a write. */
export function randomHttpRequest(p: Picker, db: string): HttpCase {
  const k = p.r();
  const req = k < 0.45 ? writeRequest(p, db) : k < 0.9 ? queryRequest(p, db) : otherRequest(p);
  const setup = [{ q: `DROP DATABASE "${db}"` }, { q: `CREATE DATABASE "${db}"` }];
  const verify = req.path === '/write' ? [{ q: 'SELECT * FROM m GROUP BY *', db, params: { epoch: 'ns' } }] : undefined;
  return {
    path: '/query',
    method: 'GET',
    ...req,
    check_headers: CHECKED,
    setup: req.path === '/write' ? setup : [...setup, { write: 'm,t=a v=1 1\nm,t=b v=2 2000000000', db }],
    teardown: [{ q: `DROP DATABASE "${db}"` }],
    ...(verify ? { verify } : {}),
  };
}
