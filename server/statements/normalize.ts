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
 */
import { createHash } from 'node:crypto';

type TokenKind = 'ident' | 'quoted' | 'string' | 'number' | 'duration' | 'regex' | 'op' | 'space';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const DURATION_UNITS = /^(?:ns|u|µ|ms|s|m|h|d|w)/;

/** After these tokens a `/` starts a regex (an operand is expected), not a division. */
function operandExpected(prev: Token | undefined): boolean {
  if (!prev) return true;
  if (prev.kind === 'op') return prev.text !== ')';
  return prev.kind === 'ident' && /^(?:from|and|or|not|where|by|on)$/i.test(prev.text);
}

function scanQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return text.length;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let prev: Token | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    let end: number;
    let kind: TokenKind;
    if (/\s/.test(c)) {
      end = i + 1;
      while (end < text.length && /\s/.test(text[end] as string)) end++;
      kind = 'space';
    } else if (c === "'") {
      end = scanQuoted(text, i, "'");
      kind = 'string';
    } else if (c === '"') {
      end = scanQuoted(text, i, '"');
      kind = 'quoted';
    } else if (c === '/' && operandExpected(prev)) {
      end = scanQuoted(text, i, '/');
      kind = 'regex';
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i)) ?? /^[0-9]+\.?/.exec(text.slice(i));
      end = i + (m?.[0].length ?? 1);
      kind = 'number';
      // Durations: `5m`, `1h30m`, `10s` (digits then a unit, possibly repeated).
      let d = DURATION_UNITS.exec(text.slice(end));
      while (d && !/[A-Za-z_]/.test(text[end + d[0].length] ?? '')) {
        end += d[0].length;
        kind = 'duration';
        const more = /^[0-9]+/.exec(text.slice(end));
        if (!more) break;
        end += more[0].length;
        d = DURATION_UNITS.exec(text.slice(end));
      }
    } else if (/[A-Za-z_]/.test(c)) {
      end = i + 1;
      while (end < text.length && /[A-Za-z0-9_]/.test(text[end] as string)) end++;
      kind = 'ident';
    } else {
      const two = text.slice(i, i + 2);
      end = i + (['=~', '!~', '!=', '<>', '<=', '>=', '::'].includes(two) ? 2 : 1);
      kind = 'op';
    }
    const token: Token = { kind, text: text.slice(i, end) };
    out.push(token);
    if (kind !== 'space') prev = token;
    i = end;
  }
  return out;
}

const LITERAL_KINDS = new Set<TokenKind>(['string', 'number', 'duration', 'regex']);
const BOOLEAN = /^(?:true|false)$/i;

/** Indexes of the tokens holding a password: after PASSWORD [FOR <name>] [=]. */
function passwordTokens(tokens: readonly Token[]): Set<number> {
  const out = new Set<number>();
  const solid = tokens.map((t, i) => ({ t, i })).filter(({ t }) => t.kind !== 'space');
  for (let k = 0; k < solid.length; k++) {
    const entry = solid[k];
    if (!entry || entry.t.kind !== 'ident' || entry.t.text.toUpperCase() !== 'PASSWORD') continue;
    let j = k + 1;
    if (solid[j]?.t.text.toUpperCase() === 'FOR') j += 2;
    if (solid[j]?.t.text === '=') j++;
    const target = solid[j];
    if (target) out.add(target.i);
  }
  return out;
}

function render(tokens: readonly Token[], replace: (t: Token, i: number) => string | undefined): string {
  let out = '';
  tokens.forEach((t, i) => {
    if (t.kind === 'space') out += ' ';
    else out += replace(t, i) ?? t.text;
  });
  return out.trim().replace(/\s*;\s*$/, '');
}

/** Absorb a unary minus into the following literal: `x = -5` and `x = 5` share a digest. */
function dropUnaryMinus(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    const prev = [...out].reverse().find((p) => p.kind !== 'space');
    const unary = !prev || (prev.kind === 'op' && prev.text !== ')') || (prev.kind === 'ident' && /^(?:and|or|not)$/i.test(prev.text));
    if (t.kind === 'op' && t.text === '-' && next && (next.kind === 'number' || next.kind === 'duration') && unary) continue;
    out.push(t);
  }
  return out;
}

/** The digest form: literals → `?` (a password, even unquoted in broken text, → `'?'`), single spaces. */
export function normalizeStatement(text: string): string {
  const tokens = dropUnaryMinus(tokenize(text));
  const secret = passwordTokens(tokens);
  return render(tokens, (t, i) => {
    if (secret.has(i)) return "'?'";
    return LITERAL_KINDS.has(t.kind) || (t.kind === 'ident' && BOOLEAN.test(t.text)) ? '?' : undefined;
  });
}

/** The statement with its password literal (if any) replaced by `'?'`; other literals kept. */
export function redactPasswords(text: string): string {
  const tokens = tokenize(text);
  const secret = passwordTokens(tokens);
  return render(tokens, (_, i) => (secret.has(i) ? "'?'" : undefined));
}

/**
 * Remove the statement's password values from a message about it (an error such as
 * `found secret, expected string` quotes the offending token).
 */
export function redactSecretsIn(message: string, statementText: string): string {
  const tokens = tokenize(statementText);
  let out = message;
  for (const i of passwordTokens(tokens)) {
    const raw = tokens[i]?.text ?? '';
    const bare = raw.startsWith("'") ? raw.slice(1, raw.endsWith("'") && raw.length > 1 ? -1 : undefined) : raw;
    for (const secret of [raw, bare]) if (secret.length > 0) out = out.split(secret).join('?');
  }
  return out;
}

/** Stable digest of normalized text: hex SHA-256 (the same text always gives the same digest). */
export function statementDigest(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}
