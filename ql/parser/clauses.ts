/**
 * Clause primitives: token-level parsers for the pieces of SELECT and SHOW that contain no
 * statements (fields, INTO, measurements, WHERE, GROUP BY, fill, ORDER BY, LIMIT..., TZ). Each
 * `xxxAt(input, i)` returns the value and the index after it, or null when the clause is absent,
 * and throws the 1.x ParseError when a started clause is malformed. `primitive()` makes a Parsimmon
 * parser of one, so the grammar composes them like any lexeme.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import * as N from '../ast/nodes.js';
import type { Expr, Field, FillOption, Measurement, SortField, Target } from '../ast/nodes.js';
import { ParseError } from '../errors.js';
import { exprAt, segmentsAt } from './expr.js';
import { peek, regexAt, unexpectedAt } from './lexeme.js';
import { decimalValue, posAt, skipWs } from './scanner.js';
import type { Token } from './scanner.js';

export interface At<T> {
  readonly v: T;
  readonly end: number;
}

/** A Parsimmon parser from a clause primitive (null = soft failure, nothing consumed). */
export function primitive<T>(fn: (input: string, i: number) => At<T> | null): Parser<T> {
  return P((input, i) => {
    const r = fn(input, i);
    return r === null ? P.makeFailure(i, []) : P.makeSuccess(r.end, r.v);
  });
}

const isKw = (t: Token, word: string): boolean => t.type === 'KEYWORD' && t.lit === word;

/** The keyword `word` at `i` (required). */
function requireKw(input: string, i: number, word: string): Token {
  const t = peek(input, i);
  if (!isKw(t, word)) throw unexpectedAt(input, i, [word.toUpperCase()]);
  return t;
}

function requireIdent(input: string, i: number): Token {
  const t = peek(input, i);
  if (t.type !== 'IDENT') throw unexpectedAt(input, i, ['identifier']);
  return t;
}

function requiredExpr(input: string, i: number): At<Expr> {
  const r = exprAt(input, i, true);
  if (r === null) throw unexpectedAt(input, i, ['identifier', 'string', 'number', 'bool']);
  return { v: r.e, end: r.end };
}

/** A regex (where 1.x allows one: fields, dimensions) or an expression. */
function regexOrExpr(input: string, i: number): At<Expr> {
  const re = regexAt(input, i);
  return re === null ? requiredExpr(input, i) : { v: N.regex(re.source), end: re.end };
}

/** `item (, item)*`. */
function list<T>(input: string, i: number, item: (input: string, i: number) => At<T>): At<T[]> {
  const out: T[] = [];
  let at = i;
  for (;;) {
    const r = item(input, at);
    out.push(r.v);
    const t = peek(input, r.end);
    if (t.type !== 'OP' || t.lit !== ',') return { v: out, end: r.end };
    at = t.end;
  }
}

const COMPARISON_OPS: ReadonlySet<string> = new Set(['=', '!=', '=~', '!~', '<', '<=', '>', '>=', 'AND', 'OR']);

/** First boolean operator in a SELECT field (pre-order), which 1.x rejects. */
function badFieldOperator(e: Expr): string | null {
  switch (e.kind) {
    case 'Binary':
      return COMPARISON_OPS.has(e.op) ? e.op : badFieldOperator(e.lhs) ?? badFieldOperator(e.rhs);
    case 'Call':
      for (const a of e.args) {
        const bad = badFieldOperator(a);
        if (bad !== null) return bad;
      }
      return null;
    case 'Unary':
      return badFieldOperator(e.expr);
    default:
      return null;
  }
}

function fieldAt(input: string, i: number): At<Field> {
  const start = skipWs(input, i);
  const r = regexOrExpr(input, i);
  if (r.v.kind !== 'Regex') {
    const bad = badFieldOperator(r.v);
    if (bad !== null) {
      const pos = posAt(input, start);
      throw ParseError.plain(`invalid operator ${bad} in SELECT clause at line ${pos.line}, char ${pos.char}; operator is intended for WHERE clause`);
    }
  }
  const as = peek(input, r.end);
  if (!isKw(as, 'as')) return { v: N.field(r.v), end: r.end };
  const alias = requireIdent(input, as.end);
  return { v: N.field(r.v, alias.lit), end: alias.end };
}

export const fieldsAt = (input: string, i: number): At<Field[]> => list(input, i, fieldAt);

/** `INTO [db.][rp.]m` or `INTO ...:MEASUREMENT`; null when absent (unless required). */
export function targetAt(input: string, i: number, required: boolean): At<Target | null> {
  const t = peek(input, i);
  if (!isKw(t, 'into')) {
    if (required) throw unexpectedAt(input, i, ['INTO']);
    return { v: null, end: i };
  }
  const { segs, end } = segmentsAt(input, requireIdent(input, t.end));
  let parts: Array<string | null> = segs;
  let after = end;
  if (segs.length < 3 && input.startsWith('.:', end)) {
    after = requireKw(input, end + 2, 'measurement').end;
    parts = [...segs, null];
  }
  const [a = '', b = '', c = ''] = parts;
  if (parts.length === 1) return { v: N.target(a), end: after };
  if (parts.length === 2) return { v: N.target(b, a ?? ''), end: after };
  return { v: N.target(c, b ?? '', a ?? ''), end: after };
}

/** `/re/`, `m`, `rp.m`, `db.rp.m`, `db..m`, `rp./re/`, `db.rp./re/`, `db../re/`; null when none starts here. */
export function measurementAt(input: string, i: number): At<Measurement> | null {
  const re = regexAt(input, i);
  if (re !== null) return { v: N.measurement({ regex: N.regex(re.source) }), end: re.end };
  const t = peek(input, i);
  if (t.type !== 'IDENT') return null;
  const { segs, end } = segmentsAt(input, t);
  const [a = '', b = '', c = ''] = segs;
  if (segs.length === 3) return { v: N.measurement({ database: a, retentionPolicy: b, name: c }), end };
  const tail = input.startsWith('./', end) ? regexAt(input, end + 1) : null;
  if (tail !== null) {
    const regex = N.regex(tail.source);
    const m = segs.length === 1 ? N.measurement({ retentionPolicy: a, regex }) : N.measurement({ database: a, retentionPolicy: b, regex });
    return { v: m, end: tail.end };
  }
  throwIfSpacedRegex(input, end);
  return { v: segs.length === 1 ? N.measurement({ name: a }) : N.measurement({ retentionPolicy: a, name: b }), end };
}

const SPACE_THEN_SLASH = /[ \t\n\r]+(?=\/)/y;

/**
 * After one or two name segments 1.x's parseSource tries a regex once more; whitespace and then a
 * `/` there fails in its scanner as `found <the whitespace>, expected regex` (`FROM m /x/`).
 */
function throwIfSpacedRegex(input: string, end: number): void {
  SPACE_THEN_SLASH.lastIndex = end;
  const ws = SPACE_THEN_SLASH.exec(input);
  if (ws !== null) throw ParseError.unexpected(ws[0], ['regex'], posAt(input, end));
}

export function sourcesAt(input: string, i: number): At<Measurement[]> {
  return list(input, i, (s, j) => {
    const m = measurementAt(s, j);
    if (m === null) throw unexpectedAt(s, j, ['identifier']);
    return m;
  });
}

export function whereAt(input: string, i: number): At<Expr | null> {
  const t = peek(input, i);
  return isKw(t, 'where') ? requiredExpr(input, t.end) : { v: null, end: i };
}

export function groupByAt(input: string, i: number): At<Expr[]> {
  const t = peek(input, i);
  if (!isKw(t, 'group')) return { v: [], end: i };
  return list(input, requireKw(input, t.end, 'by').end, regexOrExpr);
}

const onlyTime = (): ParseError => ParseError.plain('only ORDER BY time supported at this time');

function sortFieldAt(input: string, name: Token): At<SortField> {
  const dir = peek(input, name.end);
  if (isKw(dir, 'asc') || isKw(dir, 'desc')) return { v: { name: name.lit, ascending: dir.lit === 'asc' }, end: dir.end };
  return { v: { name: name.lit, ascending: true }, end: name.end };
}

export function orderByAt(input: string, i: number): At<SortField[]> {
  const t = peek(input, i);
  if (!isKw(t, 'order')) return { v: [], end: i };
  const by = requireKw(input, t.end, 'by');
  const first = peek(input, by.end);
  let f: At<SortField>;
  if (isKw(first, 'asc') || isKw(first, 'desc')) {
    f = { v: { name: '', ascending: first.lit === 'asc' }, end: first.end };
  } else if (first.type === 'IDENT') {
    f = sortFieldAt(input, first);
    if (f.v.name !== 'time') throw onlyTime();
  } else {
    throw unexpectedAt(input, by.end, ['identifier', 'ASC', 'DESC']);
  }
  const comma = peek(input, f.end);
  if (comma.type === 'OP' && comma.lit === ',') {
    sortFieldAt(input, requireIdent(input, comma.end));
    throw onlyTime();
  }
  return { v: [f.v], end: f.end };
}

const INT64_MAX = (1n << 63n) - 1n;

export function intAt(input: string, i: number, word: string): At<number> {
  const t = peek(input, i);
  if (!isKw(t, word)) return { v: 0, end: i };
  const n = peek(input, t.end);
  if (n.type !== 'INTEGER') throw unexpectedAt(input, t.end, ['integer']);
  const v = decimalValue(n.lit);
  if (v < 0n) throw ParseError.at(`${word.toUpperCase()} must be >= 0`, posAt(input, n.start));
  return { v: Number(v > INT64_MAX ? INT64_MAX : v), end: n.end };
}

/** A call-looking clause introduced by an identifier (`fill(...)`, `tz(...)`), any case, quoted or not. */
function callClauseAt(input: string, i: number, name: string): At<Expr> | null {
  const t = peek(input, i);
  return t.type === 'IDENT' && t.lit.toLowerCase() === name ? requiredExpr(input, i) : null;
}

function fillOption(e: Expr): FillOption {
  if (e.kind !== 'Call') throw ParseError.plain('fill must be a function call');
  const [arg, ...more] = e.args;
  if (arg === undefined || more.length > 0) throw ParseError.plain('fill requires an argument, e.g.: 0, null, none, previous, linear');
  if (arg.kind === 'VarRef' && arg.type === null) {
    if (arg.name === 'null' || arg.name === 'none' || arg.name === 'previous' || arg.name === 'linear') return { mode: arg.name };
  }
  if (arg.kind === 'Integer' || arg.kind === 'Number') return { mode: 'number', value: arg.value };
  throw ParseError.plain('expected number argument in fill()');
}

const zoneCache = new Map<string, boolean>();

/** Go's time.LoadLocation acceptance, approximated with the ICU zone database (case-sensitive first letter). */
export function isKnownZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  let ok = zoneCache.get(name);
  if (ok === undefined) {
    ok = /^[A-Z][A-Za-z0-9_+\-/]*$/.test(name);
    if (ok) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name });
      } catch {
        ok = false;
      }
    }
    if (zoneCache.size < 1000) zoneCache.set(name, ok);
  }
  return ok;
}

function location(e: Expr): string {
  if (e.kind !== 'Call') throw ParseError.plain('tz must be a function call');
  const [arg, ...more] = e.args;
  if (arg === undefined || more.length > 0) throw ParseError.plain('tz requires exactly one argument');
  if (arg.kind !== 'String') throw ParseError.plain('expected string argument in tz()');
  if (!isKnownZone(arg.value)) throw ParseError.plain(`unable to find time zone ${arg.value}`);
  return arg.value;
}

export interface SelectTail {
  readonly condition: Expr | null;
  readonly dimensions: Expr[];
  readonly fill: FillOption;
  readonly sortFields: SortField[];
  readonly limit: number;
  readonly offset: number;
  readonly slimit: number;
  readonly soffset: number;
  readonly location: string | null;
}

/** Everything after FROM's sources, in 1.x order. */
export function selectTailAt(input: string, i: number): At<SelectTail> {
  const where = whereAt(input, i);
  const group = groupByAt(input, where.end);
  const fillExpr = callClauseAt(input, group.end, 'fill');
  const fill: FillOption = fillExpr === null ? { mode: 'null' } : fillOption(fillExpr.v);
  const order = orderByAt(input, fillExpr?.end ?? group.end);
  const limit = intAt(input, order.end, 'limit');
  const offset = intAt(input, limit.end, 'offset');
  const slimit = intAt(input, offset.end, 'slimit');
  const soffset = intAt(input, slimit.end, 'soffset');
  const tz = callClauseAt(input, soffset.end, 'tz');
  const v: SelectTail = {
    condition: where.v,
    dimensions: group.v,
    fill,
    sortFields: order.v,
    limit: limit.v,
    offset: offset.v,
    slimit: slimit.v,
    soffset: soffset.v,
    location: tz === null ? null : location(tz.v),
  };
  return { v, end: tz?.end ?? soffset.end };
}
