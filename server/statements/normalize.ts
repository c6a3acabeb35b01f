/**
 * Statement normalisation for the statement summary (spec "Statement summary entry").
 *
 * `normalizeStatement` turns TimeseriesQL text into its digest form: every literal (string,
 * number, duration, boolean, regex) becomes `?`, whitespace collapses to one space. Statements
 * that differ only in their literals share one digest:
 *
 *   SELECT mean(v) FROM cpu WHERE host = 'a' AND time > now() - 5m LIMIT 10
 *   → SELECT mean(v) FROM cpu WHERE host = ? AND time > now() - ? LIMIT ?
 *
 * A password is always rendered `'?'`, also when a broken statement has it unquoted.
 *
 * `redactPasswords` keeps every literal but the password ones (the stored sample):
 *
 *   CREATE USER bob WITH PASSWORD 'secret'  → CREATE USER bob WITH PASSWORD '?'
 *   SET PASSWORD FOR bob = 'secret'         → SET PASSWORD FOR bob = '?'
 *
 * Both work on text with a small lexer, not on the AST, so they also handle text that does
 * not parse (a failed statement is summarised too). The lexer follows the query language's
 * lexical rules: identifiers bare or double-quoted (kept), strings single-quoted with
 * backslash escapes, regexes between slashes where an operand is expected. An unterminated
 * string or regex runs to the end of the text and is replaced as a whole, so a broken
 * password literal is never kept either.
 *
 * One walk over the characters does it all (no token objects, no regex per token): it runs
 * once per new statement shape and for every statement that does not parse.
 */
import { createHash } from 'node:crypto';
import { isDigit, isIdentChar, isLetter } from '../../ql/index.js';

const enum C {
  Tab = 9, Cr = 13, Space = 32, DQuote = 34, SQuote = 39, RParen = 41, Minus = 45, Dot = 46, Slash = 47,
  Eq = 61, Backslash = 92, Underscore = 95,
}

const enum Kind { Ident, Quoted, String, Number, Duration, Regex, Op }

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  if (c <= C.Space) return c === C.Space || (c >= C.Tab && c <= C.Cr);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
const isIdentStart = (c: number): boolean => isLetter(c) || c === C.Underscore;

/** Whether the word s[i, end) is `word` (lower case, ASCII), in any case. */
function isWord(s: string, i: number, end: number, word: string): boolean {
  if (end - i !== word.length) return false;
  for (let k = 0; k < word.length; k++) if ((s.charCodeAt(i + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/** After these identifiers a `/` starts a regex (an operand is expected), not a division. */
const OPERAND_BEFORE = ['from', 'and', 'or', 'not', 'where', 'by', 'on'];
/** After these (and after an operator other than `)`) a `-` before a number is a sign. */
const SIGN_BEFORE = ['and', 'or', 'not'];

/** Whether an operand is expected after the token s[start, end) of `kind` (-1: none yet): after an operator other than `)`, or one of `words`. */
function operandAfter(s: string, kind: number, start: number, end: number, words: readonly string[]): boolean {
  if (kind === -1) return true;
  if (kind === Kind.Op) return !(end - start === 1 && s.charCodeAt(start) === C.RParen);
  if (kind !== Kind.Ident) return false;
  for (const w of words) if (isWord(s, start, end, w)) return true;
  return false;
}

function quotedEnd(s: string, i: number, quote: number): number {
  let j = i + 1;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === C.Backslash) j += 2;
    else if (c === quote) return j + 1;
    else j++;
  }
  return s.length;
}

/** Whether s[i, i+2) is one of `=~ !~ != <> <= >= ::`. */
function isTwoCharOp(s: string, i: number): boolean {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  if (a === C.Eq) return b === 126 /* ~ */;
  if (a === 33 /* ! */) return b === 126 || b === C.Eq;
  if (a === 60 /* < */) return b === 62 /* > */ || b === C.Eq;
  if (a === 62 /* > */) return b === C.Eq;
  return a === 58 /* : */ && b === 58;
}

/** Length of the duration unit at `i` (`ns|u|µ|ms|s|m|h|d|w`, first match in that order), 0 when none. */
function unitLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  const c1 = s.charCodeAt(i + 1);
  if (c === 110 /* n */) return c1 === 115 /* s */ ? 2 : 0;
  if (c === 117 /* u */ || c === 0xb5 /* µ */) return 1;
  if (c === 109 /* m */) return c1 === 115 ? 2 : 1;
  return c === 115 || c === 104 || c === 100 || c === 119 ? 1 : 0; // s h d w
}

/** End of the number at `i`: `[0-9]*\.?[0-9]+([eE][+-]?[0-9]+)?`. */
function numberEnd(s: string, i: number): number {
  let end = i;
  while (isDigit(s.charCodeAt(end))) end++;
  if (s.charCodeAt(end) === C.Dot && isDigit(s.charCodeAt(end + 1))) {
    end++;
    while (isDigit(s.charCodeAt(end))) end++;
  }
  const e = s.charCodeAt(end);
  if (e === 101 || e === 69) {
    let k = end + 1;
    const sign = s.charCodeAt(k);
    if (sign === 43 || sign === C.Minus) k++;
    if (isDigit(s.charCodeAt(k))) {
      while (isDigit(s.charCodeAt(k))) k++;
      end = k;
    }
  }
  return end;
}

/** End of the units after a number ending at `end` (`5m`, `1h30m`: a unit not followed by a letter, then digits, repeated); `end` when none. */
function unitsEnd(s: string, end: number): number {
  for (let u = unitLength(s, end); u > 0 && !isIdentStart(s.charCodeAt(end + u)); u = unitLength(s, end)) {
    end += u;
    if (!isDigit(s.charCodeAt(end))) break;
    while (isDigit(s.charCodeAt(end))) end++;
  }
  return end;
}

/**
 * Where a PASSWORD word is in finding its literal: PASSWORD [FOR <name>] [=] <literal>, counted
 * in tokens other than whitespace.
 */
const enum Await { ForOrLiteral, Name, EqOrLiteral, Literal }

interface Walk {
  readonly text: string;
  /** The raw text of each password literal, in order. */
  readonly secrets: readonly string[];
}

/**
 * The text rendered token by token: whitespace runs as one space, password literals as `'?'`;
 * with `normalize`, other literals (and `true`/`false`) as `?` and a sign before a number dropped
 * (`x = -5` and `x = 5` share a digest); then trimmed, without a trailing `;`.
 */
function walk(s: string, normalize: boolean): Walk {
  let out = '';
  let verbatim = 0; // start of the text not yet in `out`, to be copied as it is
  const secrets: string[] = [];
  let awaiting: Await[] | undefined;
  // The last token other than whitespace (a dropped sign excluded): -1 before the first.
  let prevKind = -1;
  let prevStart = 0;
  let prevEnd = 0;
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      const start = i;
      do i++;
      while (i < n && isSpace(s.charCodeAt(i)));
      if (c !== C.Space || i - start > 1) {
        out += s.slice(verbatim, start) + ' ';
        verbatim = i;
      }
      continue;
    }
    let end: number;
    let kind: Kind;
    if (c === C.SQuote) {
      end = quotedEnd(s, i, c);
      kind = Kind.String;
    } else if (c === C.DQuote) {
      end = quotedEnd(s, i, c);
      kind = Kind.Quoted;
    } else if (c === C.Slash && operandAfter(s, prevKind, prevStart, prevEnd, OPERAND_BEFORE)) {
      end = quotedEnd(s, i, c);
      kind = Kind.Regex;
    } else if (isDigit(c) || (c === C.Dot && isDigit(s.charCodeAt(i + 1)))) {
      const number = numberEnd(s, i);
      end = unitsEnd(s, number);
      kind = end > number ? Kind.Duration : Kind.Number;
    } else if (isIdentStart(c)) {
      end = i + 1;
      while (isIdentChar(s.charCodeAt(end))) end++;
      kind = Kind.Ident;
    } else {
      end = i + (isTwoCharOp(s, i) ? 2 : 1);
      kind = Kind.Op;
      const next = s.charCodeAt(i + 1);
      const numberNext = isDigit(next) || (next === C.Dot && isDigit(s.charCodeAt(i + 2)));
      if (normalize && c === C.Minus && numberNext && operandAfter(s, prevKind, prevStart, prevEnd, SIGN_BEFORE)) {
        out += s.slice(verbatim, i);
        verbatim = i = end;
        continue;
      }
    }
    let secret = false;
    if (awaiting !== undefined) {
      let kept = 0;
      for (const state of awaiting) {
        const next = nextAwait(state, s, i, end);
        if (next === undefined) secret = true;
        else awaiting[kept++] = next;
      }
      awaiting.length = kept;
    }
    if (kind === Kind.Ident && isWord(s, i, end, 'password')) (awaiting ??= []).push(Await.ForOrLiteral);
    if (secret) {
      out += s.slice(verbatim, i) + "'?'";
      verbatim = end;
      secrets.push(s.slice(i, end));
    } else if (normalize && (kind === Kind.String || kind === Kind.Number || kind === Kind.Duration || kind === Kind.Regex ||
      (kind === Kind.Ident && (isWord(s, i, end, 'true') || isWord(s, i, end, 'false'))))) {
      out += s.slice(verbatim, i) + '?';
      verbatim = end;
    }
    prevKind = kind;
    prevStart = i;
    prevEnd = end;
    i = end;
  }
  out += s.slice(verbatim, n);
  return { text: out.trim().replace(/\s*;\s*$/, ''), secrets };
}

/** The state after token s[i, end); undefined when the token is the password literal. */
function nextAwait(state: Await, s: string, i: number, end: number): Await | undefined {
  const eq = end - i === 1 && s.charCodeAt(i) === C.Eq;
  switch (state) {
    case Await.ForOrLiteral: return isWord(s, i, end, 'for') ? Await.Name : eq ? Await.Literal : undefined;
    case Await.Name: return Await.EqOrLiteral;
    case Await.EqOrLiteral: return eq ? Await.Literal : undefined;
    case Await.Literal: return undefined;
  }
}

/** The digest form: literals → `?` (a password, even unquoted in broken text, → `'?'`), single spaces. */
export function normalizeStatement(text: string): string {
  return walk(text, true).text;
}

/** The statement with its password literal (if any) replaced by `'?'`; other literals kept. */
export function redactPasswords(text: string): string {
  return walk(text, false).text;
}

/**
 * Remove the statement's password values from a message about it (an error such as
 * `found secret, expected string` quotes the offending token).
 */
export function redactSecretsIn(message: string, statementText: string): string {
  let out = message;
  for (const raw of walk(statementText, false).secrets) {
    const bare = raw.startsWith("'") ? raw.slice(1, raw.endsWith("'") && raw.length > 1 ? -1 : undefined) : raw;
    for (const secret of [raw, bare]) if (secret.length > 0) out = out.split(secret).join('?');
  }
  return out;
}

/** Stable digest of normalized text: hex SHA-256 (the same text always gives the same digest). */
export function statementDigest(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
