/**
 * The read-only SQL subset of `POST /api/v1/chdb` (and `/api/v1/sql`), planned onto the same
 * executor as TimeseriesQL: the SQL AST (node-sql-parser, postgresql dialect) becomes one
 * TimeseriesQL SelectStatement; its series are then flattened into SQL rows (./rows.ts).
 *
 * - `FROM m`: a measurement of the request's database. Columns: `time`, tags, fields.
 * - `*` expands to `time`, the tag keys (sorted), then the field keys (sorted).
 * - WHERE: comparisons, AND/OR/NOT, IN, BETWEEN, LIKE (→ regex), `now() - interval '1 hour'`;
 *   times as RFC 3339 strings or integer ns (the TimeseriesQL rules).
 * - Aggregates count, sum, avg (= mean), min, max, first, last, median, spread, stddev, mode;
 *   `count(DISTINCT f)`. GROUP BY tag keys (→ dimensions) and `time_bucket('5m', time)`
 *   (→ `GROUP BY time(5m)`).
 * - ORDER BY `time` without GROUP BY (and without other sort keys) and LIMIT/OFFSET are pushed
 *   into the statement; any other ORDER BY (a column, an alias, a position) sorts the rows here.
 * Everything else is a 400 naming the construct.
 */
import { call, duration, field, measurement, select, varRef, wildcard, type Expr, type Field, type SelectStatement, type SortField } from '../ast/nodes.js';
import type { Statement } from '../ast/statements.js';
import { QueryError } from '../errors.js';
import { parseQuery } from '../parser/query.js';
import { quoteIdent } from '../ast/keywords.js';
import type { Cell, StatementResult } from '../result.js';
import { sqlParser } from './parser-loader.js';
import { columnName, functionArgs, functionName, hasAggregate, intervalNs, sqlText, SqlUnsupportedError, translateExpr, type ExprScope, type SqlNode } from './expr.js';

/** A parsed, validated single SELECT over one measurement. */
export interface SqlSelect {
  readonly measurement: string;
  readonly ast: SqlNode;
}

/** Tag and field keys of the measurement (SHOW TAG KEYS / SHOW FIELD KEYS). */
export interface SqlSchema {
  readonly tags: readonly string[];
  readonly fields: readonly string[];
}

/** Where an output column's values come from. */
export type ColumnSource =
  | { readonly kind: 'time' }
  | { readonly kind: 'tag'; readonly key: string }
  | { readonly kind: 'cell'; readonly column: string };

export interface OutColumn {
  readonly name: string;
  readonly source: ColumnSource;
  /** Only needed to sort: not part of the answer. */
  readonly hidden: boolean;
}

export interface SqlPlan {
  /** null: nothing can match (the measurement has no fields); the answer is empty. */
  readonly statement: SelectStatement | null;
  readonly columns: readonly OutColumn[];
  /** Sort keys applied to the flattened rows (indexes into `columns`); empty = executor order. */
  readonly sort: readonly { readonly index: number; readonly ascending: boolean }[];
  /** Applied to the flattened rows (0 = none) when not pushed into the statement. */
  readonly limit: number;
  /**
   * An aggregate without GROUP BY over no rows is still one SQL row (count 0, other aggregates
   * NULL); the executor returns no series then. null for other queries.
   */
  readonly emptyRow: readonly Cell[] | null;
  readonly offset: number;
}

export class SqlParseError extends QueryError {
  constructor(detail: string) {
    super(`error parsing SQL: ${detail}`, 400, 'sql_parse_error');
  }
}

const obj = (v: unknown): SqlNode => (v !== null && typeof v === 'object' ? (v as SqlNode) : {});
const list = (v: unknown): SqlNode[] => (Array.isArray(v) ? v.map(obj) : []);

function refuse(ast: SqlNode): void {
  const checks: [unknown, string][] = [
    [ast['with'], 'WITH'],
    [obj(ast['distinct'])['type'], 'SELECT DISTINCT'],
    [ast['having'], 'HAVING'],
    [ast['window'], 'WINDOW'],
    [ast['_next'], 'UNION / INTERSECT / EXCEPT'],
    [obj(ast['into'])['position'], 'SELECT INTO'],
    [ast['options'], 'SELECT options'],
  ];
  for (const [value, what] of checks) if (value) throw new SqlUnsupportedError(what);
}

/** Parse `text`: exactly one SELECT over one measurement, else 400 (after loadSqlParser()). */
export function parseSql(text: string): SqlSelect {
  let parsed: unknown;
  try {
    parsed = sqlParser().astify(text, { database: 'postgresql' });
  } catch (err) {
    throw new SqlParseError((err as Error).message.split('\n')[0] ?? 'invalid SQL');
  }
  const stmts = Array.isArray(parsed) ? parsed.map(obj) : [obj(parsed)];
  if (stmts.length !== 1) throw new QueryError('only a single SELECT statement is supported', 400, 'sql_unsupported');
  const ast = stmts[0]!;
  if (ast.type !== 'select') throw new QueryError(`only SELECT is supported (got ${String(ast.type ?? '?').toUpperCase()})`, 400, 'sql_unsupported');
  refuse(ast);
  const from = list(ast['from']);
  if (from.length === 0) throw new SqlUnsupportedError('SELECT without FROM <measurement>');
  if (from.length > 1 || from.some((f) => f['join'])) throw new SqlUnsupportedError('JOIN or several tables');
  const table = from[0]!;
  if (typeof table['table'] !== 'string' || table['expr']) throw new SqlUnsupportedError('FROM a subquery or expression');
  if (table['db']) throw new SqlUnsupportedError(`qualified table ${String(table['db'])}.${table['table']} (the database is the db parameter)`);
  return { measurement: table['table'], ast };
}

/** TimeseriesQL statements reading the measurement's schema (tag keys, then field keys). */
export function schemaStatements(m: string): Statement[] {
  const name = quoteIdent(m);
  return parseQuery(`SHOW TAG KEYS FROM ${name}; SHOW FIELD KEYS FROM ${name}`);
}

/** The schema out of the results of schemaStatements. */
export function schemaFromResults(results: readonly StatementResult[]): SqlSchema {
  const keys = (r: StatementResult | undefined): string[] => {
    if (r?.error) throw new QueryError(r.error, 400);
    return (r?.series ?? []).flatMap((s) => s.values.map((v) => String(v[0])));
  };
  return { tags: [...new Set(keys(results[0]))].sort(), fields: [...new Set(keys(results[1]))].sort() };
}

function limitOffset(ast: SqlNode): { limit: number; offset: number } {
  const l = obj(ast['limit']);
  const values = list(l['value']).map((v) => {
    const n = Number(v['value']);
    if (v.type !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new SqlUnsupportedError(`LIMIT/OFFSET ${sqlText(v)}`);
    return n;
  });
  if (values.length === 0) return { limit: 0, offset: 0 };
  if (values.length === 1) return l['seperator'] === 'offset' ? { limit: 0, offset: values[0]! } : { limit: values[0]!, offset: 0 };
  // `LIMIT a OFFSET b`, or MySQL's `LIMIT b, a`.
  return l['seperator'] === ',' ? { limit: values[1]!, offset: values[0]! } : { limit: values[0]!, offset: values[1]! };
}

/** `time_bucket('5m', time)` / `date_bin('5 minutes', time)` → the interval in ns. */
function timeBucket(node: SqlNode): bigint | undefined {
  const fn = functionName(node);
  if (fn !== 'time_bucket' && fn !== 'date_bin') return undefined;
  const [width, col] = functionArgs(node);
  if (!width || !col || columnName(col) !== 'time') throw new SqlUnsupportedError(`${fn}() takes an interval string and the time column`);
  if (width.type === 'interval') return intervalNs(String(obj(width['expr'])['value']));
  if (width.type !== 'single_quote_string' && width.type !== 'string') throw new SqlUnsupportedError(`${fn}() takes an interval string and the time column`);
  return intervalNs(String(width['value']));
}

interface Planner {
  readonly schema: SqlSchema;
  readonly scope: ExprScope;
  readonly fields: Field[];
  readonly columns: OutColumn[];
}

function addCell(p: Planner, name: string, expr: Expr, hidden: boolean): void {
  const alias = `__sql${p.fields.length}`;
  p.fields.push(field(expr, alias));
  p.columns.push({ name, source: { kind: 'cell', column: alias }, hidden });
}

/** A raw (non-aggregate) column reference: time, a tag or a field. */
function addRawColumn(p: Planner, name: string, col: string, hidden: boolean): void {
  if (col === 'time') p.columns.push({ name, source: { kind: 'time' }, hidden });
  else addCell(p, name, translateExpr({ type: 'column_ref', column: col }, p.scope), hidden);
}

function starColumns(schema: SqlSchema): string[] {
  return ['time', ...schema.tags, ...schema.fields.filter((f) => !schema.tags.includes(f))];
}

function isStar(node: SqlNode): boolean {
  return columnName(node) === '*' || node.type === 'star';
}

/** `GROUP BY 1` and `GROUP BY alias` name a SELECT item (a tag key of that name wins). */
function groupTarget(g: SqlNode, items: readonly { expr: SqlNode; as: unknown }[], tags: ReadonlySet<string>): SqlNode {
  if (g.type === 'number') {
    const item = items[Number(g['value']) - 1];
    if (!item) throw new SqlUnsupportedError(`GROUP BY ${String(g['value'])}: no such column position`);
    return item.expr;
  }
  const col = columnName(g);
  if (col === undefined || tags.has(col)) return g;
  return items.find((i) => i.as === col)?.expr ?? g;
}

/** Plan a parsed SELECT against the measurement's schema. */
export function planSql(q: SqlSelect, schema: SqlSchema): SqlPlan {
  const { ast } = q;
  const tagSet = new Set(schema.tags);
  const known = new Set(['time', ...schema.tags, ...schema.fields]);
  // A measurement without a schema (not written yet) has no rows, whatever columns are named.
  const exists = schema.tags.length + schema.fields.length > 0;
  const scope: ExprScope = { known: (n) => !exists || known.has(n), isTag: (n) => tagSet.has(n), aggregates: false };
  const items = ast['columns'] === '*' ? [{ expr: { type: 'star' } as SqlNode, as: null }] : list(ast['columns']).map((c) => ({ expr: obj(c['expr']), as: c['as'] }));
  const groupBy = list(obj(ast['groupby'])['columns'] ?? ast['groupby']);
  const aggregate = groupBy.length > 0 || items.some((i) => hasAggregate(i.expr));
  const p: Planner = { schema, scope, fields: [], columns: [] };
  const dimensions: Expr[] = [];
  const groupTags = new Set<string>();
  let bucket: bigint | undefined;
  let bucketText = '';

  for (const entry of groupBy) {
    const g = groupTarget(entry, items, tagSet);
    const tb = timeBucket(g);
    if (tb !== undefined) {
      if (bucket !== undefined) throw new SqlUnsupportedError('two time buckets in GROUP BY');
      bucket = tb;
      bucketText = sqlText(g);
      dimensions.push(call('time', [duration(tb)]));
      continue;
    }
    const col = columnName(g);
    if (col === undefined || (exists && !tagSet.has(col))) {
      throw new SqlUnsupportedError(`GROUP BY ${sqlText(g)}: only tag keys and time_bucket('<interval>', time) can be grouped by`);
    }
    groupTags.add(col);
    dimensions.push(varRef(col));
  }

  for (const item of items) {
    const alias = typeof item.as === 'string' ? item.as : null;
    if (isStar(item.expr)) {
      if (aggregate) throw new SqlUnsupportedError('* in an aggregate query');
      for (const c of starColumns(schema)) addRawColumn(p, c, c, false);
      continue;
    }
    const name = alias ?? sqlText(item.expr);
    if (!aggregate) {
      const col = columnName(item.expr);
      if (col !== undefined) {
        if (!scope.known(col)) throw new QueryError(`unknown column "${col}"`, 400, 'sql_unknown_column');
        addRawColumn(p, name, col, false);
      } else addCell(p, name, translateExpr(item.expr, scope), false);
      continue;
    }
    const col = columnName(item.expr);
    if (bucket !== undefined && (sqlText(item.expr) === bucketText || col === 'time')) {
      p.columns.push({ name: alias ?? (col === 'time' ? 'time' : name), source: { kind: 'time' }, hidden: false });
    } else if (col !== undefined && groupTags.has(col)) {
      p.columns.push({ name, source: { kind: 'tag', key: col }, hidden: false });
    } else if (hasAggregate(item.expr)) {
      addCell(p, name, translateExpr(item.expr, { ...scope, aggregates: true }), false);
    } else {
      throw new SqlUnsupportedError(`column ${sqlText(item.expr)} must appear in GROUP BY or be used in an aggregate`);
    }
  }
  if (p.columns.length === 0) throw new SqlUnsupportedError('empty SELECT list');

  const where = ast['where'] ? translateExpr(obj(ast['where']), scope) : null;
  const sort = orderBy(p, list(ast['orderby']), aggregate);
  const { limit, offset } = limitOffset(ast);

  const emptyRow = aggregate && dimensions.length === 0 ? p.columns.map((c) => (isCount(p, c) ? 0 : null)) : null;
  // Raw rows exist where a selected field has a value: with only time/tags selected, read every field.
  if (!aggregate && !p.columns.some((c) => c.source.kind === 'cell' && !tagSet.has(fieldSource(p, c)))) {
    if (schema.fields.length === 0) return { statement: null, columns: p.columns, sort: [], limit: 0, offset: 0, emptyRow };
    p.fields.push(field(wildcard('field')));
  }
  if (p.fields.length === 0) throw new SqlUnsupportedError('aggregate query without an aggregate');
  if (schema.fields.length === 0) return { statement: null, columns: p.columns, sort: [], limit: 0, offset: 0, emptyRow };

  // ORDER BY time (or nothing) on raw rows: the executor sorts and pages.
  const timeOnly = sort.every((s) => p.columns[s.index]!.source.kind === 'time');
  const pushdown = !aggregate && timeOnly && sort.length <= 1;
  const sortFields: SortField[] = pushdown && sort[0] ? [{ name: 'time', ascending: sort[0].ascending }] : [];
  const statement = select(p.fields, [measurement({ name: q.measurement })], {
    condition: where,
    dimensions,
    fill: aggregate ? { mode: 'none' } : { mode: 'null' }, // SQL has no rows for empty buckets
    sortFields,
    limit: pushdown ? limit : 0,
    offset: pushdown ? offset : 0,
  });
  return { statement, columns: p.columns, sort: pushdown ? [] : sort, limit: pushdown ? 0 : limit, offset: pushdown ? 0 : offset, emptyRow };
}

function isCount(p: Planner, c: OutColumn): boolean {
  if (c.source.kind !== 'cell') return false;
  const column = c.source.column;
  const f = p.fields.find((x) => x.alias === column);
  return f !== undefined && f.expr.kind === 'Call' && f.expr.name === 'count';
}

/** The source column of a cell output (`__sqlN` → the field expression's name, if a plain ref). */
function fieldSource(p: Planner, c: OutColumn): string {
  if (c.source.kind !== 'cell') return '';
  const column = c.source.column;
  const f = p.fields.find((x) => x.alias === column);
  return f && f.expr.kind === 'VarRef' ? f.expr.name : '';
}

function orderBy(p: Planner, items: SqlNode[], aggregate: boolean): { index: number; ascending: boolean }[] {
  return items.map((item) => {
    const expr = obj(item['expr']);
    const ascending = String(item['type'] ?? 'ASC').toUpperCase() !== 'DESC';
    if (expr.type === 'number') {
      const n = Number(expr['value']);
      const visible = p.columns.filter((c) => !c.hidden);
      const target = visible[n - 1];
      if (!Number.isInteger(n) || !target) throw new SqlUnsupportedError(`ORDER BY ${n}: no such column position`);
      return { index: p.columns.indexOf(target), ascending };
    }
    const text = sqlText(expr);
    let index = p.columns.findIndex((c) => c.name === text);
    if (index < 0 && columnName(expr) === 'time') index = p.columns.findIndex((c) => c.source.kind === 'time');
    if (index < 0 && columnName(expr) !== undefined && !aggregate) {
      const col = columnName(expr)!;
      if (!p.scope.known(col)) throw new QueryError(`unknown column "${col}"`, 400, 'sql_unknown_column');
      addRawColumn(p, col, col, true);
      index = p.columns.length - 1;
    }
    if (index < 0) throw new SqlUnsupportedError(`ORDER BY ${text}: order by a selected column, alias or position`);
    return { index, ascending };
  });
}
