/**
 * Route classes when authentication is enabled (spec "Authentication → Route classes"). The one
 * table every route is classified by; a path not listed is public (it is a 404 anyway).
 *
 * | class       | routes                                                              |
 * |-------------|---------------------------------------------------------------------|
 * | public      | /ping, /health, /health/ready (GET, HEAD); GET /metrics              |
 * | login       | POST /write; GET, POST /query; GET, DELETE /api/v1/statements when   |
 * |             | statement_summary.require_auth (default true), else public           |
 * | admin       | /internal/*, /cluster/*, /api/v1/chdb and /api/v1/sql (any method)    |
 *
 * Methods a route does not serve are classified like the route (a 405 is not an oracle for
 * unauthenticated callers of admin routes).
 */
export type RouteClass = 'public' | 'login' | 'admin';

export function routeClass(path: string, statementsRequireAuth: boolean): RouteClass {
  if (path === '/write' || path === '/query') return 'login';
  if (path === '/api/v1/statements') return statementsRequireAuth ? 'login' : 'public';
  if (path === '/api/v1/chdb' || path === '/api/v1/sql') return 'admin';
  if (/^\/(internal|cluster)(\/|$)/.test(path)) return 'admin';
  return 'public';
}
