/**
 * The InfluxQL token scanner (influxql/scanner.go semantics), used underneath the Parsimmon lexemes
 * and to describe the token an error was found at. Every function is total: any input yields a token
 * (ILLEGAL, BADSTRING, ... for garbage) and never throws.
 *
 * Notable 1.x behaviours kept on purpose:
 * - whitespace is space, tab, \n and \r; `--` comments run to the end of the line, `/* *\/` comments
 *   do not nest (an unterminated one is ILLEGAL);
 * - digits followed by letters form one DURATIONVAL token (`10s`, `1h30m`, `5x` - the last one is an
 *   invalid duration, not a number and an identifier);
 * - `5.` is the NUMBER 5; `.5` is a NUMBER;
 * - a word ending in a double quote is the quoted name alone: `v"x"` is the identifier `x`, even
 *   after a keyword (`FROM"m"` is the identifier `m`), and `$a"b"` the parameter `b` (scanIdent
 *   turns to scanString at a `"` and drops what it read). Clients that quote names without
 *   escaping send such words: the ruby gem writes `"one "day""` for the name `one "day"`;
 * - a `$name` is a bound parameter, replaced by the token its value stands for (see ./params.ts).
 */
import { isKeyword } from '../ast/keywords.js';
import type { SourcePos } from '../errors.js';
import { boundToken } from './params.js';

export type TokType =
  | 'EOF' | 'IDENT' | 'KEYWORD' | 'BOUNDPARAM' | 'NUMBER' | 'INTEGER' | 'DURATIONVAL'
  | 'STRING' | 'BADSTRING' | 'BADESCAPE' | 'TRUE' | 'FALSE' | 'OP' | 'ILLEGAL';

export interface Token {
  readonly type: TokType;
  /** IDENT/STRING: unescaped text; KEYWORD: lower-case word; OP: the operator; numbers: digits. */
  readonly lit: string;
  readonly start: number;
  readonly end: number;
  /** Bare words (and `--` comments, whitespace) read one past the end in 1.x: see eofPos(). */
  readonly quoted: boolean;
  /** BOUNDPARAM of a value 1.x cannot bind: `lit` is the reason, not the parameter's name (params.ts). */
  readonly reason?: true;
}

const enum C {
  Tab = 9, Nl = 10, Cr = 13, Space = 32, Bang = 33, DQuote = 34, Dollar = 36, Pct = 37, Amp = 38,
  SQuote = 39, LParen = 40, RParen = 41, Star = 42, Plus = 43, Comma = 44, Minus = 45, Dot = 46,
  Slash = 47, Zero = 48, Nine = 57, Colon = 58, Semi = 59, Lt = 60, Eq = 61, Gt = 62, Backslash = 92,
  Caret = 94, Underscore = 95, Pipe = 124, Tilde = 126, Micro = 0xb5,
}

export const isWs = (c: number): boolean => c === C.Space || c === C.Tab || c === C.Nl || c === C.Cr;
export const isDigit = (c: number): boolean => c >= C.Zero && c <= C.Nine;
export const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** 1 for the identifier characters [A-Za-z0-9_] (index: char code); scanning loops index it directly (no call per character). */
export const IDENT_CHARS: Uint8Array = Uint8Array.from({ length: 128 }, (_, c) => ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 ? 1 : 0));
export const isIdentChar = (c: number): boolean => IDENT_CHARS[c] === 1;

/** Index of the first character after whitespace and comments (an unterminated block comment stops it). */
export function skipWs(s: string, i: number): number {
  const n = s.length;
  for (;;) {
    const c = s.charCodeAt(i);
    if (isWs(c)) {
      i++;
    } else if (c === C.Minus && s.charCodeAt(i + 1) === C.Minus) {
      i += 2;
      for (let d = s.charCodeAt(i); i < n && d !== C.Nl && d !== C.Cr; d = s.charCodeAt(++i));
    } else if (c === C.Slash && s.charCodeAt(i + 1) === C.Star) {
      const end = s.indexOf('*/', i + 2);
      if (end < 0) return i;
      i = end + 2;
    } else {
      return i;
    }
  }
}

/** Reads a quoted string/identifier starting at the quote; 1.x escapes are \n \\ \" \'. */
function scanQuoted(s: string, i: number, type: 'STRING' | 'IDENT'): Token {
  const quote = s.charCodeAt(i);
  let out = '';
  let j = i + 1;
  let runStart = j;
  for (;;) {
    if (j >= s.length) return { type: 'BADSTRING', lit: out + s.slice(runStart, j), start: i, end: j, quoted: true };
    const c = s.charCodeAt(j);
    if (c === quote) {
      return { type, lit: out + s.slice(runStart, j), start: i, end: j + 1, quoted: true };
    } else if (c === C.Nl || c === C.Cr) {
      return { type: 'BADSTRING', lit: out + s.slice(runStart, j), start: i, end: j, quoted: true };
    } else if (c === C.Backslash) {
      out += s.slice(runStart, j);
      const e = s.charCodeAt(j + 1);
      if (e === 110) out += '\n';
      else if (e === C.Backslash || e === C.DQuote || e === C.SQuote) out += s[j + 1];
      else return { type: 'BADESCAPE', lit: '\\' + (s[j + 1] ?? ''), start: i, end: Math.min(j + 2, s.length), quoted: true };
      j += 2;
      runStart = j;
    } else {
      j++;
    }
  }
}

function scanNumber(s: string, i: number): Token {
  let j = i;
  while (isDigit(s.charCodeAt(j))) j++;
  let lit = s.slice(i, j);
  if (s.charCodeAt(j) === C.Dot) {
    j++;
    if (isDigit(s.charCodeAt(j))) {
      const k = j;
      while (isDigit(s.charCodeAt(j))) j++;
      lit += '.' + s.slice(k, j);
    }
    return { type: 'NUMBER', lit, start: i, end: j, quoted: true };
  }
  const isUnit = (c: number): boolean => isLetter(c) || c === C.Micro;
  if (isUnit(s.charCodeAt(j))) {
    while (isUnit(s.charCodeAt(j))) j++;
    while (isUnit(s.charCodeAt(j)) || isDigit(s.charCodeAt(j))) j++;
    return { type: 'DURATIONVAL', lit: s.slice(i, j), start: i, end: j, quoted: true };
  }
  return { type: 'INTEGER', lit, start: i, end: j, quoted: true };
}

const op = (lit: string, start: number, len: number): Token => ({ type: 'OP', lit, start, end: start + len, quoted: true });

/**
 * The identifier a word from `i` to `j` turns into when a `"` follows it (1.x keeps the quoted
 * part, reported from the word's start; a bad quoted part is reported from its quote), or
 * undefined when no quote follows.
 */
function quotedTail(s: string, i: number, j: number): Token | undefined {
  if (s.charCodeAt(j) !== C.DQuote) return undefined;
  const q = scanQuoted(s, j, 'IDENT');
  return q.type === 'IDENT' ? { ...q, start: i } : q;
}

/** Scans the raw token at `i` (no whitespace skipping, no parameter binding). */
export function scanRaw(s: string, i: number): Token {
  if (i >= s.length) return { type: 'EOF', lit: '', start: i, end: i, quoted: true };
  const c = s.charCodeAt(i);
  if (isLetter(c) || c === C.Underscore) {
    let j = i + 1;
    while (IDENT_CHARS[s.charCodeAt(j)] === 1) j++;
    const tail = quotedTail(s, i, j);
    if (tail) return tail;
    const word = s.slice(i, j);
    if (isKeyword(word)) {
      const lower = word.toLowerCase();
      const type = lower === 'true' ? 'TRUE' : lower === 'false' ? 'FALSE' : 'KEYWORD';
      return { type, lit: lower, start: i, end: j, quoted: false };
    }
    return { type: 'IDENT', lit: word, start: i, end: j, quoted: false };
  }
  if (isDigit(c) || (c === C.Dot && isDigit(s.charCodeAt(i + 1)))) return scanNumber(s, i);
  const c1 = s.charCodeAt(i + 1);
  switch (c) {
    case C.DQuote: return scanQuoted(s, i, 'IDENT');
    case C.SQuote: return scanQuoted(s, i, 'STRING');
    case C.Dollar: {
      if (c1 === C.DQuote) {
        const q = scanQuoted(s, i + 1, 'IDENT');
        return q.type === 'IDENT' ? { type: 'BOUNDPARAM', lit: q.lit, start: i, end: q.end, quoted: true } : q;
      }
      let j = i + 1;
      while (IDENT_CHARS[s.charCodeAt(j)] === 1) j++;
      const tail = quotedTail(s, i, j);
      if (tail) return tail.type === 'IDENT' ? { ...tail, type: 'BOUNDPARAM' } : tail;
      return { type: 'BOUNDPARAM', lit: s.slice(i + 1, j), start: i, end: j, quoted: false };
    }
    case C.Eq: return c1 === C.Tilde ? op('=~', i, 2) : op('=', i, 1);
    case C.Bang:
      if (c1 === C.Eq) return op('!=', i, 2);
      if (c1 === C.Tilde) return op('!~', i, 2);
      return { type: 'ILLEGAL', lit: '!', start: i, end: i + 1, quoted: true };
    case C.Gt: return c1 === C.Eq ? op('>=', i, 2) : op('>', i, 1);
    case C.Lt: return c1 === C.Eq ? op('<=', i, 2) : c1 === C.Gt ? op('!=', i, 2) : op('<', i, 1);
    case C.Colon: return c1 === C.Colon ? op('::', i, 2) : op(':', i, 1);
    case C.Plus: case C.Minus: case C.Star: case C.Slash: case C.Pct: case C.Amp: case C.Pipe:
    case C.Caret: case C.LParen: case C.RParen: case C.Comma: case C.Semi: case C.Dot:
      return op(s[i] ?? '', i, 1);
    default: {
      const cp = s.codePointAt(i) ?? c;
      const len = cp > 0xffff ? 2 : 1;
      return { type: 'ILLEGAL', lit: String.fromCodePoint(cp), start: i, end: i + len, quoted: true };
    }
  }
}

/** The next token at or after `i`, whitespace and comments skipped, bound parameters substituted. */
export function nextToken(s: string, i: number): Token {
  const j = skipWs(s, i);
  if (s.charCodeAt(j) === C.Slash && s.charCodeAt(j + 1) === C.Star) {
    return { type: 'ILLEGAL', lit: '', start: j, end: s.length, quoted: true };
  }
  const t = scanRaw(s, j);
  return t.type === 'BOUNDPARAM' ? boundToken(t) : t;
}

/**
 * How 1.x prints a token after "found": keywords upper-case, literals by their text, an empty
 * name or string by its token name (`found IDENT` for `""`).
 */
export function describeToken(t: Token): string {
  switch (t.type) {
    case 'IDENT': case 'STRING': return t.lit === '' ? t.type : t.lit;
    case 'EOF': return 'EOF';
    case 'KEYWORD': case 'TRUE': case 'FALSE': return t.lit.toUpperCase();
    case 'BOUNDPARAM': return t.reason ? t.lit : '$' + t.lit;
    case 'ILLEGAL': return t.lit === '' ? 'ILLEGAL' : t.lit;
    case 'BADSTRING': return t.lit === '' ? 'BADSTRING' : t.lit;
    default: return t.lit;
  }
}

/** 1-based line/char of index `i`; chars count code points, \r\n and \r are one line break. */
export function posAt(s: string, i: number): SourcePos {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < i && k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c === C.Nl || (c === C.Cr && s.charCodeAt(k + 1) !== C.Nl)) {
      line++;
      lineStart = k + 1;
    }
  }
  let char = 1;
  for (let k = lineStart; k < i && k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0xdc00 || c > 0xdfff) char++;
  }
  return { line, char };
}

/**
 * Position 1.x reports for EOF. Its scanner reads one rune past the end when the last token was a
 * bare word, whitespace or a `--` comment, and counts that read once, so `SELECT` ends at char 8
 * while `DROP USER "x"` ends at char 14. Its parser's peekRune (which keeps an EOF it reads)
 * overreads too, wherever the grammar tries a regex next: see regexMayFollow.
 */
export function eofPos(s: string): SourcePos {
  const base = posAt(s, s.length);
  let i = 0;
  const seen: Token[] = [];
  let trailingSkip = false;
  while (i < s.length) {
    const j = skipWs(s, i);
    if (j >= s.length) { trailingSkip = true; break; }
    const t = scanRaw(s, j);
    if (t.end <= j) break;
    seen.push(t);
    trailingSkip = false;
    i = t.end;
  }
  const last = seen[seen.length - 1];
  const overread = trailingSkip || (last !== undefined && (!last.quoted || regexMayFollow(seen)));
  return overread ? { line: base.line, char: base.char + 1 } : base;
}

const isOp = (t: Token | undefined, lit: string): boolean => t !== undefined && t.type === 'OP' && t.lit === lit;
const isKw = (t: Token | undefined, lit: string): boolean => t !== undefined && t.type === 'KEYWORD' && t.lit === lit;

/**
 * Whether 1.x's parser tries a regex after the last of `tokens` (a field, source, dimension or
 * call argument after `,` or a call's `(`, the segment after `.`, the right side of `=~`/`!~`
 * and of `WITH MEASUREMENT =`): its peekRune consumes the EOF there. Not after `,` in ORDER BY
 * or in `WITH KEY IN (...)`, nor after `ON db.`, whose items are never regexes.
 */
function regexMayFollow(tokens: readonly Token[]): boolean {
  const n = tokens.length;
  const last = tokens[n - 1];
  const before = tokens[n - 2];
  if (isOp(last, '.')) return !isKw(tokens[n - 3], 'on');
  if (isOp(last, '=~') || isOp(last, '!~')) return true;
  if (isOp(last, '=')) return isKw(before, 'measurement');
  if (isOp(last, '(')) return before !== undefined && (before.type === 'IDENT' || isKw(before, 'distinct'));
  if (!isOp(last, ',')) return false;
  for (let k = n - 2; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.type !== 'KEYWORD') continue;
    if (t.lit === 'in' || t.lit === 'asc' || t.lit === 'desc') return false;
    if (t.lit === 'by') return !isKw(tokens[k - 1], 'order');
    if (t.lit !== 'distinct' && t.lit !== 'as') return true;
  }
  return true;
}

/**
 * The value of a decimal integer literal (digits, or `-digits` from a bound parameter), clamped
 * to ±2^70 so that absurdly long literals cannot make BigInt parsing quadratic. Every range the
 * parser checks (int64, uint64) is far inside the clamp, so range errors come out the same.
 */
export function decimalValue(lit: string): bigint {
  const neg = lit.startsWith('-');
  const digits = (neg ? lit.slice(1) : lit).replace(/^0+(?=\d)/, '');
  const v = digits.length > 22 ? 1n << 70n : BigInt(digits === '' ? '0' : digits);
  return neg ? -v : v;
}
