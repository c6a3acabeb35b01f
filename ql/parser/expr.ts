/**
 * Expressions. Operands follow influxql's parseUnaryExpr; binary operators are folded by the one
 * precedence table (../ast/precedence.ts), left-associative. Parentheses group but are not kept.
 *
 * Why a hand-written primitive instead of Parsimmon combinators: expressions are most of a query's
 * tokens, and every Parsimmon combinator step merges replies (allocating a Set for the expected
 * lists), which made the dashboard query cost ~190 µs. This precedence climber runs inside one
 * Parsimmon primitive over the same tokens and lexemes, keeps the 1.x error texts, and is ~10x
 * faster (perf/PARSER.md). Statements and clauses stay Parsimmon combinators.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import { identNeedsQuotes, quoteIdentAlways } from '../ast/keywords.js';
import * as N from '../ast/nodes.js';
import type { BinaryOp, DataType, Expr } from '../ast/nodes.js';
import { PRECEDENCE } from '../ast/precedence.js';
import { ParseError } from '../errors.js';
import { peek, regexAt, unexpectedAt } from './lexeme.js';
import { literalOf, negate } from './literal.js';
import { recordLiteral } from './literal-origins.js';
import { isWs } from './scanner.js';
import type { Token } from './scanner.js';

const OPERAND_EXPECTED = ['identifier', 'string', 'number', 'bool'];
const SIGNED_EXPECTED = ['identifier', 'number', 'duration', '('];
/** Nesting bound (parentheses, calls, NOT) so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 500;

const SYMBOL_OPS: ReadonlySet<string> = new Set(Object.keys(PRECEDENCE).filter((k) => k !== 'OR' && k !== 'AND'));

function isBinaryOp(s: string): s is BinaryOp {
  return Object.hasOwn(PRECEDENCE, s);
}

function binaryOpOf(t: Token): BinaryOp | null {
  const op = t.type === 'OP' && SYMBOL_OPS.has(t.lit) ? t.lit : t.type === 'KEYWORD' && (t.lit === 'and' || t.lit === 'or') ? t.lit.toUpperCase() : '';
  return isBinaryOp(op) ? op : null;
}

/** Folds `first (op operand)*` by PRECEDENCE, left-associative (precedence climbing). */
function fold(first: Expr, rest: ReadonlyArray<readonly [BinaryOp, Expr]>): Expr {
  let k = 0;
  const climb = (lhs: Expr, min: number): Expr => {
    for (let next = rest[k]; next !== undefined && PRECEDENCE[next[0]] >= min; next = rest[k]) {
      k++;
      let rhs = next[1];
      for (let ahead = rest[k]; ahead !== undefined && PRECEDENCE[ahead[0]] > PRECEDENCE[next[0]]; ahead = rest[k]) {
        rhs = climb(rhs, PRECEDENCE[ahead[0]]);
      }
      lhs = N.binary(next[0], lhs, rhs);
    }
    return lhs;
  };
  return climb(first, 0);
}

/** 1.x QuoteIdent over several segments (used in "too many segments in ..."); an empty middle segment stays bare (`"a".."b"`). */
function quoteSegments(segs: readonly string[]): string {
  return segs
    .map((s, k) => {
      const last = k === segs.length - 1;
      const quote = (s !== '' && identNeedsQuotes(s)) || (!last && s !== '') || ((k === 0 || last) && s === '');
      return quote ? quoteIdentAlways(s) : s;
    })
    .join('.');
}

/**
 * `a`, `db.rp.m`, `db..m` from the identifier token `first`. Stops before `./re/` and `.:` (left to
 * sources and INTO targets). At most three segments.
 */
export function segmentsAt(input: string, first: Token): { segs: string[]; end: number } {
  const segs = [first.lit];
  let end = first.end;
  while (input.charCodeAt(end) === 46) {
    const next = input[end + 1];
    if (next === '.') {
      segs.push('');
      end += 1;
    } else if (next === '/' || next === ':') {
      break;
    } else {
      const t = peek(input, end + 1);
      if (t.type !== 'IDENT') throw unexpectedAt(input, end + 1, ['identifier']);
      segs.push(t.lit);
      end = t.end;
    }
  }
  if (segs.length > 3) throw ParseError.at(`too many segments in ${quoteSegments(segs)}`, { line: 1, char: 1 });
  return { segs, end };
}

/** Segmented identifiers as a lexeme (sources, targets). */
export const segmentedIdents: Parser<string[]> = P((input, i) => {
  const t = peek(input, i);
  if (t.type !== 'IDENT') return P.makeFailure(i, 'identifier');
  const { segs, end } = segmentsAt(input, t);
  return P.makeSuccess(end, segs);
});

const TYPE_NAMES: ReadonlySet<string> = new Set(['float', 'integer', 'unsigned', 'string', 'boolean']);

function isDataType(s: string): s is DataType {
  return TYPE_NAMES.has(s) || s === 'field' || s === 'tag';
}

/** The recursive-descent core; one instance per parse of an expression. */
class ExprParser {
  constructor(private readonly input: string) {}

  /** An expression at `i`; null when the first token cannot start one and `required` is false. */
  expr(i: number, required: boolean, depth: number): { e: Expr; end: number } | null {
    const first = this.operand(i, depth);
    if (first === null) {
      if (required) throw unexpectedAt(this.input, i, OPERAND_EXPECTED);
      return null;
    }
    let end = first.end;
    const rest: Array<readonly [BinaryOp, Expr]> = [];
    for (;;) {
      const t = peek(this.input, end);
      const op = binaryOpOf(t);
      if (op === null) break;
      if (op === '=~' || op === '!~') {
        const re = regexAt(this.input, t.end);
        if (re === null) throw unexpectedAt(this.input, t.end, ['regex']);
        rest.push([op, N.regex(re.source)]);
        end = re.end;
      } else {
        const rhs = this.operand(t.end, depth);
        if (rhs === null) throw unexpectedAt(this.input, t.end, OPERAND_EXPECTED);
        rest.push([op, rhs.e]);
        end = rhs.end;
      }
    }
    return { e: rest.length === 0 ? first.e : fold(first.e, rest), end };
  }

  operand(i: number, depth: number): { e: Expr; end: number } | null {
    if (depth > MAX_DEPTH) throw ParseError.plain('expression nesting too deep');
    const input = this.input;
    const t = peek(input, i);
    if (t.type === 'OP') {
      if (t.lit === '(') {
        const inner = this.expr(t.end, true, depth + 1);
        if (inner === null) return null;
        const close = peek(input, inner.end);
        if (close.type !== 'OP' || close.lit !== ')') throw unexpectedAt(input, inner.end, [')']);
        return { e: inner.e, end: close.end };
      }
      if (t.lit === '-' || t.lit === '+') return this.signed(t, depth);
      if (t.lit === '*') return this.wildcard(t);
      return null;
    }
    if (t.type === 'KEYWORD') return t.lit === 'distinct' ? this.distinct(t, depth) : null;
    if (t.type === 'IDENT') {
      if (!t.quoted && t.lit.toLowerCase() === 'not' && startsOperand(peek(input, t.end))) {
        const inner = this.operand(t.end, depth + 1);
        return inner === null ? null : { e: N.unary('NOT', inner.e), end: inner.end };
      }
      if (input.charCodeAt(t.end) === 40) {
        const { args, end } = this.callArgs(t.end + 1, depth + 1);
        return { e: N.call(t.lit.toLowerCase(), args), end };
      }
      return this.varRef(t);
    }
    // 1.x's scanner gives a `$name` bound to {"regex": ...} as a REGEX token, and its unary
    // expression takes one anywhere: `t = $re` is a comparison with a regex literal
    const re = t.type === 'ILLEGAL' && input.charCodeAt(t.start) === 36 ? regexAt(input, i) : null;
    if (re !== null) return { e: N.regex(re.source), end: re.end };
    const lit = literalOf(input, t);
    if (lit === null) return null;
    recordLiteral(lit, t, false);
    return { e: lit, end: t.end };
  }

  private signed(sign: Token, depth: number): { e: Expr; end: number } {
    const t = peek(this.input, sign.end);
    if (t.type === 'NUMBER' || t.type === 'INTEGER' || t.type === 'DURATIONVAL') {
      const lit = literalOf(this.input, t);
      const e = lit === null || sign.lit === '+' ? lit : negate(lit);
      if (e !== null) {
        recordLiteral(e, t, e !== lit);
        return { e, end: t.end };
      }
    }
    if (t.type === 'IDENT' || (t.type === 'OP' && t.lit === '(')) {
      const inner = this.operand(sign.end, depth + 1);
      if (inner !== null) return sign.lit === '-' ? { e: N.unary('-', inner.e), end: inner.end } : inner;
    }
    throw unexpectedAt(this.input, sign.end, SIGNED_EXPECTED);
  }

  private wildcard(star: Token): { e: Expr; end: number } {
    if (!this.input.startsWith('::', star.end)) return { e: N.wildcard(), end: star.end };
    const t = peek(this.input, star.end + 2);
    if (t.type === 'KEYWORD' && (t.lit === 'field' || t.lit === 'tag')) return { e: N.wildcard(t.lit), end: t.end };
    throw unexpectedAt(this.input, star.end + 2, ['field', 'tag']);
  }

  private distinct(kw: Token, depth: number): { e: Expr; end: number } {
    const c = this.input.charCodeAt(kw.end);
    if (c === 40) {
      const { args, end } = this.callArgs(kw.end + 1, depth + 1);
      return { e: N.call('distinct', args), end };
    }
    if (isWs(c)) {
      const t = peek(this.input, kw.end);
      if (t.type !== 'IDENT') throw unexpectedAt(this.input, kw.end, ['identifier']);
      return { e: N.distinct(t.lit), end: t.end };
    }
    throw unexpectedAt(this.input, kw.end, ['(', 'identifier']);
  }

  private varRef(first: Token): { e: Expr; end: number } {
    const { segs, end } = segmentsAt(this.input, first);
    const name = segs.join('.');
    if (!this.input.startsWith('::', end)) return { e: N.varRef(name), end };
    const t = peek(this.input, end + 2);
    const type = t.type === 'IDENT' ? t.lit.toLowerCase() : t.type === 'KEYWORD' ? t.lit : '';
    const ok = (t.type === 'IDENT' && TYPE_NAMES.has(type)) || (t.type === 'KEYWORD' && (type === 'field' || type === 'tag'));
    if (ok && isDataType(type)) return { e: N.varRef(name, type), end: t.end };
    const expected = t.type === 'IDENT'
      ? ['float', 'integer', 'unsigned', 'string', 'boolean', 'field', 'tag']
      : ['float', 'integer', 'string', 'boolean', 'field', 'tag'];
    throw unexpectedAt(this.input, end + 2, expected);
  }

  /** Arguments after `(` through `)`; each is a regex or an expression. */
  callArgs(i: number, depth: number): { args: Expr[]; end: number } {
    if (this.input.charCodeAt(i) === 41) return { args: [], end: i + 1 };
    const args: Expr[] = [];
    let at = i;
    for (;;) {
      const re = regexAt(this.input, at);
      let end: number;
      if (re !== null) {
        args.push(N.regex(re.source));
        end = re.end;
      } else {
        const arg = this.expr(at, true, depth);
        if (arg === null) throw unexpectedAt(this.input, at, OPERAND_EXPECTED);
        args.push(arg.e);
        end = arg.end;
      }
      const t = peek(this.input, end);
      if (t.type === 'OP' && t.lit === ',') {
        at = t.end;
      } else if (t.type === 'OP' && t.lit === ')') {
        return { args, end: t.end };
      } else {
        throw unexpectedAt(this.input, end, [')']);
      }
    }
  }
}

/** Tokens after which a contextual NOT is the operator (otherwise `not` is an identifier). */
function startsOperand(t: Token): boolean {
  switch (t.type) {
    case 'IDENT': case 'STRING': case 'NUMBER': case 'INTEGER': case 'DURATIONVAL': case 'TRUE': case 'FALSE': case 'BOUNDPARAM':
      return true;
    case 'KEYWORD': return t.lit === 'distinct';
    case 'OP': return t.lit === '(';
    default: return false;
  }
}

/** An expression (soft failure when the next token cannot start one). */
export const expr: Parser<Expr> = P((input, i) => {
  const r = new ExprParser(input).expr(i, false, 0);
  return r === null ? P.makeFailure(i, 'expression') : P.makeSuccess(r.end, r.e);
});

/** An expression at `i` for other primitives; null when none starts there and `required` is false. */
export function exprAt(input: string, i: number, required: boolean): { e: Expr; end: number } | null {
  return new ExprParser(input).expr(i, required, 0);
}
