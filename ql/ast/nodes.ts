/**
 * Expression and clause nodes of the TimeseriesQL AST: readonly discriminated unions on `kind`.
 * Statements live in ./statements.ts.
 *
 * Representation choices (the planner consumes these):
 * - Durations are `bigint` nanoseconds (`ns`): Go's time.Duration is int64 ns and `1000d` or `52w`
 *   exceed 2^53. Convert with `Number(ns)` only where the value is known to be small.
 * - Integer literals are `bigint` (int64 range); literals in (2^63-1, 2^64-1] are `Unsigned` (as 1.x).
 * - Float literals are `number`.
 * - Time literals are not special: RFC 3339 strings stay `StringLit`, integers stay `IntegerLit`,
 *   `now()` is a `Call`. The planner decides what a `time` comparison means.
 * - Regex literals carry their RE2 source (`/` unescaped); see ./regex.ts for a JS RegExp.
 * - Identifiers keep their unquoted name; the printer quotes when 1.x would.
 * - Parentheses are not kept: the tree shape says the grouping, the printer adds minimal parens.
 * - Empty string means "not given" for database / retention policy names (as 1.x does).
 */

/** `::type` hint on a variable reference. */
export type DataType = 'float' | 'integer' | 'unsigned' | 'string' | 'boolean' | 'field' | 'tag';

export type BinaryOp =
  | 'OR' | 'AND'
  | '=' | '!=' | '<' | '<=' | '>' | '>=' | '=~' | '!~'
  | '+' | '-' | '|' | '^'
  | '*' | '/' | '%' | '&';

export type UnaryOp = '-' | 'NOT';

export interface VarRef { readonly kind: 'VarRef'; readonly name: string; readonly type: DataType | null }
export interface Wildcard { readonly kind: 'Wildcard'; readonly type: 'field' | 'tag' | null }
export interface Call { readonly kind: 'Call'; readonly name: string; readonly args: readonly Expr[] }
/** `DISTINCT field` (the keyword form; `distinct(field)` is a Call). */
export interface Distinct { readonly kind: 'Distinct'; readonly name: string }
export interface Binary { readonly kind: 'Binary'; readonly op: BinaryOp; readonly lhs: Expr; readonly rhs: Expr }
export interface Unary { readonly kind: 'Unary'; readonly op: UnaryOp; readonly expr: Expr }
export interface IntegerLit { readonly kind: 'Integer'; readonly value: bigint }
export interface UnsignedLit { readonly kind: 'Unsigned'; readonly value: bigint }
export interface NumberLit { readonly kind: 'Number'; readonly value: number }
export interface StringLit { readonly kind: 'String'; readonly value: string }
export interface BooleanLit { readonly kind: 'Boolean'; readonly value: boolean }
export interface DurationLit { readonly kind: 'Duration'; readonly ns: bigint }
export interface RegexLit { readonly kind: 'Regex'; readonly source: string }

export type Literal = IntegerLit | UnsignedLit | NumberLit | StringLit | BooleanLit | DurationLit | RegexLit;
export type Expr = VarRef | Wildcard | Call | Distinct | Binary | Unary | Literal;
export type ExprKind = Expr['kind'];

/** A SELECT field: expression plus optional `AS alias`. */
export interface Field { readonly kind: 'Field'; readonly expr: Expr; readonly alias: string | null }

/** A measurement source: a name or a regex, optionally qualified by database / retention policy. */
export interface Measurement {
  readonly kind: 'Measurement';
  readonly database: string;
  readonly retentionPolicy: string;
  /** '' when `regex` is set. */
  readonly name: string;
  readonly regex: RegexLit | null;
}

export interface SubQuery { readonly kind: 'SubQuery'; readonly statement: SelectStatement }
export type Source = Measurement | SubQuery;

/** `INTO [db.][rp.]measurement`; `name === null` is the `:MEASUREMENT` backreference. */
export interface Target {
  readonly kind: 'Target';
  readonly database: string;
  readonly retentionPolicy: string;
  readonly name: string | null;
}

export type FillOption =
  | { readonly mode: 'null' | 'none' | 'previous' | 'linear' }
  | { readonly mode: 'number'; readonly value: number | bigint };

/** ORDER BY entry; 1.x only allows `time` (or no name: `ORDER BY DESC`). */
export interface SortField { readonly name: string; readonly ascending: boolean }

export interface SelectStatement {
  readonly kind: 'Select';
  readonly fields: readonly Field[];
  readonly target: Target | null;
  readonly sources: readonly Source[];
  readonly condition: Expr | null;
  /** GROUP BY entries: `time(...)` calls, tag VarRefs, `*`, regexes. */
  readonly dimensions: readonly Expr[];
  readonly fill: FillOption;
  readonly sortFields: readonly SortField[];
  /** 0 = not given (1.x: LIMIT 0 means no limit). */
  readonly limit: number;
  readonly offset: number;
  readonly slimit: number;
  readonly soffset: number;
  /** IANA zone name from TZ('...'), validated at parse time. */
  readonly location: string | null;
  /**
   * Set on a subquery's inner statement only: the tag keys 1.x groups its storage reads by (its
   * iterator options' Dimensions, the outermost statement's GROUP BY tags), not the inner's own.
   * `all` and `regexes` (sources) stand for the inner statement's own GROUP BY tags they match,
   * where those are themselves a wildcard or a regex (expanded only once the sources are known).
   */
  readonly tagSetDims?: TagSetDims;
  /**
   * Set on a subquery's inner raw statement only: the outer statement's `time(...)` dimension,
   * which 1.x's iterator options hand down to a statement without an interval of its own
   * (newIteratorOptionsSubstatement) and a raw statement hands on to its own subqueries.
   */
  readonly inheritedTime?: Expr;
}

/** The outermost GROUP BY tags an inner statement's storage reads are grouped by (SelectStatement.tagSetDims). */
export interface TagSetDims {
  readonly names: readonly string[];
  readonly all: boolean;
  readonly regexes: readonly string[];
}

// ---- factories -------------------------------------------------------------------------------

export const varRef = (name: string, type: DataType | null = null): VarRef => ({ kind: 'VarRef', name, type });
export const wildcard = (type: 'field' | 'tag' | null = null): Wildcard => ({ kind: 'Wildcard', type });
export const call = (name: string, args: readonly Expr[] = []): Call => ({ kind: 'Call', name, args });
export const distinct = (name: string): Distinct => ({ kind: 'Distinct', name });
export const binary = (op: BinaryOp, lhs: Expr, rhs: Expr): Binary => ({ kind: 'Binary', op, lhs, rhs });
export const unary = (op: UnaryOp, expr: Expr): Unary => ({ kind: 'Unary', op, expr });
export const integer = (value: bigint): IntegerLit => ({ kind: 'Integer', value });
export const unsigned = (value: bigint): UnsignedLit => ({ kind: 'Unsigned', value });
export const number = (value: number): NumberLit => ({ kind: 'Number', value });
export const string = (value: string): StringLit => ({ kind: 'String', value });
export const boolean = (value: boolean): BooleanLit => ({ kind: 'Boolean', value });
export const duration = (ns: bigint): DurationLit => ({ kind: 'Duration', ns });
export const regex = (source: string): RegexLit => ({ kind: 'Regex', source });
export const field = (expr: Expr, alias: string | null = null): Field => ({ kind: 'Field', expr, alias });

export function measurement(
  parts: { database?: string; retentionPolicy?: string; name?: string; regex?: RegexLit | null },
): Measurement {
  return {
    kind: 'Measurement',
    database: parts.database ?? '',
    retentionPolicy: parts.retentionPolicy ?? '',
    name: parts.name ?? '',
    regex: parts.regex ?? null,
  };
}

export const subQuery = (statement: SelectStatement): SubQuery => ({ kind: 'SubQuery', statement });

export function target(name: string | null, retentionPolicy = '', database = ''): Target {
  return { kind: 'Target', database, retentionPolicy, name };
}

/** A SELECT with every optional clause at its default; override what you need. */
export function select(
  fields: readonly Field[],
  sources: readonly Source[],
  rest: Partial<Omit<SelectStatement, 'kind' | 'fields' | 'sources'>> = {},
): SelectStatement {
  return {
    kind: 'Select',
    fields,
    target: rest.target ?? null,
    sources,
    condition: rest.condition ?? null,
    dimensions: rest.dimensions ?? [],
    fill: rest.fill ?? { mode: 'null' },
    sortFields: rest.sortFields ?? [],
    limit: rest.limit ?? 0,
    offset: rest.offset ?? 0,
    slimit: rest.slimit ?? 0,
    soffset: rest.soffset ?? 0,
    location: rest.location ?? null,
  };
}
