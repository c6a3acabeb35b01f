/**
 * SQL expression nodes (node-sql-parser, postgresql dialect) → TimeseriesQL expressions.
 * Everything not listed here is refused with a 400 naming the construct.
 */
import { binary, boolean, call, duration, integer, number, regex, string, unary, varRef, type BinaryOp, type Expr } from '../ast/nodes.js';
import { QueryError } from '../errors.js';

/** A node of node-sql-parser's AST (loosely typed: the package's typings are incomplete). */
export type SqlNode = { readonly type?: string; readonly [key: string]: unknown };

export class SqlUnsupportedError extends QueryError {
  constructor(what: string) {
    super(`unsupported SQL: ${what}`, 400, 'sql_unsupported');
  }
}

/** Aggregates: SQL name → TimeseriesQL function. */
export const AGGREGATES: Readonly<Record<string, string>> = {
  count: 'count',
  sum: 'sum',
  avg: 'mean',
  mean: 'mean',
  min: 'min',
  max: 'max',
  first: 'first',
  last: 'last',
  median: 'median',
  spread: 'spread',
  stddev: 'stddev',
  mode: 'mode',
};

const COMPARISONS: Readonly<Record<string, BinaryOp>> = {
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  AND: 'AND',
  OR: 'OR',
  '+': '+',
  '-': '-',
  '*': '*',
  '/': '/',
  '%': '%',
};

const NEGATED: Readonly<Partial<Record<BinaryOp, BinaryOp>>> = { '=': '!=', '!=': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<', '=~': '!~', '!~': '=~' };

const obj = (v: unknown): SqlNode => (v !== null && typeof v === 'object' ? (v as SqlNode) : {});

/** Column name of a `column_ref` (plain string or `{expr: {value}}`), or undefined. */
export function columnName(node: SqlNode): string | undefined {
  if (node.type !== 'column_ref') return undefined;
  const c = node['column'];
  if (typeof c === 'string') return c;
  const v = obj(obj(c)['expr'])['value'];
  return typeof v === 'string' ? v : undefined;
}

/** Lower-case name of a `function` or `aggr_func` node. */
export function functionName(node: SqlNode): string | undefined {
  if (node.type === 'aggr_func' && typeof node['name'] === 'string') return node['name'].toLowerCase();
  if (node.type !== 'function') return undefined;
  const n = node['name'];
  if (typeof n === 'string') return n.toLowerCase();
  const parts = obj(n)['name'];
  if (!Array.isArray(parts) || parts.length !== 1) return undefined;
  const v = obj(parts[0])['value'];
  return typeof v === 'string' ? v.toLowerCase() : undefined;
}

/** Arguments of a function / aggregate node. */
export function functionArgs(node: SqlNode): SqlNode[] {
  const args = obj(node['args']);
  if (node.type === 'aggr_func') return args['expr'] === undefined ? [] : [obj(args['expr'])];
  const list = args['value'];
  return Array.isArray(list) ? list.map(obj) : [];
}

export function isAggregateCall(node: SqlNode): boolean {
  const name = functionName(node);
  return name !== undefined && name in AGGREGATES;
}

/** Does the expression contain an aggregate call anywhere? */
export function hasAggregate(node: SqlNode): boolean {
  if (isAggregateCall(node)) return true;
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) {
      if (v.some((x) => x !== null && typeof x === 'object' && hasAggregate(x as SqlNode))) return true;
    } else if (v !== null && typeof v === 'object' && hasAggregate(v as SqlNode)) return true;
  }
  return false;
}

/** Readable text of an expression: output column names (`count(usage)`, `usage * 2`). */
export function sqlText(node: SqlNode): string {
  const col = columnName(node);
  if (col !== undefined) return col;
  const fn = functionName(node);
  if (fn !== undefined) {
    const distinct = obj(node['args'])['distinct'] ? 'distinct ' : '';
    const star = node.type === 'aggr_func' && obj(obj(node['args'])['expr']).type === 'star';
    return `${fn}(${distinct}${star ? '*' : functionArgs(node).map(sqlText).join(', ')})`;
  }
  switch (node.type) {
    case 'number':
    case 'bool':
      return String(node['value']);
    case 'single_quote_string':
    case 'string':
      return `'${String(node['value'])}'`;
    case 'binary_expr':
      return `${sqlText(obj(node['left']))} ${String(node['operator']).toLowerCase()} ${sqlText(obj(node['right']))}`;
    case 'unary_expr':
      return `${String(node['operator'])}${sqlText(obj(node['expr']))}`;
    default:
      return node.type ?? '?';
  }
}

/** What an expression may reference: every column name it uses is checked against `known`. */
export interface ExprScope {
  /** Known columns (`time`, tags, fields); unknown names are a 400. */
  readonly known: (name: string) => boolean;
  /** Tag keys: a tag reference gets the `::tag` hint (a field of the same name does not shadow it). */
  readonly isTag: (name: string) => boolean;
  /** Aggregates allowed here (SELECT list of an aggregate query). */
  readonly aggregates: boolean;
}

function literal(node: SqlNode): Expr | undefined {
  switch (node.type) {
    case 'number':
    case 'bigint': {
      const text = String(node['value']);
      if (/^-?\d+$/.test(text)) return integer(BigInt(text));
      const n = Number(text);
      if (!Number.isFinite(n)) throw new SqlUnsupportedError(`number ${text}`);
      return number(n);
    }
    case 'single_quote_string':
    case 'string':
    case 'natural_string':
      return string(String(node['value']));
    case 'bool':
      return boolean(Boolean(node['value']));
    case 'null':
      throw new SqlUnsupportedError('NULL literal (use IS NULL checks are not supported either)');
    default:
      return undefined;
  }
}

const INTERVAL_UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  nanosecond: 1n,
  us: 1_000n,
  microsecond: 1_000n,
  ms: 1_000_000n,
  millisecond: 1_000_000n,
  s: 1_000_000_000n,
  sec: 1_000_000_000n,
  second: 1_000_000_000n,
  m: 60_000_000_000n,
  min: 60_000_000_000n,
  minute: 60_000_000_000n,
  h: 3_600_000_000_000n,
  hour: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
  day: 86_400_000_000_000n,
  w: 604_800_000_000_000n,
  week: 604_800_000_000_000n,
};

/** `'5 minutes'`, `'1h'`, `'30 s'` → ns. */
export function intervalNs(text: string): bigint {
  const m = /^\s*(\d+)\s*([a-z]+?)s?\s*$/i.exec(text);
  const unit = m ? INTERVAL_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new SqlUnsupportedError(`interval '${text}'`);
  return BigInt(m[1]!) * unit;
}

function likeRegex(pattern: string): string {
  let out = '^';
  for (const ch of pattern) {
    if (ch === '%') out += '.*';
    else if (ch === '_') out += '.';
    else out += ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  }
  return out + '$';
}

function listOf(node: SqlNode): SqlNode[] {
  if (node.type !== 'expr_list' || !Array.isArray(node['value'])) throw new SqlUnsupportedError(`${node.type ?? '?'} where a list was expected`);
  return (node['value'] as unknown[]).map(obj);
}

function negate(e: Expr): Expr {
  if (e.kind === 'Binary') {
    if (e.op === 'AND') return binary('OR', negate(e.lhs), negate(e.rhs));
    if (e.op === 'OR') return binary('AND', negate(e.lhs), negate(e.rhs));
    const op = NEGATED[e.op];
    if (op) return binary(op, e.lhs, e.rhs);
  }
  throw new SqlUnsupportedError('NOT over a non-comparison');
}

function chain(op: 'AND' | 'OR', parts: Expr[]): Expr {
  return parts.reduce((acc, p) => binary(op, acc, p));
}

const isLogical = (n: SqlNode): boolean => n.type === 'binary_expr' && /^(AND|OR)$/i.test(String(n['operator']));

/** Operands and operators of an AND/OR chain, parenthesized sub-expressions kept whole. */
function flattenLogical(node: SqlNode, out: { operands: SqlNode[]; ops: string[] }): void {
  for (const side of [obj(node['left']), obj(node['right'])]) {
    if (side === obj(node['right'])) out.ops.push(String(node['operator']).toUpperCase());
    if (isLogical(side) && !side['parentheses']) flattenLogical(side, out);
    else out.operands.push(side);
  }
}

/**
 * AND binds tighter than OR. node-sql-parser 5.4.0 (postgresql and mysql dialects) builds
 * `a AND b OR c AND d` left-deep as `((a AND b) OR c) AND d`; re-associate every unparenthesized
 * chain here.
 */
function translateLogical(node: SqlNode, scope: ExprScope): Expr {
  const flat = { operands: [] as SqlNode[], ops: [] as string[] };
  flattenLogical(node, flat);
  const groups: Expr[][] = [[translateExpr(flat.operands[0]!, scope)]];
  flat.ops.forEach((op, i) => {
    const e = translateExpr(flat.operands[i + 1]!, scope);
    if (op === 'OR') groups.push([e]);
    else groups[groups.length - 1]!.push(e);
  });
  return chain('OR', groups.map((g) => chain('AND', g)));
}

function translateBinary(node: SqlNode, scope: ExprScope): Expr {
  if (isLogical(node)) return translateLogical(node, scope);
  const op = String(node['operator']).toUpperCase();
  const left = obj(node['left']);
  const right = obj(node['right']);
  switch (op) {
    case 'IN':
    case 'NOT IN': {
      const lhs = translateExpr(left, scope);
      const items = listOf(right).map((r) => binary(op === 'IN' ? '=' : '!=', lhs, translateExpr(r, scope)));
      if (items.length === 0) throw new SqlUnsupportedError('empty IN list');
      return chain(op === 'IN' ? 'OR' : 'AND', items);
    }
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const lhs = translateExpr(left, scope);
      const [lo, hi] = listOf(right).map((r) => translateExpr(r, scope));
      if (!lo || !hi) throw new SqlUnsupportedError('BETWEEN without two bounds');
      const e = binary('AND', binary('>=', lhs, lo), binary('<=', lhs, hi));
      return op === 'BETWEEN' ? e : negate(e);
    }
    case 'LIKE':
    case 'NOT LIKE': {
      if (right.type !== 'single_quote_string' && right.type !== 'string') throw new SqlUnsupportedError('LIKE with a non-string pattern');
      return binary(op === 'LIKE' ? '=~' : '!~', translateExpr(left, scope), regex(likeRegex(String(right['value']))));
    }
    case 'IS':
    case 'IS NOT':
      throw new SqlUnsupportedError(`${op} NULL`);
    default: {
      const mapped = COMPARISONS[op];
      if (!mapped) throw new SqlUnsupportedError(`operator ${op}`);
      if (right.type === 'interval') return binary(mapped, translateExpr(left, scope), duration(intervalNs(String(obj(right['expr'])['value']))));
      return binary(mapped, translateExpr(left, scope), translateExpr(right, scope));
    }
  }
}

/** Translate one SQL expression. Aggregates become TimeseriesQL calls (`avg` → `mean`). */
export function translateExpr(node: SqlNode, scope: ExprScope): Expr {
  const lit = literal(node);
  if (lit) return lit;
  const col = columnName(node);
  if (col !== undefined) {
    if (col === '*') throw new SqlUnsupportedError('* inside an expression');
    if (!scope.known(col)) throw new QueryError(`unknown column "${col}"`, 400, 'sql_unknown_column');
    if (col === 'time') return varRef('time');
    return varRef(col, scope.isTag(col) ? 'tag' : null);
  }
  switch (node.type) {
    case 'binary_expr':
      return translateBinary(node, scope);
    case 'unary_expr': {
      const op = String(node['operator']).toUpperCase();
      const inner = translateExpr(obj(node['expr']), scope);
      if (op === '-') return unary('-', inner);
      if (op === 'NOT') return negate(inner);
      throw new SqlUnsupportedError(`unary ${op}`);
    }
    case 'aggr_func':
    case 'function':
      return translateCall(node, scope);
    case 'double_quote_string':
      return translateExpr({ type: 'column_ref', column: String(node['value']) }, scope);
    default:
      throw new SqlUnsupportedError(node.type ?? 'expression');
  }
}

function translateCall(node: SqlNode, scope: ExprScope): Expr {
  const name = functionName(node) ?? '?';
  const args = functionArgs(node);
  if (name === 'now' && args.length === 0) return call('now');
  if (name === 'not' && args.length === 1) return negate(translateExpr(args[0]!, scope));
  const agg = AGGREGATES[name];
  if (agg === undefined) throw new SqlUnsupportedError(`function ${name}()`);
  if (!scope.aggregates) throw new SqlUnsupportedError(`aggregate ${name}() outside the SELECT list`);
  const arg = args[0];
  if (args.length !== 1 || !arg) throw new SqlUnsupportedError(`${name}() takes one column`);
  if (arg.type === 'star' || columnName(arg) === '*') throw new SqlUnsupportedError(`${name}(*): name a field, e.g. ${name}(value)`);
  const inner = translateExpr(arg, { ...scope, aggregates: false });
  if (inner.kind !== 'VarRef' || inner.type === 'tag' || inner.name === 'time') {
    throw new SqlUnsupportedError(`${name}() of ${sqlText(arg)}: aggregates take a field`);
  }
  const distinct = obj(node['args'])['distinct'];
  if (distinct) {
    if (agg !== 'count') throw new SqlUnsupportedError(`${name}(DISTINCT ...)`);
    return call('count', [call('distinct', [inner])]);
  }
  return call(agg, [inner]);
}
