/**
 * Lexemes: the Parsimmon primitives every grammar file builds on. Each skips leading whitespace and
 * comments and matches one InfluxQL token (./scanner.ts), so `keyword('from')` is case-insensitive
 * and refuses `fromage` (a word is always read to its end: no `[A-Za-z0-9_]` may follow).
 *
 * Error model. The grammar is LL(1) like influxql's recursive-descent parser: optional clauses and
 * alternatives are decided by the next token, and once a statement has committed, a missing token
 * throws a ParseError (`expect`, `fatal`) with the 1.x "found X, expected Y" text. Soft Parsimmon
 * failures therefore only ever happen at a clause's first token, which also means no backtracking
 * and linear time on any input.
 *
 * Expressions and clauses (./expr.ts, ./clauses.ts) are token-level primitives over the same
 * `peek()` for speed (perf/PARSER.md); the grammar composes them like any other lexeme.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import { isKeyword } from '../ast/keywords.js';
import { re2Error } from '../ast/re2.js';
import { ParseError } from '../errors.js';
import type { SourcePos } from '../errors.js';
import { boundRegex, paramsVersion } from './params.js';
import { describeToken, eofPos, isWs, nextToken, posAt, scanRaw, skipWs } from './scanner.js';
import type { Token } from './scanner.js';

// One-entry cache: optional clauses peek at the same token several times in a row.
let cacheInput = '';
let cacheAt = -1;
let cacheVersion = -1;
let cacheTok: Token = { type: 'EOF', lit: '', start: 0, end: 0, quoted: true };

let scans = 0;

/** Tokens scanned so far (cache misses): tests bound the parser's work by it. */
export function tokensScanned(): number {
  return scans;
}

/** The token at or after `i` (cached). */
export function peek(input: string, i: number): Token {
  const v = paramsVersion();
  if (i !== cacheAt || input !== cacheInput || v !== cacheVersion) {
    scans++;
    cacheTok = nextToken(input, i);
    cacheInput = input;
    cacheAt = i;
    cacheVersion = v;
  }
  return cacheTok;
}

/** The 1.x error for finding the token at `i` where one of `expected` was required. */
export function unexpectedAt(input: string, i: number, expected: readonly string[]): ParseError {
  const t = peek(input, i);
  const pos = t.type === 'EOF' ? eofPos(input) : tokenPos(input, t);
  return ParseError.unexpected(describeToken(t), expected, pos);
}

/**
 * Where 1.x reports a token: its start, except single-quoted strings and unterminated
 * double-quoted names, which its scanner reports at the rune before the opening quote, and a bad
 * escape in a quoted string or name, reported at the escaped rune.
 */
function tokenPos(input: string, t: Token): SourcePos {
  if (t.type === 'BADESCAPE') return posAt(input, t.end - 1);
  if (input.charCodeAt(t.start) === 34 && t.type === 'BADSTRING') {
    const p = posAt(input, t.start);
    return { line: p.line, char: Math.max(1, p.char - 1) };
  }
  const p = posAt(input, t.start);
  const early = input.charCodeAt(t.start) === 39 && (t.type === 'STRING' || t.type === 'BADSTRING');
  return early ? { line: p.line, char: Math.max(1, p.char - 1) } : p;
}

/** Always throws the "found X, expected ..." error at the current token. */
export function fatal(...expected: string[]): Parser<never> {
  return P<never>((input, i) => {
    throw unexpectedAt(input, i, expected);
  });
}

/** `p`, or the "found X, expected ..." error when `p` does not match here. */
export function expect<T>(p: Parser<T>, ...expected: string[]): Parser<T> {
  return p.or(fatal(...expected));
}

/** Throws a ParseError built from the current position (for checks on already-parsed values). */
export function failWith(make: (pos: { input: string; index: number }) => ParseError): Parser<never> {
  return P<never>((input, i) => {
    throw make({ input, index: i });
  });
}

/** Matches one token satisfying `pred`; soft failure (`expected`) otherwise. */
export function token(pred: (t: Token) => boolean, expected: string): Parser<Token> {
  return P((input, i) => {
    const t = peek(input, i);
    return pred(t) ? P.makeSuccess(t.end, t) : P.makeFailure(i, expected);
  });
}

/**
 * Case-insensitive keyword. Reserved words (ast/keywords.ts) match only as keyword tokens; Strata's
 * contextual words (MATERIALIZED, VIEW, ...) match an unquoted identifier with that spelling.
 */
export function keyword(word: string): Parser<string> {
  const w = word.toLowerCase();
  const upper = word.toUpperCase();
  return P((input, i) => {
    const t = peek(input, i);
    const ok = t.type === 'KEYWORD' ? t.lit === w : t.type === 'IDENT' && !t.quoted && t.lit.toLowerCase() === w;
    return ok ? P.makeSuccess(t.end, upper) : P.makeFailure(i, upper);
  });
}

/** An operator or punctuation token (`,`, `(`, `=~`, ...) after optional whitespace. */
export function sym(s: string): Parser<string> {
  return token((t) => t.type === 'OP' && t.lit === s, s).map(() => s);
}

/** Like sym() but with no whitespace before it (`mean(`, `::`, `db.rp`). */
export function tight(s: string): Parser<string> {
  return P((input, i) => (input.startsWith(s, i) && skipWs(input, i) === i ? P.makeSuccess(i + s.length, s) : P.makeFailure(i, s)));
}

/** An identifier: bare non-keyword word or double-quoted name (escapes resolved). */
export const ident: Parser<string> = token((t) => t.type === 'IDENT', 'identifier').map((t) => t.lit);

export const stringLit: Parser<string> = token((t) => t.type === 'STRING', 'string').map((t) => t.lit);
export const integerTok: Parser<Token> = token((t) => t.type === 'INTEGER', 'integer');
export const durationTok: Parser<Token> = token((t) => t.type === 'DURATIONVAL', 'duration');

/** The end of input (soft). */
export const eof: Parser<null> = token((t) => t.type === 'EOF', 'EOF').map(() => null);

/**
 * A regex literal `/.../` (only where 1.x calls parseRegex: sources, fields, call arguments,
 * dimensions, after =~ / !~). `\/` is an escaped slash; other escapes pass through to RE2.
 * Soft failure when the next character is not `/`; a bad regex throws the 1.x error.
 */
export const regexLit: Parser<string> = P((input, i) => {
  const r = regexAt(input, i);
  return r === null ? P.makeFailure(i, 'regex') : P.makeSuccess(r.end, r.source);
});

/** The regex literal at `i` (after whitespace), null when there is none; throws on a bad one. */
export function regexAt(input: string, i: number): { source: string; end: number } | null {
  let j = i;
  while (isWs(input.charCodeAt(j))) j++; // whitespace only: `/*` here starts a regex, as in 1.x
  if (input.charCodeAt(j) === 36) return boundRegexAt(input, j);
  if (input.charCodeAt(j) !== 47) return null;
  let out = '';
  let k = j + 1;
  for (;;) {
    const c = input[k];
    if (c === undefined || c === '\n' || c === '\r') throw ParseError.at('bad regex: ', regexErrorPos(input, j));
    if (c === '/') break;
    if (c === '\\' && input[k + 1] === '/') {
      out += '/';
      k += 2;
    } else {
      out += c;
      k++;
    }
  }
  const err = re2Error(out);
  if (err !== null) throw ParseError.at(err, regexErrorPos(input, j));
  return { source: out, end: k + 1 };
}

/** A `$name` bound to `{"regex": ...}` (1.x: a REGEX token); its errors point at the `$`. */
function boundRegexAt(input: string, j: number): { source: string; end: number } | null {
  const t = scanRaw(input, j);
  const source = t.type === 'BOUNDPARAM' ? boundRegex(t.lit) : undefined;
  if (source === undefined) return null;
  const err = re2Error(source);
  if (err !== null) throw ParseError.at(err, posAt(input, j));
  return { source, end: t.end };
}

/** 1.x reports regex errors at the rune before the opening `/` (its reader's current rune). */
function regexErrorPos(input: string, slash: number): SourcePos {
  const p = posAt(input, slash);
  return { line: p.line, char: Math.max(1, p.char - 1) };
}

/** `p` or null. */
export function opt<T>(p: Parser<T>): Parser<T | null> {
  return p.or(P.succeed(null));
}

/** `kw` followed by `p` (committed once `kw` matched), or null when `kw` is absent. */
export function clause<T>(kw: Parser<unknown>, p: Parser<T>): Parser<T | null> {
  return opt(kw.then(p));
}

/**
 * Dispatch on the next word, like influxql's ParseTree: `entries` in registration order give the
 * expected list when nothing matches (e.g. "expected SELECT, DELETE, SHOW, ..."). Entries marked
 * `hidden` (Strata's own statements) parse but stay out of that list, so 1.x texts are unchanged.
 */
export function dispatch<T>(entries: ReadonlyArray<readonly [string, Parser<T>] | readonly [string, Parser<T>, 'hidden']>): Parser<T> {
  const expected = entries.filter((e) => e[2] !== 'hidden').map(([w]) => w.toUpperCase());
  const table = new Map<string, Parser<T>>(entries.map(([w, p]) => [w, afterToken.then(p)]));
  const none = fatal(...expected);
  // One lookup instead of trying each keyword in turn: statement words are all bare words.
  return P((input, i) => P.makeSuccess(i, peek(input, i))).chain((t) => {
    const word = t.type === 'KEYWORD' ? t.lit : t.type === 'IDENT' && !t.quoted ? t.lit.toLowerCase() : '';
    const p = table.get(word);
    return p !== undefined && (t.type === 'IDENT' ? !isKeyword(word) : true) ? p : none;
  });
}

/** Consumes the token at the current position (after a dispatch decided on it). */
const afterToken: Parser<null> = P((input, i) => P.makeSuccess(peek(input, i).end, null));

