/**
 * Go's strconv.Quote (fmt's %q of a string), for 1.x error texts that quote names that way
 * (the cardinality limits: `measurement="a\\,b"` for the measurement `a\,b`). Printable
 * characters stay as they are; `"` and `\` get a backslash; other characters take Go's escapes.
 */
const SHORT: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c in SHORT) out += SHORT[c]!;
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else if (c >= 0x80 && PRINTABLE.test(ch)) out += ch;
    else if (c < 0x80) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + '"';
}
