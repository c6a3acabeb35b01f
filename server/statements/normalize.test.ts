/** Statement normalisation, digests and password redaction (statement summary). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeStatement, redactPasswords, redactSecretsIn, statementDigest } from './normalize.js';

describe('normalizeStatement', () => {
  const cases: [string, string][] = [
    [
      `SELECT mean(v) FROM cpu WHERE host = 'a' AND time > now() - 5m AND v > 3.5 GROUP BY time(10s) LIMIT 10`,
      'SELECT mean(v) FROM cpu WHERE host = ? AND time > now() - ? AND v > ? GROUP BY time(?) LIMIT ?',
    ],
    [`SELECT * FROM "my db".autogen.cpu2 WHERE "host 1" = 'x\\'y' AND n = -5`, 'SELECT * FROM "my db".autogen.cpu2 WHERE "host 1" = ? AND n = ?'],
    [`SELECT * FROM cpu WHERE host =~ /ab.*/ AND ok = true AND time > '2020-01-01T00:00:00Z'`, 'SELECT * FROM cpu WHERE host =~ ? AND ok = ? AND time > ?'],
    [`SELECT v / 2 FROM cpu WHERE time >= 1h30m`, 'SELECT v / ? FROM cpu WHERE time >= ?'],
    [`SELECT v FROM /cpu.*/ WHERE x = 1e3`, 'SELECT v FROM ? WHERE x = ?'],
    ['  SHOW   DATABASES ;', 'SHOW DATABASES'],
    ['SHOW TAG VALUES FROM cpu WITH KEY = host', 'SHOW TAG VALUES FROM cpu WITH KEY = host'],
  ];
  for (const [input, want] of cases) {
    it(`normalizes ${input}`, () => assert.equal(normalizeStatement(input), want));
  }

  it('gives statements that differ only in literals one digest, others another', () => {
    const a = statementDigest(normalizeStatement(`SELECT v FROM cpu WHERE host = 'a' LIMIT 1`));
    const b = statementDigest(normalizeStatement(`SELECT  v FROM cpu WHERE host = 'zzz' LIMIT 99`));
    const c = statementDigest(normalizeStatement(`SELECT v FROM mem WHERE host = 'a' LIMIT 1`));
    assert.equal(a, b);
    assert.notEqual(a, c);
    assert.match(a, /^[0-9a-f]{64}$/);
  });

  it('keeps digests stable: hex SHA-256 of the normalized text', () => {
    assert.equal(statementDigest(normalizeStatement('SHOW DATABASES;')), '18f8032fc6a9cf4b7ee1a3e8af61851d1d2a3edb19cacdb5420eeae592d93d6e');
  });

  it('never keeps a password, quoted or not', () => {
    assert.equal(normalizeStatement(`CREATE USER bob WITH PASSWORD 'secret' WITH ALL PRIVILEGES`), `CREATE USER bob WITH PASSWORD '?' WITH ALL PRIVILEGES`);
    assert.equal(normalizeStatement(`SET PASSWORD FOR bob = 'secret'`), `SET PASSWORD FOR bob = '?'`);
    assert.equal(normalizeStatement(`create user bob with password secret`), `create user bob with password '?'`);
    assert.equal(normalizeStatement(`CREATE USER bob WITH PASSWORD 'unterminated`), `CREATE USER bob WITH PASSWORD '?'`);
  });
});

describe('redactPasswords', () => {
  it('replaces only password literals', () => {
    assert.equal(redactPasswords(`CREATE USER "bob" WITH PASSWORD 's3cr\\'et'`), `CREATE USER "bob" WITH PASSWORD '?'`);
    assert.equal(redactPasswords(`SET PASSWORD FOR bob = 'secret'`), `SET PASSWORD FOR bob = '?'`);
    assert.equal(redactPasswords(`SELECT v FROM cpu WHERE host = 'a'`), `SELECT v FROM cpu WHERE host = 'a'`);
  });

  it('removes password values from messages about the statement', () => {
    const text = 'CREATE USER bob WITH PASSWORD hunter2';
    assert.equal(redactSecretsIn('error parsing query: found hunter2, expected string at line 1, char 31', text), 'error parsing query: found ?, expected string at line 1, char 31');
  });
});

// The token-object lexer normalize.ts had before its single walk (2026-11-27), kept as the
// reference the walk must agree with on any text.
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
function referenceNormalize(text: string): string {
  const tokens = dropUnaryMinus(tokenize(text));
  const secret = passwordTokens(tokens);
  return render(tokens, (t, i) => {
    if (secret.has(i)) return "'?'";
    return LITERAL_KINDS.has(t.kind) || (t.kind === 'ident' && BOOLEAN.test(t.text)) ? '?' : undefined;
  });
}

/** The statement with its password literal (if any) replaced by `'?'`; other literals kept. */
function referenceRedact(text: string): string {
  const tokens = tokenize(text);
  const secret = passwordTokens(tokens);
  return render(tokens, (_, i) => (secret.has(i) ? "'?'" : undefined));
}

/**
 * Remove the statement's password values from a message about it (an error such as
 * `found secret, expected string` quotes the offending token).
 */
function referenceRedactSecretsIn(message: string, statementText: string): string {
  const tokens = tokenize(statementText);
  let out = message;
  for (const i of passwordTokens(tokens)) {
    const raw = tokens[i]?.text ?? '';
    const bare = raw.startsWith("'") ? raw.slice(1, raw.endsWith("'") && raw.length > 1 ? -1 : undefined) : raw;
    for (const secret of [raw, bare]) if (secret.length > 0) out = out.split(secret).join('?');
  }
  return out;
}


/** Texts made of the lexer's edge cases: glued or spaced tokens, broken literals, odd whitespace. */
function lexerTexts(seed: number, count: number): string[] {
  let x = seed >>> 0;
  const rnd = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const pieces = [
    'SELECT', 'select', 'FROM', 'from', 'WHERE', 'where', 'and', 'OR', 'not', 'by', 'on', 'GROUP', 'LIMIT', 'true', 'FALSE', 'TrUe',
    'PASSWORD', 'password', 'FOR', 'for', 'SET', 'CREATE USER', 'WITH', 'bob', '"bob"', '"a b"', '"x\\"y"', 'v', 'cpu2', '_x', 'time', 'now()',
    '0', '5', '42', '5.', '.5', '1.25', '1e3', '1e', '1E+2', '1.5e-3', '1e3s', '5m', '5ms', '5min', '1h30m', '1h30', '5µs', '5u', '5ns', '5n',
    '10mse', '2w', '3d', '5m3', '1.5h', '00',
    "'a'", "''", "'x\\'y'", "'unterminated", "'2016-01-01T00:00:00Z'", "'sec;ret'", '/re.*/', '/a\\/b/', '/open', '/',
    '-', '--', '+', '*', '(', ')', ',', '=', '=~', '!~', '!=', '<>', '<=', '>=', '::', ':', '!', '<', '>', '.', ';', '$p', '\\', 'µ', 'é', '😀',
  ];
  const spaces = ['', ' ', ' ', ' ', '  ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', ' ; '];
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let text = pick(['', ' ', '\n']);
    const len = 1 + Math.floor(rnd() * 14);
    for (let t = 0; t < len; t++) text += pick(pieces) + pick(spaces);
    out.push(text);
  }
  return out;
}

describe('the single walk agrees with the reference lexer', () => {
  const texts = [
    ...lexerTexts(1127, 20_000),
    `SELECT mean(v) FROM cpu WHERE host = 'a' AND time > now() - 5m AND v > -3.5 GROUP BY time(10s) LIMIT 10;`,
    `CREATE USER "bob" WITH PASSWORD 's3cr\\'et' WITH ALL PRIVILEGES`,
    'SET PASSWORD FOR password = password',
    'PASSWORD PASSWORD FOR x = -5',
  ];

  it('normalizeStatement', () => {
    for (const text of texts) assert.equal(normalizeStatement(text), referenceNormalize(text), JSON.stringify(text));
  });

  it('redactPasswords', () => {
    for (const text of texts) assert.equal(redactPasswords(text), referenceRedact(text), JSON.stringify(text));
  });

  it('redactSecretsIn', () => {
    for (const text of texts) {
      const message = `found ${text.slice(text.length >> 1)} in ${text}, expected string`;
      assert.equal(redactSecretsIn(message, text), referenceRedactSecretsIn(message, text), JSON.stringify(text));
    }
  });
});
