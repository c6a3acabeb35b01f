/**
 * Error texts pinned from InfluxDB 1.x (influxql parser_test.go, the 1.6 forms: no FUTURE/PAST
 * retention options) plus the parse errors recorded from 1.6.7 in the conformance suite.
 * Deviations on purpose: `SHOW GRANTS` without FOR is valid in Strata.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParseError } from '../errors.js';
import { parseQuery } from './query.js';

const FIRST = 'SELECT, DELETE, SHOW, CREATE, DROP, EXPLAIN, GRANT, REVOKE, ALTER, SET, KILL';

export const ERROR_CASES: ReadonlyArray<readonly [string, string]> = [
  ['SELEC * FROM cpu', `found SELEC, expected ${FIRST} at line 1, char 1`],
  ['SELECT', 'found EOF, expected identifier, string, number, bool at line 1, char 8'],
  ['blah blah', `found blah, expected ${FIRST} at line 1, char 1`],
  ['SELECT field1 X', 'found X, expected FROM at line 1, char 15'],
  ['SELECT field1 FROM "series" WHERE X +;', 'found ;, expected identifier, string, number, bool at line 1, char 38'],
  ['SELECT field1 FROM myseries GROUP', 'found EOF, expected BY at line 1, char 35'],
  ['SELECT field1 FROM myseries LIMIT', 'found EOF, expected integer at line 1, char 35'],
  ['SELECT field1 FROM myseries LIMIT 10.5', 'found 10.5, expected integer at line 1, char 35'],
  ['SELECT field1 FROM myseries OFFSET', 'found EOF, expected integer at line 1, char 36'],
  ['SELECT field1 FROM myseries OFFSET 10.5', 'found 10.5, expected integer at line 1, char 36'],
  ['SELECT field1 FROM myseries ORDER', 'found EOF, expected BY at line 1, char 35'],
  ['SELECT field1 FROM myseries ORDER BY', 'found EOF, expected identifier, ASC, DESC at line 1, char 38'],
  ['SELECT field1 FROM myseries ORDER BY /', 'found /, expected identifier, ASC, DESC at line 1, char 38'],
  ['SELECT field1 FROM myseries ORDER BY 1', 'found 1, expected identifier, ASC, DESC at line 1, char 38'],
  ['SELECT field1 FROM myseries ORDER BY time ASC,', 'found EOF, expected identifier at line 1, char 47'],
  ['SELECT field1 FROM myseries ORDER BY time, field1', 'only ORDER BY time supported at this time'],
  ['SELECT field1 AS', 'found EOF, expected identifier at line 1, char 18'],
  ['SELECT field1 FROM 12', 'found 12, expected identifier at line 1, char 20'],
  ['SELECT 1' + '0'.repeat(300) + ' FROM myseries', 'unable to parse integer at line 1, char 8'],
  ['SELECT 10.5h FROM myseries', 'found h, expected FROM at line 1, char 12'],
  ['SELECT distinct FROM myseries', 'found FROM, expected identifier at line 1, char 17'],
  ['SELECT count(distinct) FROM myseries', 'found ), expected (, identifier at line 1, char 22'],
  ["SELECT field1 from myseries WHERE host =~ 'asd' LIMIT 1", 'found asd, expected regex at line 1, char 42'],
  ['SELECT value > 2 FROM cpu', 'invalid operator > in SELECT clause at line 1, char 8; operator is intended for WHERE clause'],
  ['SELECT value = 2 FROM cpu', 'invalid operator = in SELECT clause at line 1, char 8; operator is intended for WHERE clause'],
  ['SELECT s =~ /foo/ FROM cpu', 'invalid operator =~ in SELECT clause at line 1, char 8; operator is intended for WHERE clause'],
  ['SELECT mean(value) FROM cpu FILL + value', 'fill must be a function call'],
  ['DELETE', 'found EOF, expected FROM, WHERE at line 1, char 8'],
  ['DELETE FROM', 'found EOF, expected identifier at line 1, char 13'],
  ['DELETE FROM &foo.myseries', 'found &, expected identifier at line 1, char 13'],
  ['DELETE FROM ^foo.myseries', 'found ^, expected identifier at line 1, char 13'],
  ['DELETE FROM *foo.myseries', 'found *, expected identifier at line 1, char 13'],
  ['DELETE FROM myseries WHERE', 'found EOF, expected identifier, string, number, bool at line 1, char 28'],
  ['DELETE FROM foo..myseries', 'database not supported at line 1, char 1'],
  ['DELETE FROM rp.m WHERE t = 1', 'retention policy not supported at line 1, char 1'],
  ['SHOW DATABASES; DELETE FROM db.rp.m', 'retention policy not supported at line 1, char 1'],
  ['DROP MEASUREMENT', 'found EOF, expected identifier at line 1, char 18'],
  ['DROP SERIES', 'found EOF, expected FROM, WHERE at line 1, char 13'],
  ['DROP SERIES FROM', 'found EOF, expected identifier at line 1, char 18'],
  ['DROP SERIES FROM src WHERE', 'found EOF, expected identifier, string, number, bool at line 1, char 28'],
  ['DROP SERIES FROM "foo".myseries', 'retention policy not supported at line 1, char 1'],
  ['DROP SERIES FROM foo..myseries', 'database not supported at line 1, char 1'],
  ['SHOW CONTINUOUS', 'found EOF, expected QUERIES at line 1, char 17'],
  ['SHOW RETENTION', 'found EOF, expected POLICIES at line 1, char 16'],
  ['SHOW RETENTION ON', 'found ON, expected POLICIES at line 1, char 16'],
  ['SHOW RETENTION POLICIES ON', 'found EOF, expected identifier at line 1, char 28'],
  ['SHOW SHARD', 'found EOF, expected GROUPS at line 1, char 12'],
  ['SHOW FOO', 'found FOO, expected CONTINUOUS, DATABASES, DIAGNOSTICS, FIELD, GRANTS, MEASUREMENT, MEASUREMENTS, QUERIES, RETENTION, SERIES, SHARD, SHARDS, STATS, SUBSCRIPTIONS, TAG, USERS at line 1, char 6'],
  ['SHOW STATS FOR', 'found EOF, expected string at line 1, char 16'],
  ['SHOW DIAGNOSTICS FOR', 'found EOF, expected string at line 1, char 22'],
  ['SHOW GRANTS FOR', 'found EOF, expected identifier at line 1, char 17'],
  ['DROP CONTINUOUS', 'found EOF, expected QUERY at line 1, char 17'],
  ['DROP CONTINUOUS QUERY', 'found EOF, expected identifier at line 1, char 23'],
  ['DROP CONTINUOUS QUERY myquery', 'found EOF, expected ON at line 1, char 31'],
  ['DROP CONTINUOUS QUERY myquery ON', 'found EOF, expected identifier at line 1, char 34'],
  ['CREATE CONTINUOUS', 'found EOF, expected QUERY at line 1, char 19'],
  ['CREATE CONTINUOUS QUERY', 'found EOF, expected identifier at line 1, char 25'],
  ['CREATE CONTINUOUS QUERY cq ON db RESAMPLE FOR 5s BEGIN SELECT mean(value) INTO cpu_mean FROM cpu GROUP BY time(10s) END', 'FOR duration must be >= GROUP BY time duration: must be a minimum of 10s, got 5s'],
  ['CREATE CONTINUOUS QUERY cq ON db RESAMPLE EVERY 10s FOR 5s BEGIN SELECT mean(value) INTO cpu_mean FROM cpu GROUP BY time(5s) END', 'FOR duration must be >= GROUP BY time duration: must be a minimum of 10s, got 5s'],
  ['DROP FOO', 'found FOO, expected CONTINUOUS, DATABASE, MEASUREMENT, RETENTION, SERIES, SHARD, SUBSCRIPTION, USER at line 1, char 6'],
  ['CREATE FOO', 'found FOO, expected CONTINUOUS, DATABASE, USER, RETENTION, SUBSCRIPTION at line 1, char 8'],
  ['CREATE DATABASE', 'found EOF, expected identifier at line 1, char 17'],
  ['CREATE DATABASE "testdb" WITH', 'found EOF, expected DURATION, NAME, REPLICATION, SHARD at line 1, char 31'],
  ['CREATE DATABASE "testdb" WITH DURATION', 'found EOF, expected duration at line 1, char 40'],
  ['CREATE DATABASE "testdb" WITH REPLICATION', 'found EOF, expected integer at line 1, char 43'],
  ['CREATE DATABASE "testdb" WITH NAME', 'found EOF, expected identifier at line 1, char 36'],
  ['CREATE DATABASE "testdb" WITH SHARD', 'found EOF, expected DURATION at line 1, char 37'],
  ['DROP DATABASE', 'found EOF, expected identifier at line 1, char 15'],
  ['DROP RETENTION', 'found EOF, expected POLICY at line 1, char 16'],
  ['DROP RETENTION POLICY', 'found EOF, expected identifier at line 1, char 23'],
  ['DROP RETENTION POLICY "1h.cpu"', 'found EOF, expected ON at line 1, char 31'],
  ['DROP RETENTION POLICY "1h.cpu" ON', 'found EOF, expected identifier at line 1, char 35'],
  ['DROP USER', 'found EOF, expected identifier at line 1, char 11'],
  ['DROP SUBSCRIPTION', 'found EOF, expected identifier at line 1, char 19'],
  ['DROP SUBSCRIPTION "name"', 'found EOF, expected ON at line 1, char 25'],
  ['DROP SUBSCRIPTION "name" ON ', 'found EOF, expected identifier at line 1, char 30'],
  ['DROP SUBSCRIPTION "name" ON "db"', 'found EOF, expected . at line 1, char 33'],
  ['DROP SUBSCRIPTION "name" ON "db".', 'found EOF, expected identifier at line 1, char 34'],
  ['CREATE USER testuser', 'found EOF, expected WITH at line 1, char 22'],
  ['CREATE USER testuser WITH', 'found EOF, expected PASSWORD at line 1, char 27'],
  ['CREATE USER testuser WITH PASSWORD', 'found EOF, expected string at line 1, char 36'],
  ["CREATE USER testuser WITH PASSWORD 'pwd' WITH", 'found EOF, expected ALL at line 1, char 47'],
  ["CREATE USER testuser WITH PASSWORD 'pwd' WITH ALL", 'found EOF, expected PRIVILEGES at line 1, char 51'],
  ['CREATE SUBSCRIPTION', 'found EOF, expected identifier at line 1, char 21'],
  ['CREATE SUBSCRIPTION "name"', 'found EOF, expected ON at line 1, char 27'],
  ['CREATE SUBSCRIPTION "name" ON ', 'found EOF, expected identifier at line 1, char 32'],
  ['CREATE SUBSCRIPTION "name" ON "db"', 'found EOF, expected . at line 1, char 35'],
  ['CREATE SUBSCRIPTION "name" ON "db".', 'found EOF, expected identifier at line 1, char 36'],
  ['CREATE SUBSCRIPTION "name" ON "db"."rp"', 'found EOF, expected DESTINATIONS at line 1, char 40'],
  ['CREATE SUBSCRIPTION "name" ON "db"."rp" DESTINATIONS', 'found EOF, expected ALL, ANY at line 1, char 54'],
  ['CREATE SUBSCRIPTION "name" ON "db"."rp" DESTINATIONS ALL ', 'found EOF, expected string at line 1, char 59'],
  ['GRANT', 'found EOF, expected READ, WRITE, ALL [PRIVILEGES] at line 1, char 7'],
  ['GRANT BOGUS', 'found BOGUS, expected READ, WRITE, ALL [PRIVILEGES] at line 1, char 7'],
  ['GRANT READ', 'found EOF, expected ON at line 1, char 12'],
  ['GRANT READ FROM', 'found FROM, expected ON at line 1, char 12'],
  ['GRANT READ ON', 'found EOF, expected identifier at line 1, char 15'],
  ['GRANT READ ON TO', 'found TO, expected identifier at line 1, char 15'],
  ['GRANT READ ON testdb', 'found EOF, expected TO at line 1, char 22'],
  ['GRANT READ ON testdb TO', 'found EOF, expected identifier at line 1, char 25'],
  ['GRANT READ TO', 'found TO, expected ON at line 1, char 12'],
  ['GRANT WRITE TO', 'found TO, expected ON at line 1, char 13'],
  ['GRANT ALL', 'found EOF, expected ON, TO at line 1, char 11'],
  ['GRANT ALL PRIVILEGES', 'found EOF, expected ON, TO at line 1, char 22'],
  ['GRANT ALL FROM', 'found FROM, expected ON, TO at line 1, char 11'],
  ['GRANT ALL PRIVILEGES FROM', 'found FROM, expected ON, TO at line 1, char 22'],
  ['GRANT ALL ON testdb FROM', 'found FROM, expected TO at line 1, char 21'],
  ['GRANT ALL PRIVILEGES ON testdb TO', 'found EOF, expected identifier at line 1, char 35'],
  ['GRANT ALL TO', 'found EOF, expected identifier at line 1, char 14'],
  ['KILL', 'found EOF, expected QUERY at line 1, char 6'],
  ['KILL QUERY 10s', 'found 10s, expected integer at line 1, char 12'],
  ["KILL QUERY 4 ON 'host'", 'found host, expected identifier at line 1, char 16'],
  ['REVOKE', 'found EOF, expected READ, WRITE, ALL [PRIVILEGES] at line 1, char 8'],
  ['REVOKE READ TO', 'found TO, expected ON at line 1, char 13'],
  ['REVOKE READ ON testdb', 'found EOF, expected FROM at line 1, char 23'],
  ['REVOKE ALL', 'found EOF, expected ON, FROM at line 1, char 12'],
  ['REVOKE ALL PRIVILEGES TO', 'found TO, expected ON, FROM at line 1, char 23'],
  ['REVOKE ALL ON testdb TO', 'found TO, expected FROM at line 1, char 22'],
  ['REVOKE ALL PRIVILEGES FROM', 'found EOF, expected identifier at line 1, char 28'],
  ['CREATE RETENTION', 'found EOF, expected POLICY at line 1, char 18'],
  ['CREATE RETENTION POLICY policy1 ON testdb', 'found EOF, expected DURATION at line 1, char 43'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION', 'found EOF, expected duration at line 1, char 52'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION bad', 'found bad, expected duration at line 1, char 52'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h', 'found EOF, expected REPLICATION at line 1, char 54'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h REPLICATION', 'found EOF, expected integer at line 1, char 67'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h REPLICATION 3.14', 'found 3.14, expected integer at line 1, char 67'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h REPLICATION 0', 'invalid value 0: must be 1 <= n <= 2147483647 at line 1, char 67'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h REPLICATION bad', 'found bad, expected integer at line 1, char 67'],
  ['CREATE RETENTION POLICY policy1 ON testdb DURATION 1h REPLICATION 2 SHARD DURATION INF', 'invalid duration INF for shard duration at line 1, char 84'],
  ['ALTER', 'found EOF, expected RETENTION at line 1, char 7'],
  ['ALTER RETENTION', 'found EOF, expected POLICY at line 1, char 17'],
  ['ALTER RETENTION POLICY', 'found EOF, expected identifier at line 1, char 24'],
  ['ALTER RETENTION POLICY policy1', 'found EOF, expected ON at line 1, char 32'],
  ['ALTER RETENTION POLICY policy1 ON', 'found EOF, expected identifier at line 1, char 35'],
  ['ALTER RETENTION POLICY policy1 ON testdb', 'found EOF, expected DURATION, REPLICATION, SHARD, DEFAULT at line 1, char 42'],
  ['ALTER RETENTION POLICY policy1 ON testdb REPLICATION 1 REPLICATION 2', 'found duplicate REPLICATION option at line 1, char 56'],
  ['ALTER RETENTION POLICY policy1 ON testdb DURATION 15251w', 'overflowed duration 15251w: choose a smaller duration or INF at line 1, char 51'],
  ['ALTER RETENTION POLICY policy1 ON testdb DURATION INF SHARD DURATION INF', 'invalid duration INF for shard duration at line 1, char 70'],
  ['SET', 'found EOF, expected PASSWORD at line 1, char 5'],
  ['SET PASSWORD', 'found EOF, expected FOR at line 1, char 14'],
  ['SET PASSWORD something', 'found something, expected FOR at line 1, char 14'],
  ['SET PASSWORD FOR', 'found EOF, expected identifier at line 1, char 18'],
  ['SET PASSWORD FOR dejan', 'found EOF, expected = at line 1, char 24'],
  ['SET PASSWORD FOR dejan =', 'found EOF, expected string at line 1, char 25'],
  ['SET PASSWORD FOR dejan = bla', 'found bla, expected string at line 1, char 26'],
  ['$SHOW$DATABASES', `found $SHOW, expected ${FIRST} at line 1, char 1`],
  ['SELECT * FROM cpu WHERE "tagkey" = $$', 'empty bound parameter'],
  // parser_test.go TestParser_ParseExpr
  ['SELECT -9223372036854775809 FROM m', 'constant -9223372036854775809 underflows int64'],
  ['SELECT -+1 FROM m', 'found +, expected identifier, number, duration, ( at line 1, char 9'],
  // recorded from 1.6.7 (conformance suite)
  ["SELECT usage_user FROM cpu LIMIT 1 TZ('Invalid/Zone')", 'unable to find time zone Invalid/Zone'],
  ['SELECT * FROM cpu WHERE host =~ /[/', 'error parsing regexp: missing closing ]: `[` at line 1, char 32'],
  ['SELECT usage_user FROM cpu WHERE host = $host', 'missing parameter: host'],
  ['SELECT mean(usage_user) FROM cpu GROUP BY time(1h) fill(sideways)', 'expected number argument in fill()'],
  // multi-statement and scanner details
  ['SELECT a FROM b SELECT c FROM d', 'found SELECT, expected ; at line 1, char 17'],
  ['CREATE DATABASE foo CREATE DATABASE bar', 'found CREATE, expected ; at line 1, char 21'],
  ['SELECT a FROM b;\nSHOW FOO', 'found FOO, expected CONTINUOUS, DATABASES, DIAGNOSTICS, FIELD, GRANTS, MEASUREMENT, MEASUREMENTS, QUERIES, RETENTION, SERIES, SHARD, SHARDS, STATS, SUBSCRIPTIONS, TAG, USERS at line 2, char 6'],
  ['SELECT 5x FROM m', 'invalid duration'],
  ['SELECT a FROM m WHERE b = /x/', 'found /, expected identifier, string, number, bool at line 1, char 27'],
  ['SELECT a FROM m WHERE b =~ /(/', 'error parsing regexp: missing closing ): `(` at line 1, char 27'],
  ['SELECT a FROM m WHERE b =~ /a**/', 'error parsing regexp: invalid nested repetition operator: `**` at line 1, char 27'],
  ['SELECT a FROM m WHERE b =~ /*/', 'error parsing regexp: missing argument to repetition operator: `*` at line 1, char 27'],
  ['SELECT a FROM m WHERE b =~ /\\q/', 'error parsing regexp: invalid escape sequence: `\\q` at line 1, char 27'],
  ['SELECT a FROM m WHERE b =~ /(?=x)/', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=` at line 1, char 27'],
  ['SELECT a::bogus FROM m', 'found bogus, expected float, integer, unsigned, string, boolean, field, tag at line 1, char 11'],
  ['SELECT a FROM a.b.c.d', 'too many segments in "a"."b"."c".d at line 1, char 1'],
  ["SELECT a FROM m WHERE b = 'x", 'found x, expected identifier, string, number, bool at line 1, char 26'],
  ['SELECT a FROM m TZ(1)', 'expected string argument in tz()'],
  // a word ending in a double quote is the quoted name alone (recorded from 1.6.7); the ruby
  // gem sends such words for names holding a `"`
  ['SELECT * FROM"m"', 'found m, expected FROM at line 1, char 10'],
  ['SELECT"v" FROM m', `found v, expected ${FIRST} at line 1, char 1`],
  ['CREATE DATABASE "a"b""', 'found IDENT, expected ; at line 1, char 20'],
  ['CREATE RETENTION POLICY "one "day"" ON q DURATION 1d REPLICATION 1', 'found IDENT, expected ON at line 1, char 31'],
  ['SELECT a"b FROM m', 'found b FROM m, expected identifier, string, number, bool at line 1, char 8'],
  ['SELECT a"b\\z" FROM m', 'found \\z, expected identifier, string, number, bool at line 1, char 12'],
  ['DROP USER x"y"z', 'found z, expected ; at line 1, char 15'],
  ['SELECT v FROM m LIMIT a"1"', 'found 1, expected integer at line 1, char 23'],
  ['SHOW DATABASES"x"', 'found x, expected CONTINUOUS, DATABASES, DIAGNOSTICS, FIELD, GRANTS, MEASUREMENT, MEASUREMENTS, QUERIES, RETENTION, SERIES, SHARD, SHARDS, STATS, SUBSCRIPTIONS, TAG, USERS at line 1, char 6'],
  ['SELECT v FROM m ""', 'found IDENT, expected ; at line 1, char 17'],
  ["SELECT v FROM m ''", 'found STRING, expected ; at line 1, char 16'],
];

test('1.x error texts', () => {
  const mismatches: string[] = [];
  for (const [q, detail] of ERROR_CASES) {
    try {
      parseQuery(q);
      mismatches.push(`${q}\n  parsed, expected: ${detail}`);
    } catch (e) {
      assert.ok(e instanceof ParseError, `${q}: not a ParseError: ${String(e)}`);
      assert.equal(e.message, 'error parsing query: ' + e.detail);
      assert.equal(e.status, 400);
      if (e.detail !== detail) mismatches.push(`${q}\n  got:      ${e.detail}\n  expected: ${detail}`);
    }
  }
  assert.deepEqual(mismatches, []);
});

test('comments between statements (parser_test.go TestParser_ParseQuery_SkipComments)', () => {
  const q = `SELECT * FROM cpu; -- read from cpu database

/* create continuous query */
CREATE CONTINUOUS QUERY cq0 ON db0 BEGIN
	SELECT mean(*) INTO db1..:MEASUREMENT FROM cpu GROUP BY time(5m)
END;

/* just a multline comment
what is this doing here?
**/

-- should ignore the trailing multiline comment /*
SELECT mean(value) FROM gpu;
-- trailing comment at the end`;
  assert.deepEqual(parseQuery(q).map((s) => s.kind), ['Select', 'CreateContinuousQuery', 'Select']);
});

test('empty queries and separators', () => {
  assert.deepEqual(parseQuery(''), []);
  assert.deepEqual(parseQuery(' ;; \n'), []);
  assert.equal(parseQuery('SHOW DATABASES;\nSHOW USERS;\n').length, 2);
  assert.equal(parseQuery("SELECT \"a;b\" FROM m WHERE s = ';' AND r =~ /;/ -- ; comment\n; /* ; */ SHOW USERS").length, 2);
});
