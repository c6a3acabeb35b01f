/**
 * RE2 (Go regexp/syntax, Perl flags) syntax check with Go's error texts, so that a bad regex fails
 * at parse time with the 1.x message, e.g. "error parsing regexp: missing closing ]: `[`".
 * It checks structure only (brackets, parens, repetitions, escapes, group flags); it does not build
 * a program. Go 1.10 semantics (InfluxDB 1.6.7): `(?<name>` is not supported, `(?P<name>` is.
 */

const fail = (code: string, expr: string): string => `error parsing regexp: ${code}: \`${expr}\``;

/** Go's parseEscape: an escaped ASCII character that is not a letter or digit is itself (`\ `, `\_`, `\/`). */
const isLiteralEscape = (c: string): boolean => c.charCodeAt(0) < 0x80 && !/[0-9A-Za-z]/.test(c);
const POSIX = /^\[:\^?(alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print|punct|space|upper|word|xdigit):\]/;

/** Length of the escape at s[i] === '\\', or an error text. */
function escapeLen(s: string, i: number): number | string {
  const c = s[i + 1];
  if (c === undefined) return fail('trailing backslash at end of expression', '');
  if (isLiteralEscape(c)) return 2;
  if ('aftnrvAzbBdDsSwW'.includes(c)) return 2;
  if (c >= '1' && c <= '7' && !/[0-9]/.test(s[i + 2] ?? '')) return fail('invalid escape sequence', s.slice(i, i + 2));
  if (c >= '0' && c <= '7') {
    let j = i + 1;
    while (j < i + 4 && /[0-7]/.test(s[j] ?? '')) j++;
    return j - i;
  }
  if (c === 'x') {
    if (s[i + 2] === '{') {
      const end = s.indexOf('}', i + 3);
      const hex = end < 0 ? '' : s.slice(i + 3, end);
      if (end < 0 || !/^[0-9A-Fa-f]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) {
        return fail('invalid escape sequence', s.slice(i, end < 0 ? s.length : end + 1));
      }
      return end + 1 - i;
    }
    if (/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 2, i + 4))) return 4;
    return fail('invalid escape sequence', s.slice(i, i + 4));
  }
  if (c === 'p' || c === 'P') {
    if (s[i + 2] === '{') {
      const end = s.indexOf('}', i + 3);
      if (end < 0) return fail('invalid character class range', s.slice(i));
      return end + 1 - i;
    }
    return s[i + 2] === undefined ? fail('invalid character class range', s.slice(i)) : 3;
  }
  if (c === 'Q') {
    const end = s.indexOf('\\E', i + 2);
    return end < 0 ? s.length - i : end + 2 - i;
  }
  return fail('invalid escape sequence', s.slice(i, i + 1 + (c.length)));
}

/** Checks a class starting at s[i] === '['; returns its length or an error text. */
function classLen(s: string, i: number): number | string {
  let j = i + 1;
  if (s[j] === '^') j++;
  let first = true;
  while (j < s.length && (s[j] !== ']' || first)) {
    first = false;
    const posix = POSIX.exec(s.slice(j));
    if (posix) { j += posix[0].length; continue; }
    const lo = charAt(s, j);
    if (typeof lo === 'string') return lo;
    const loStart = j;
    j += lo.len;
    if (s[j] === '-' && s[j + 1] !== undefined && s[j + 1] !== ']') {
      const hi = charAt(s, j + 1);
      if (typeof hi === 'string') return hi;
      if (lo.cp !== -1 && hi.cp !== -1 && hi.cp < lo.cp) return fail('invalid character class range', s.slice(loStart, j + 1 + hi.len));
      j += 1 + hi.len;
    }
  }
  if (j >= s.length) return fail('missing closing ]', s.slice(i));
  return j + 1 - i;
}

/** One class member at s[j]: its code point (-1 for a class escape like \d) and length. */
function charAt(s: string, j: number): { cp: number; len: number } | string {
  if (s[j] === '\\') {
    const n = escapeLen(s, j);
    if (typeof n === 'string') return n;
    const c = s[j + 1] ?? '';
    const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    const cp = isLiteralEscape(c) ? c.charCodeAt(0) : simple[c] ?? -1;
    return { cp, len: n };
  }
  const cp = s.codePointAt(j) ?? 0;
  return { cp, len: cp > 0xffff ? 2 : 1 };
}

const REPEAT = /^\{(\d+)(,(\d*))?\}/;

/** Returns Go's error text for an invalid RE2 pattern, or null when it is valid. */
export function re2Error(s: string): string | null {
  let depth = 0;
  // What precedes the current position: nothing repeatable, an operand, or a repetition.
  let prev: 'none' | 'operand' | 'repeat' = 'none';
  let repeatStart = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '(') {
      if (s[i + 1] === '?') {
        const m = /^\(\?(P<([^>]*)>|[imsU-]*[:)])/.exec(s.slice(i));
        if (!m) {
          if (s.startsWith('(?P', i)) return fail('invalid named capture', s.slice(i));
          return fail('invalid or unsupported Perl syntax', s.slice(i, i + 3));
        }
        if (m[2] !== undefined && !/^[A-Za-z0-9_]+$/.test(m[2])) return fail('invalid named capture', m[0]);
        i += m[0].length;
        if (m[0].endsWith(')') && m[2] === undefined) { prev = 'none'; continue; }
      } else {
        i++;
      }
      depth++;
      prev = 'none';
    } else if (c === ')') {
      if (depth === 0) return fail('unexpected )', s);
      depth--;
      i++;
      prev = 'operand';
    } else if (c === '|') {
      i++;
      prev = 'none';
    } else if (c === '*' || c === '+' || c === '?' || (c === '{' && REPEAT.test(s.slice(i)))) {
      let len = 1;
      if (c === '{') {
        const m = REPEAT.exec(s.slice(i));
        len = m?.[0].length ?? 1;
        const lo = Number(m?.[1]);
        const hi = m?.[2] === undefined ? lo : m[3] === '' ? -1 : Number(m[3]);
        if (lo > 1000 || hi > 1000 || (hi >= 0 && hi < lo)) return fail('invalid repeat count', s.slice(i, i + len));
      }
      if (s[i + len] === '?') len++;
      if (prev === 'none') return fail('missing argument to repetition operator', s.slice(i, i + len));
      if (prev === 'repeat') return fail('invalid nested repetition operator', s.slice(repeatStart, i + len));
      repeatStart = i;
      i += len;
      prev = 'repeat';
    } else if (c === '[') {
      const n = classLen(s, i);
      if (typeof n === 'string') return n;
      i += n;
      prev = 'operand';
    } else if (c === '\\') {
      const n = escapeLen(s, i);
      if (typeof n === 'string') return n;
      i += n;
      prev = 'operand';
    } else {
      i += (s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
      prev = c === '^' || c === '$' ? 'operand' : 'operand';
    }
  }
  if (depth > 0) return fail('missing closing )', s);
  return null;
}
