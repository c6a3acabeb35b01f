/**
 * The access gate every route passes first (spec "Authentication", "Limits → Rate limiting"):
 *
 * 1. rate limit (/write, /query): 429 before anything else, no credential check;
 * 2. auth disabled, or a public route: open, credentials ignored whatever they are
 *    (clients.md item 3: python and node send Basic root:root, ruby u=root&p=root);
 * 3. first-admin bootstrap (decisions.md): no users yet → /query gets a `bootstrap` access that
 *    only lets `CREATE USER ... WITH ALL PRIVILEGES` through (authorizeQuery); every other
 *    login or admin request is 403 `error authorizing query: create admin user first or
 *    disable authentication`. Bootstrap requests run one at a time; a request queued behind
 *    one that created the admin is then authenticated normally;
 * 4. credentials (credentials.ts) verified against the catalog (verifier.ts): none → 401
 *    `unable to parse authentication credentials`, wrong → 401 `authorization failed` (admin
 *    routes say `authorization failed` in both cases, per the spec); a valid non-admin user on
 *    an admin route → 403 `admin privileges required for internal routes`.
 * Per-database grants are checked later, once the route knows the database and statements:
 * authorizeQuery (statements), authorizeWrite.
 *
 * Usage in a uWS handler, synchronously: `const access = ctx.gate.check(req)` (throws the 429),
 * start reading the body, then `await access` (rejects with the 401/403 StrataErrors). A
 * `bootstrap` access must be released (`access.release()`) when the request is done.
 */
import type { HttpRequest } from 'uWebSockets.js';
import type { Statement } from '../../ql/index.js';
import { parseQuery } from '../http/query.js';
import type { ServerOptions } from '../options.js';
import type { RateLimiter } from '../rate-limit.js';
import { extractCredentials, type Credentials } from './credentials.js';
import { ADMIN_REQUIRED, BAD_CREDENTIALS, CREATE_ADMIN_FIRST, ForbiddenError, NO_CREDENTIALS, UnauthorizedError, USERNAME_REQUIRED } from './errors.js';
import { denyStatements, hasPrivilege } from './privileges.js';
import { routeClass, type RouteClass } from './routes.js';
import type { AuthUser, PasswordVerifier, UserDirectory } from './verifier.js';

export type Access =
  /** Auth disabled or a public route: no user. */
  | { readonly kind: 'open' }
  | { readonly kind: 'user'; readonly user: AuthUser }
  /** No users exist yet: only the first admin may be created. Call release() when done. */
  | { readonly kind: 'bootstrap'; release(): void };

const OPEN: Access = { kind: 'open' };

export class AccessGate {
  #bootstrapQueue: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: ServerOptions,
    readonly limiter: RateLimiter,
    private readonly users: UserDirectory | undefined,
    private readonly verifier: PasswordVerifier | undefined,
  ) {}

  get enabled(): boolean {
    return this.options.auth.enabled;
  }

  /**
   * Call synchronously in the handler. Throws RateLimitedError (429) at once; the promise
   * rejects with UnauthorizedError / ForbiddenError.
   */
  check(req: HttpRequest): Promise<Access> {
    const access = this.checkNow(req);
    return access instanceof Promise ? access : Promise.resolve(access);
  }

  /**
   * check(), answering the access itself when it is known at once (auth off, a public route):
   * a handler then need not wait a turn for it.
   */
  checkNow(req: HttpRequest): Access | Promise<Access> {
    const path = req.getUrl();
    this.limiter.admit(path);
    const cls = routeClass(path, this.options.statement_summary.require_auth);
    if (!this.enabled || cls === 'public' || !this.users || !this.verifier) return OPEN;
    const creds = extractCredentials(parseQuery(req.getQuery()), req.getHeader('authorization'), this.options.auth.allow_query_param_credentials);
    if (this.users.users().length === 0) return this.#bootstrap(path, cls, creds);
    return this.#authenticate(cls, creds);
  }

  async #authenticate(cls: RouteClass, creds: Credentials | undefined): Promise<Access> {
    if (!creds) throw new UnauthorizedError(cls === 'admin' ? BAD_CREDENTIALS : NO_CREDENTIALS);
    if (creds.username === '') throw new UnauthorizedError(cls === 'admin' ? BAD_CREDENTIALS : USERNAME_REQUIRED);
    const user = await this.verifier!.authenticate(creds.username, creds.password);
    if (!user) throw new UnauthorizedError(BAD_CREDENTIALS);
    if (cls === 'admin' && !user.admin) throw new ForbiddenError(ADMIN_REQUIRED);
    return { kind: 'user', user };
  }

  async #bootstrap(path: string, cls: RouteClass, creds: Credentials | undefined): Promise<Access> {
    if (path !== '/query') throw new ForbiddenError(CREATE_ADMIN_FIRST);
    const previous = this.#bootstrapQueue;
    let release!: () => void;
    this.#bootstrapQueue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    if (this.users!.users().length > 0) {
      release();
      return this.#authenticate(cls, creds);
    }
    let released = false;
    return {
      kind: 'bootstrap',
      release: () => {
        if (released) return;
        released = true;
        release();
      },
    };
  }
}

/**
 * Authorize the statements of one /query request (1.x QueryAuthorizer). Throws 403 with
 * `error authorizing query: ...`. In bootstrap mode only admin CREATE USER statements pass.
 */
export function authorizeQuery(access: Access, statements: readonly Statement[], db: string): void {
  if (access.kind === 'open') return;
  if (access.kind === 'bootstrap') {
    const createsAdmin = statements.length > 0 && statements.every((s) => s.kind === 'CreateUser' && s.admin);
    if (!createsAdmin) throw new ForbiddenError(CREATE_ADMIN_FIRST);
    return;
  }
  const denied = denyStatements(access.user, statements, db);
  if (denied !== undefined) throw new ForbiddenError(`error authorizing query: ${denied}`);
}

/** /write needs WRITE (or ALL) on the database, or admin (1.x WriteAuthorizer). */
export function authorizeWrite(access: Access, db: string): void {
  if (access.kind === 'open') return;
  if (access.kind === 'bootstrap') throw new ForbiddenError(CREATE_ADMIN_FIRST);
  if (!hasPrivilege(access.user, 'WRITE', db)) {
    throw new ForbiddenError(`${JSON.stringify(access.user.name)} user is not authorized to write to database ${JSON.stringify(db)}`);
  }
}

/** The user for QueryContext.user (undefined when auth is off or in bootstrap). */
export function queryUser(access: Access): { readonly name: string; readonly admin: boolean } | undefined {
  return access.kind === 'user' ? { name: access.user.name, admin: access.user.admin } : undefined;
}
