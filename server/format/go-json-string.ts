/**
 * A string as Go's encoding/json writes it (1.x's answers): JSON.stringify's text, except that
 * Go also escapes `<`, `>` and `&` (HTML-safe by default), the line and paragraph separators
 * U+2028 and U+2029, and writes backspace and form feed as `\u0008` and `\u000c` (Go before
 * 1.22; recorded from influxd 1.6.7). The same JSON value either way; the same bytes only so.
 */
const GO_ESCAPED = /[<>&\u2028\u2029\b\f]/;
/** In JSON.stringify's text: an escape sequence as one unit (so `\\` then `b` is not read as `\b`), or a character Go escapes. */
const GO_ESCAPED_ALL = /\\[\\"bfnrtu]|[<>&\u2028\u2029]/g;

const ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '\\b': '\\u0008',
  '\\f': '\\u000c',
};

export function goJsonString(s: string): string {
  const text = JSON.stringify(s);
  // Most strings (names, tags, times) have none of these: one scan, no copy.
  return GO_ESCAPED.test(s) ? text.replace(GO_ESCAPED_ALL, (m) => ESCAPES[m] ?? m) : text;
}
