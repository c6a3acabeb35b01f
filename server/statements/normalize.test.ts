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
