/**
 * The syntax error Go's encoding/json scanner reports for a malformed document, as 1.x shows it
 * for the `params` parameter (`invalid character '}' looking for beginning of object key
 * string`). Only the first value counts (json.Decoder stops there); running out of input is
 * `unexpected EOF`, as is nothing but whitespace `EOF`. Undefined when the first value is
 * well-formed. Used on the error path only: JSON.parse does the parsing.
 */

const SPACE = new Set([' ', '\t', '\r', '\n']);
const SIMPLE_ESCAPES = new Set(['b', 'f', 'n', 'r', 't', '\\', '/', '"']);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

/** Go's quoteChar: the offending byte as a Go character literal. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const code = c.charCodeAt(0);
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\u0007': '\\a', '\u000b': '\\v', '\\': '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

class SyntaxFailure extends Error {}

/** Go's first syntax error in `text`, or undefined when its first value is well-formed. */
export function goJsonSyntaxError(text: string): string | undefined {
  // Go scans bytes: a non-ASCII character is reported by its first UTF-8 byte (as Latin-1).
  const s = Buffer.from(text, 'utf8').toString('latin1');
  let i = 0;
  const fail = (c: string, context: string): never => {
    throw new SyntaxFailure(`invalid character ${quoteChar(c)} ${context}`);
  };
  const eof = (): never => {
    throw new SyntaxFailure('unexpected EOF');
  };
  const peek = (): string => (i < s.length ? s[i]! : eof());
  const skipSpace = (): void => {
    while (i < s.length && SPACE.has(s[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      const c = peek();
      if (c !== word[k]) fail(c, `in literal ${word} (expecting ${quoteChar(word[k]!)})`);
      i++;
    }
  };
  const digits = (): void => {
    while (i < s.length && isDigit(s[i]!)) i++;
  };
  const number = (): void => {
    if (s[i] === '-') {
      i++;
      const c = peek();
      if (!isDigit(c)) fail(c, 'in numeric literal');
    }
    if (s[i] === '0') i++;
    else digits();
    if (i < s.length && s[i] === '.') {
      i++;
      const c = peek();
      if (!isDigit(c)) fail(c, 'after decimal point in numeric literal');
      digits();
    }
    if (i < s.length && (s[i] === 'e' || s[i] === 'E')) {
      i++;
      if (peek() === '+' || s[i] === '-') i++;
      const c = peek();
      if (!isDigit(c)) fail(c, 'in exponent of numeric literal');
      digits();
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      const c = peek();
      i++;
      if (c === '"') return;
      if (c === '\\') {
        const e = peek();
        i++;
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            const h = peek();
            if (!isHex(h)) fail(h, 'in \\u hexadecimal character escape');
            i++;
          }
        } else if (!SIMPLE_ESCAPES.has(e)) fail(e, 'in string escape code');
      } else if (c.charCodeAt(0) < 0x20) fail(c, 'in string literal');
    }
  };
  const value = (): void => {
    skipSpace();
    const c = peek();
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || isDigit(c)) return number();
    if (c === 't' || c === 'f' || c === 'n') {
      i++;
      return literal(c === 't' ? 'true' : c === 'f' ? 'false' : 'null');
    }
    fail(c, 'looking for beginning of value');
  };
  const object = (): void => {
    i++;
    skipSpace();
    if (peek() === '}') {
      i++;
      return;
    }
    for (;;) {
      skipSpace();
      const k = peek();
      if (k !== '"') fail(k, 'looking for beginning of object key string');
      string();
      skipSpace();
      const colon = peek();
      if (colon !== ':') fail(colon, 'after object key');
      i++;
      value();
      skipSpace();
      const next = peek();
      i++;
      if (next === '}') return;
      if (next !== ',') fail(next, 'after object key:value pair');
    }
  };
  const array = (): void => {
    i++;
    skipSpace();
    if (peek() === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      skipSpace();
      const next = peek();
      i++;
      if (next === ']') return;
      if (next !== ',') fail(next, 'after array element');
    }
  };
  skipSpace();
  if (i >= s.length) return 'EOF';
  try {
    value();
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxFailure) return e.message;
    throw e;
  }
}
