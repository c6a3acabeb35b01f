/**
 * Expressions: operands (parseUnaryExpr in influxql) and binary operators folded by the one
 * precedence table below. Binary operators are left-associative. Parentheses group but are not
 * kept in the AST.
 */
import P from 'parsimmon';
import type { Parser, TypedRule } from 'parsimmon';
import { parseDuration } from '../ast/duration.js';
import { identNeedsQuotes, quoteIdentAlways } from '../ast/keywords.js';
import * as N from '../ast/nodes.js';
import type { BinaryOp, DataType, Expr } from '../ast/nodes.js';
import { PRECEDENCE } from '../ast/precedence.js';
import { ParseError } from '../errors.js';
import type { Grammar } from './language.js';
import { expect, fatal, ident, keyword, nextCharIn, nextCharNotIn, peek, regexLit, sym, tight, token, unexpectedAt } from './lexeme.js';
import { isWs, posAt } from './scanner.js';
import type { Token } from './scanner.js';

const SYMBOL_OPS: ReadonlySet<string> = new Set(Object.keys(PRECEDENCE).filter((k) => k !== 'OR' && k !== 'AND'));

function isBinaryOp(s: string): s is BinaryOp {
  return Object.hasOwn(PRECEDENCE, s);
}

const binaryOp: Parser<BinaryOp> = P((input, i) => {
  const t = peek(input, i);
  const op = t.type === 'OP' && SYMBOL_OPS.has(t.lit) ? t.lit : t.type === 'KEYWORD' && (t.lit === 'and' || t.lit === 'or') ? t.lit.toUpperCase() : '';
  return isBinaryOp(op) ? P.makeSuccess(t.end, op) : P.makeFailure(i, 'operator');
});

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

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** INTEGER token → Integer (int64) or Unsigned (beyond int64), as 1.x. */
function integerNode(input: string, t: Token): Expr {
  const v = BigInt(t.lit);
  if (v <= INT64_MAX) return N.integer(v);
  if (v <= UINT64_MAX) return N.unsigned(v);
  throw ParseError.at('unable to parse integer', posAt(input, t.start));
}

/** Literal tokens: strings, numbers, integers, booleans, durations; unbound `$params` are errors. */
const literal: Parser<Expr> = P((input, i) => {
  const t = peek(input, i);
  switch (t.type) {
    case 'STRING': return P.makeSuccess(t.end, N.string(t.lit));
    case 'TRUE': case 'FALSE': return P.makeSuccess(t.end, N.boolean(t.type === 'TRUE'));
    case 'INTEGER': return P.makeSuccess(t.end, integerNode(input, t));
    case 'NUMBER': {
      const v = Number(t.lit);
      if (!Number.isFinite(v)) throw ParseError.at('unable to parse number', posAt(input, t.start));
      return P.makeSuccess(t.end, N.number(v));
    }
    case 'DURATIONVAL': {
      const d = parseDuration(t.lit);
      if (!d.ok) throw ParseError.plain(d.error);
      return P.makeSuccess(t.end, N.duration(d.ns));
    }
    case 'BOUNDPARAM':
      throw ParseError.plain(t.lit === '' ? 'empty bound parameter' : `missing parameter: ${t.lit}`);
    default:
      return P.makeFailure(i, 'literal');
  }
});

const TYPE_NAMES: ReadonlySet<string> = new Set(['float', 'integer', 'unsigned', 'string', 'boolean']);

function isDataType(s: string): s is DataType {
  return TYPE_NAMES.has(s) || s === 'field' || s === 'tag';
}

/** `::type` after a variable reference (no whitespace before `::`). */
const typeHint: Parser<DataType> = tight('::').then(
  P((input, i) => {
    const t = peek(input, i);
    const name = t.type === 'IDENT' ? t.lit.toLowerCase() : t.type === 'KEYWORD' ? t.lit : '';
    const ok = (t.type === 'IDENT' && TYPE_NAMES.has(name)) || (t.type === 'KEYWORD' && (name === 'field' || name === 'tag'));
    if (ok && isDataType(name)) return P.makeSuccess(t.end, name);
    const expected = t.type === 'IDENT'
      ? ['float', 'integer', 'unsigned', 'string', 'boolean', 'field', 'tag']
      : ['float', 'integer', 'string', 'boolean', 'field', 'tag'];
    throw unexpectedAt(input, i, expected);
  }),
);

/** 1.x QuoteIdent over several segments (used in "too many segments in ..."). */
function quoteSegments(segs: readonly string[]): string {
  return segs
    .map((s, k) => {
      const last = k === segs.length - 1;
      const quote = identNeedsQuotes(s) || (!last && s !== '') || ((k === 0 || last) && s === '');
      return quote ? quoteIdentAlways(s) : s;
    })
    .join('.');
}

/** `.seg` after an identifier; `..` gives an empty segment; stops (consuming nothing) before `./re/` and `.:`. */
const dotSegment: Parser<string> = tight('.').then(
  P.alt(nextCharIn('.').map(() => ''), nextCharNotIn('/:').then(expect(ident, 'identifier'))),
);

/** `a`, `db.rp.m`, `db..m`: at most three segments (1.x "too many segments in ..."). */
export const segmentedIdents: Parser<string[]> = P.seqMap(ident, dotSegment.many(), (first, rest) => [first, ...rest]).chain(
  (segs) =>
    segs.length <= 3
      ? P.succeed(segs)
      : P<never>(() => {
          throw ParseError.at(`too many segments in ${quoteSegments(segs)}`, { line: 1, char: 1 });
        }),
);

export type ExprRules = Pick<TypedRule<Grammar>, 'expr' | 'operand' | 'callArgs'>;

const operandStart = token(
  (t) => ['IDENT', 'STRING', 'NUMBER', 'INTEGER', 'DURATIONVAL', 'TRUE', 'FALSE', 'BOUNDPARAM'].includes(t.type)
    || (t.type === 'KEYWORD' && t.lit === 'distinct') || (t.type === 'OP' && t.lit === '('),
  'operand',
);

export const exprRules: ExprRules = {
  expr: (r) =>
    P.seqMap(
      r.operand,
      binaryOp
        .chain((op) =>
          (op === '=~' || op === '!~' ? expect(regexLit.map(N.regex), 'regex') : expect(r.operand, 'identifier', 'string', 'number', 'bool'))
            .map((rhs): readonly [BinaryOp, Expr] => [op, rhs]))
        .many(),
      fold,
    ),

  operand: (r) => {
    const paren = sym('(').then(r.expr).skip(expect(sym(')'), ')'));
    const not = keyword('not').skip(P.lookahead(operandStart))
      .then(r.operand)
      .map((e) => N.unary('NOT', e));
    const callOrRef = P.alt(
      P.seqMap(ident, tight('(').then(r.callArgs), (name, args) => N.call(name.toLowerCase(), args)),
      P.seqMap(segmentedIdents, typeHint.or(P.succeed(null)), (segs, type) => N.varRef(segs.join('.'), type)),
    );
    const distinct = keyword('distinct').then(
      P.alt(
        tight('(').then(r.callArgs).map((args) => N.call('distinct', args)),
        P((input, i) => (isWs(input.charCodeAt(i)) ? P.makeSuccess(i, null) : P.makeFailure(i, '')))
          .then(expect(ident, 'identifier'))
          .map(N.distinct),
        fatal('(', 'identifier'),
      ),
    );
    const wildcard = sym('*').then(
      tight('::').then(expect(P.alt(keyword('field').map(() => 'field' as const), keyword('tag').map(() => 'tag' as const)), 'field', 'tag'))
        .or(P.succeed(null)),
    ).map(N.wildcard);
    const signed = P.alt(sym('-'), sym('+')).chain((sign) => {
      const wrap = (e: Expr): Expr => (sign === '-' ? N.unary('-', e) : e);
      return expect(
        P.alt(literal.chain((lit) => negateLiteral(sign, lit)), paren.map(wrap), callOrRef.map(wrap)),
        'identifier', 'number', 'duration', '(',
      );
    });
    return P.alt(paren, not, callOrRef, distinct, literal, wildcard, signed);
  },

  callArgs: (r) =>
    P.alt(
      tight(')').map((): Expr[] => []),
      P.sepBy1(regexLit.map((s): Expr => N.regex(s)).or(r.expr.or(fatal('identifier', 'string', 'number', 'bool'))), sym(','))
        .skip(expect(sym(')'), ')')),
    ),
};

/** `-5`, `-1.5`, `-10s` fold into the literal (1.x); other literals after a sign are errors. */
function negateLiteral(sign: string, lit: Expr): Parser<Expr> {
  const neg = sign === '-';
  switch (lit.kind) {
    case 'Integer': return P.succeed(neg ? N.integer(-lit.value) : lit);
    case 'Number': return P.succeed(neg ? N.number(-lit.value) : lit);
    case 'Duration': return P.succeed(neg ? N.duration(BigInt.asIntN(64, -lit.ns)) : lit);
    case 'Unsigned':
      if (!neg) return P.succeed(lit);
      if (lit.value === 1n << 63n) return P.succeed(N.integer(-lit.value));
      return P<never>(() => {
        throw ParseError.plain(`constant -${lit.value} underflows int64`);
      });
    default:
      return P.fail('number');
  }
}
