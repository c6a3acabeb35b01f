/**
 * The shape of each statement in a raw query text: the text with its literal values masked, so
 * that statements differing only in their values (TSBS, dashboards: a new host or time window
 * on every request) share one shape. The statement summary computes a statement's normalized
 * text and digest (print the AST, normalize, hash) once per shape instead of once per text.
 *
 * For that, two statements with one shape that both parse must print to one normalized text.
 * The scan follows the query language's scanner (ql/parser/scanner.ts) token by token, so the
 * tokens line up, and keeps everything the printed text can depend on:
 * - identifiers, keywords, operators, punctuation and whitespace verbatim;
 * - numbers and durations with each digit run replaced by `0` (all zeros) or `1`, keeping the
 *   `.` and the units: the printer omits zero values (`LIMIT 0`, `SHARD DURATION 0s`) and
 *   parenthesises negative ones, and the sign (`-`) is kept as written; a duration whose value
 *   is zero (`0h0m`, or one that wraps around int64 to zero) has every run `0`;
 * - strings as `''` when empty (`SHOW STATS FOR ''` prints without FOR) and `'?'` otherwise.
 * Anything the scan does not model gives no shapes at all (the caller then prints every
 * statement): a `/` (regex or division, decided by the parser), `--` and `/*` comments, `$`
 * bound parameters, an unterminated string, or a statement longer than MAX_SHAPE_CHARS.
 * A number's magnitude does not change how it prints: too large for its type is a parse error.
 */
import { isDigit, isIdentChar, isLetter, isWs, parseDuration, scanRaw } from '../../ql/index.js';

/** Digits per duration term that cannot overflow int64 whatever the unit. */
const WRAP_FREE_DIGITS = 4;

/** Statements longer than this get no shape (the summary prints them; their AST is not kept). */
export const MAX_SHAPE_CHARS = 2048;

const enum C {
  Nl = 10, Cr = 13, DQuote = 34, Dollar = 36, SQuote = 39, Minus = 45, Dot = 46,
  Slash = 47, Zero = 48, Semi = 59, Backslash = 92, Underscore = 95, Micro = 0xb5,
}

const isUnit = (c: number): boolean => isLetter(c) || c === C.Micro;

/** End of the quoted token starting at `i` (after the closing quote); -1 when unterminated. */
function quotedEnd(s: string, i: number, quote: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c === C.Backslash) j++;
    else if (c === C.Nl || c === C.Cr) return -1;
  }
  return -1;
}

/** The number or duration token s[i, end) masked (see above). */
function maskNumber(s: string, i: number, end: number): string {
  let k = i;
  while (k < end && isDigit(s.charCodeAt(k))) k++;
  if (k < end && isUnit(s.charCodeAt(k)) && mayWrap(s, i, k, end)) {
    // A duration that may wrap around int64 (to zero, which the printer omits): ask for its value.
    const d = parseDuration(s.slice(i, end));
    if (d.ok && d.ns === 0n) return maskRuns(s, i, end, true);
  }
  return maskRuns(s, i, end, false);
}

/**
 * Whether a duration whose first term has `k - i` digits and whose units start at `k` may wrap
 * around int64: one term of at most WRAP_FREE_DIGITS digits cannot (9999 weeks is about 6e18
 * ns), so it is zero only when its digits are. Terms after the first (`1h30m`) may add up.
 */
function mayWrap(s: string, i: number, k: number, end: number): boolean {
  if (k - i > WRAP_FREE_DIGITS) return true;
  for (let j = k; j < end; j++) if (isDigit(s.charCodeAt(j))) return true;
  return false;
}

/** s[i, end) with each digit run as `1`, or `0` when it is all zeros or `allZero`. */
function maskRuns(s: string, i: number, end: number, allZero: boolean): string {
  let out = '';
  let j = i;
  while (j < end) {
    const c = s.charCodeAt(j);
    if (!isDigit(c)) {
      out += s[j];
      j++;
      continue;
    }
    const start = j;
    let zero = true;
    for (; j < end && isDigit(s.charCodeAt(j)); j++) if (s.charCodeAt(j) !== C.Zero) zero = false;
    out += zero || allZero ? '0' : '1';
  }
  return out;
}

/**
 * The shapes of the statements of `text`, in order (empty statements, as between `;;`, are
 * skipped as the parser skips them); undefined when the text has something the scan does not
 * model (see above).
 */
export function statementShapes(text: string): string[] | undefined {
  const shapes: string[] = [];
  let shape = '';
  let blank = true;
  let from = 0; // start of the verbatim run not yet appended to `shape`
  let statementStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isLetter(c) || c === C.Underscore) {
      i++;
      while (isIdentChar(text.charCodeAt(i))) i++;
      blank = false;
    } else if (isDigit(c) || (c === C.Dot && isDigit(text.charCodeAt(i + 1)))) {
      const end = scanRaw(text, i).end;
      shape += text.slice(from, i) + maskNumber(text, i, end);
      from = i = end;
      blank = false;
    } else if (c === C.SQuote) {
      const end = quotedEnd(text, i, c);
      if (end < 0) return undefined;
      shape += text.slice(from, i) + (end === i + 2 ? "''" : "'?'");
      from = i = end;
      blank = false;
    } else if (c === C.DQuote) {
      const end = quotedEnd(text, i, c);
      if (end < 0) return undefined;
      i = end;
      blank = false;
    } else if (c === C.Slash || c === C.Dollar || (c === C.Minus && text.charCodeAt(i + 1) === C.Minus)) {
      return undefined;
    } else if (c === C.Semi) {
      if (!blank) {
        if (i - statementStart > MAX_SHAPE_CHARS) return undefined;
        shapes.push(shape + text.slice(from, i));
      }
      shape = '';
      blank = true;
      from = statementStart = i + 1;
      i++;
    } else {
      if (!isWs(c)) blank = false;
      i++;
    }
  }
  if (!blank) {
    if (n - statementStart > MAX_SHAPE_CHARS) return undefined;
    shapes.push(shape + text.slice(from, n));
  }
  return shapes;
}
