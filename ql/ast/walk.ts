/**
 * Exhaustive traversal. Both tables are `Record`s over the node kinds, so adding a kind without
 * handling it here is a compile error.
 */
import type { Expr, ExprKind, SelectStatement, Source } from './nodes.js';
import type { Statement, StatementKind } from './statements.js';

type ByKind<U extends { kind: string }, R> = { readonly [K in U['kind']]: (node: Extract<U, { kind: K }>) => R };

const CHILDREN: ByKind<Expr, readonly Expr[]> = {
  VarRef: () => [],
  Wildcard: () => [],
  Call: (e) => e.args,
  Distinct: () => [],
  Binary: (e) => [e.lhs, e.rhs],
  Unary: (e) => [e.expr],
  Integer: () => [],
  Unsigned: () => [],
  Number: () => [],
  String: () => [],
  Boolean: () => [],
  Duration: () => [],
  Regex: () => [],
};

/**
 * Calls the handler for `node.kind`. TypeScript cannot correlate `table[node.kind]` with `node`, so
 * this is the one place that asserts it; the `ByKind` table type keeps it exhaustive and exact.
 */
function byKind<U extends { kind: string }, R>(table: ByKind<U, R>, node: U): R {
  const handler = table[node.kind as U['kind']] as (n: U) => R;
  return handler(node);
}

/** Direct sub-expressions of `e`. */
export function exprChildren(e: Expr): readonly Expr[] {
  return byKind(CHILDREN, e);
}

/** Pre-order walk; return `false` from `visit` to skip a node's children. */
export function walkExpr(e: Expr, visit: (e: Expr) => boolean | void): void {
  if (visit(e) === false) return;
  for (const c of exprChildren(e)) walkExpr(c, visit);
}

/**
 * Bottom-up rewrite: children first, then `fn` on the node rebuilt from them. A node whose
 * children came back unchanged is passed (and, if `fn` keeps it, returned) as it is, so the
 * per-node memos (WeakMaps keyed by node) still hold for the parts a rewrite did not touch.
 */
export function rewriteExpr(e: Expr, fn: (e: Expr) => Expr): Expr {
  switch (e.kind) {
    case 'Call': {
      const args = e.args.map((a) => rewriteExpr(a, fn));
      return fn(args.every((a, i) => a === e.args[i]) ? e : { ...e, args });
    }
    case 'Binary': {
      const lhs = rewriteExpr(e.lhs, fn);
      const rhs = rewriteExpr(e.rhs, fn);
      return fn(lhs === e.lhs && rhs === e.rhs ? e : { ...e, lhs, rhs });
    }
    case 'Unary': {
      const inner = rewriteExpr(e.expr, fn);
      return fn(inner === e.expr ? e : { ...e, expr: inner });
    }
    default: return fn(e);
  }
}

/** True when some node of `e` satisfies `pred`. */
export function someExpr(e: Expr, pred: (e: Expr) => boolean): boolean {
  let found = false;
  walkExpr(e, (n) => {
    if (found) return false;
    if (pred(n)) found = true;
    return !found;
  });
  return found;
}

const sourceExprs = (sources: readonly Source[]): Expr[] =>
  sources.flatMap((s) => (s.kind === 'SubQuery' ? selectExprs(s.statement) : s.regex === null ? [] : [s.regex]));

/** Every top-level expression of a SELECT (fields, sources' regexes, subqueries, WHERE, GROUP BY). */
export function selectExprs(s: SelectStatement): Expr[] {
  return [
    ...s.fields.map((f) => f.expr),
    ...sourceExprs(s.sources),
    ...(s.condition === null ? [] : [s.condition]),
    ...s.dimensions,
  ];
}

const cond = (c: Expr | null): Expr[] => (c === null ? [] : [c]);
const none = (): Expr[] => [];

const STATEMENT_EXPRS: ByKind<Statement, readonly Expr[]> = {
  Select: selectExprs,
  Delete: (s) => [...sourceExprs(s.sources), ...cond(s.condition)],
  DropSeries: (s) => [...sourceExprs(s.sources), ...cond(s.condition)],
  DropMeasurement: none,
  DropShard: none,
  ShowDatabases: none,
  ShowMeasurements: (s) => [...(s.source === null ? [] : sourceExprs([s.source])), ...cond(s.condition)],
  ShowTagKeys: (s) => [...sourceExprs(s.sources), ...cond(s.condition)],
  ShowTagValues: (s) => [...sourceExprs(s.sources), ...(s.tagKey.op === '=~' || s.tagKey.op === '!~' ? [s.tagKey.regex] : []), ...cond(s.condition)],
  ShowFieldKeys: (s) => sourceExprs(s.sources),
  ShowSeries: (s) => [...sourceExprs(s.sources), ...cond(s.condition)],
  ShowCardinality: (s) => [...sourceExprs(s.sources), ...cond(s.condition), ...s.dimensions],
  ShowRetentionPolicies: none,
  ShowUsers: none,
  ShowGrants: none,
  ShowContinuousQueries: none,
  ShowMaterializedViews: none,
  ShowQueries: none,
  ShowShards: none,
  ShowShardGroups: none,
  ShowStats: none,
  ShowDiagnostics: none,
  ShowSubscriptions: none,
  CreateDatabase: none,
  DropDatabase: none,
  CreateRetentionPolicy: none,
  AlterRetentionPolicy: none,
  DropRetentionPolicy: none,
  CreateUser: none,
  DropUser: none,
  SetPassword: none,
  Grant: none,
  Revoke: none,
  CreateContinuousQuery: (s) => selectExprs(s.source),
  DropContinuousQuery: none,
  CreateMaterializedView: (s) => selectExprs(s.source),
  DropMaterializedView: none,
  CreateSubscription: none,
  DropSubscription: none,
  KillQuery: none,
  Explain: (s) => selectExprs(s.statement),
};

/** Top-level expressions of any statement (walk each with walkExpr for every node). */
export function statementExprs(s: Statement): readonly Expr[] {
  return byKind(STATEMENT_EXPRS, s);
}

export type { ExprKind, StatementKind };
