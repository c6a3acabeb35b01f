/** Statement shapes: masking, what gives no shape, and the promise that one shape prints to one normalized text. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery, printStatement, type Statement } from '../../ql/index.js';
import { StatementClock } from './clock.js';
import { normalizeStatement } from './normalize.js';
import { statementShapes } from './shape.js';
import { shapeableText, statementText } from './statement-text.js';
import { StatementSummaries, type StatementSummaryEntry } from './summary.js';

/** A deterministic generator (LCG): the same texts on every run. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

/** Values per slot kind, with the ones the printer treats specially: zero, negative, empty, escapes. */
const VALUES: Record<string, readonly string[]> = {
  INT: ['0', '00', '1', '5', '10', '007', '1451606400000000000', '9223372036854775807', '9223372036854775808', '18446744073709551615', '18446744073709551616'],
  NUM: ['0', '1', '0.0', '0.5', '2.50', '5.', '.5', '00.00', '100', '3.14159', `1${'0'.repeat(400)}.5`, `0.${'0'.repeat(400)}1`],
  DUR: ['0s', '1s', '10s', '1m', '90m', '1h30m', '0h0m', '0h5m', '1d', '2w', '5µs', '100ns', '1ms', '281474976710656w', '281474976710655w604800s', '1w9223372036854775807ns9222767236854775809ns', '1w1ns1ns'],
  CONJ: ['AND', 'OR'],
  STR: [`''`, `'a'`, `'host_42'`, `'2016-01-01T05:17:00Z'`, `'x\\'y'`, `'a"b'`, `'a;b'`, `'--'`, `'/'`, `'\\n'`, `'Europe/Paris'`],
};

/**
 * Statement templates: slots INT, NUM, DUR, STR, CONJ are filled from VALUES. The last ones have a
 * quote inside a regex or a comment, where a scan that took it for a string would mask the AND/OR.
 */
const TEMPLATES: readonly string[] = [
  `SELECT max(usage_user) from cpu where (hostname = STR) and time >= STR and time < STR group by time(DUR)`,
  `SELECT mean(v) FROM cpu WHERE time > now() - DUR GROUP BY time(DUR, DUR), host fill(NUM) LIMIT INT OFFSET INT SLIMIT INT SOFFSET INT`,
  `SELECT v FROM cpu WHERE x = -NUM AND y <> NUM OR NOT -INT AND z = NUM tz(STR)`,
  `SELECT v * NUM + INT, -v, top(v, INT), percentile(v, NUM) FROM cpu WHERE v - INT > -DUR`,
  `SELECT * FROM cpu WHERE NOT NUM OR NOT -NUM OR NOT INT GROUP BY time(DUR, -DUR) fill(-NUM)`,
  `SELECT count(v) INTO "db".autogen.m FROM cpu WHERE host =~ STR AND time > -INT GROUP BY time(DUR) LIMIT INT`,
  `SELECT v FROM (SELECT v FROM cpu WHERE a = STR LIMIT INT) WHERE b = NUM ORDER BY time DESC LIMIT INT`,
  `SHOW STATS FOR STR`,
  `SHOW DIAGNOSTICS FOR STR`,
  `SHOW TAG VALUES FROM cpu WITH KEY = host WHERE region = STR LIMIT INT OFFSET INT`,
  `SHOW MEASUREMENTS WHERE a = STR LIMIT INT OFFSET INT`,
  `SHOW SERIES FROM cpu WHERE a = STR LIMIT INT`,
  `SHOW TAG KEYS FROM cpu LIMIT INT OFFSET INT SLIMIT INT SOFFSET INT`,
  `CREATE DATABASE db WITH DURATION DUR REPLICATION INT SHARD DURATION DUR NAME rp`,
  `CREATE RETENTION POLICY rp ON db DURATION DUR REPLICATION INT SHARD DURATION DUR DEFAULT`,
  `ALTER RETENTION POLICY rp ON db DURATION DUR SHARD DURATION DUR`,
  `CREATE CONTINUOUS QUERY cq ON db RESAMPLE EVERY DUR FOR DUR BEGIN SELECT mean(v) INTO m FROM cpu GROUP BY time(DUR) END`,
  `CREATE SUBSCRIPTION s ON db.rp DESTINATIONS ALL STR, STR`,
  `DELETE FROM cpu WHERE time < STR AND host = STR`,
  `DROP SERIES FROM cpu WHERE host = STR`,
  `KILL QUERY INT`,
  `DROP SHARD INT`,
  `EXPLAIN SELECT v FROM cpu WHERE a = NUM LIMIT INT`,
  `SELECT v FROM cpu WHERE a = STR; SHOW STATS FOR STR; SELECT v FROM cpu LIMIT INT`,
  `SELECT v / NUM FROM cpu WHERE host =~ /a'/ CONJ x = STR`,
  `SELECT v FROM cpu /* it's */ WHERE a = STR CONJ b = 'c'`,
  `SELECT v FROM cpu WHERE a = STR CONJ b = NUM -- it's`,
];

/** Of `count` query texts from TEMPLATES with random values, those that parse. */
function generatedQueries(seed: number, count: number): { text: string; statements: Statement[] }[] {
  const rnd = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: { text: string; statements: Statement[] }[] = [];
  for (let k = 0; k < count; k++) {
    const text = pick(TEMPLATES).replace(/\b(INT|NUM|DUR|STR|CONJ)\b/g, (slot) => pick(VALUES[slot]!));
    try {
      out.push({ text, statements: parseQuery(text) });
    } catch {
      // a value out of range for its place (REPLICATION 0, a duration that overflows, ...)
    }
  }
  return out;
}

describe('statementShapes', () => {
  const cases: [string, string[]][] = [
    [
      `SELECT max(usage_user) from cpu where (hostname = 'host_42') and time >= '2016-01-01T05:17:00Z' group by time(1m)`,
      [`SELECT max(usage_user) from cpu where (hostname = '?') and time >= '?' group by time(1m)`],
    ],
    ['SELECT v FROM cpu LIMIT 10 OFFSET 0', ['SELECT v FROM cpu LIMIT 1 OFFSET 0']],
    ['SELECT v FROM cpu WHERE x = -2.50 AND y > 0.0 AND z < .5 AND w = 5.', ['SELECT v FROM cpu WHERE x = -1.1 AND y > 0.0 AND z < .1 AND w = 1.']],
    ['SELECT mean(v) FROM "my db"."rp 1".cpu2 GROUP BY time(1h30m, 0s) fill(100)', ['SELECT mean(v) FROM "my db"."rp 1".cpu2 GROUP BY time(1h1m, 0s) fill(1)']],
    [`SHOW STATS FOR ''`, [`SHOW STATS FOR ''`]],
    [`SELECT v FROM cpu WHERE a = 'x\\'y;' AND "b;\\"" = 'z'`, [`SELECT v FROM cpu WHERE a = '?' AND "b;\\"" = '?'`]],
    ['SELECT v FROM cpu; SHOW DATABASES', ['SELECT v FROM cpu', ' SHOW DATABASES']],
    [';; SHOW DATABASES;; ;', [' SHOW DATABASES']],
    ['', []],
  ];
  for (const [text, want] of cases) {
    it(`shapes ${JSON.stringify(text)}`, () => assert.deepEqual(statementShapes(text), want));
  }

  it('gives none for what it does not model: regexes, division, comments, parameters, broken strings, long statements', () => {
    for (const text of [
      'SELECT v FROM /cpu.*/',
      'SELECT v / 2 FROM cpu',
      'SELECT v FROM cpu -- recent\nWHERE time > now() - 1h',
      'SELECT v FROM cpu /* c */',
      'SELECT v FROM cpu WHERE host = $host',
      `SELECT v FROM cpu WHERE host = 'open`,
      `SELECT v FROM cpu WHERE host = 'a\nb'`,
      `SELECT v FROM "cpu`,
      `SELECT v FROM cpu WHERE a = '${'x'.repeat(3000)}'`,
    ]) {
      assert.equal(statementShapes(text), undefined, text);
    }
    assert.deepEqual(statementShapes('SELECT v FROM cpu WHERE time > 1451606400000000000'), ['SELECT v FROM cpu WHERE time > 1']);
  });

  it('one shape, one normalized text: statements differing only in their values (generated)', () => {
    const normalizedByShape = new Map<string, Set<string>>();
    let shaped = 0;
    const generated = generatedQueries(20_241_127, 6000);
    for (const { text, statements } of generated) {
      const shapes = statementShapes(text);
      if (shapes === undefined) continue;
      assert.equal(shapes.length, statements.length, text);
      statements.forEach((s, i) => {
        const shape = shapes[i]!;
        const forms = normalizedByShape.get(shape) ?? new Set<string>();
        forms.add(normalizeStatement(printStatement(s)));
        normalizedByShape.set(shape, forms);
        shaped++;
      });
    }
    for (const [shape, forms] of normalizedByShape) assert.equal(forms.size, 1, `${shape}\n→ ${[...forms].join('\n→ ')}`);
    // Not vacuous: most texts parse and have shapes, and shapes are shared by many texts.
    assert.ok(generated.length > 4000, `${generated.length} parsed`);
    assert.ok(shaped > 4000, `${shaped} shaped`);
    assert.ok(normalizedByShape.size < shaped / 4, `${normalizedByShape.size} shapes for ${shaped} statements`);
  });
});

describe('recording by shape', () => {
  /** What the summary shows, without the timings (each clock measures its own). */
  const shown = (e: StatementSummaryEntry) => ({
    digest: e.digest, normalized_text: e.normalized_text, sample_text: e.sample_text,
    exec_count: e.exec_count, error_count: e.error_count, last_error: e.last_error,
  });

  it('gives the summary that printing every statement gives (generated texts, errors, eviction)', () => {
    const byShape = new StatementSummaries({ enabled: true, max_entries: 40 });
    const byPrint = new StatementSummaries({ enabled: true, max_entries: 40 });
    let k = 0;
    for (const { text, statements } of generatedQueries(7, 3000)) {
      const results = statements.map((_, i) => ({ statementId: i, error: ++k % 7 === 0 ? `boom ${k}` : undefined }));
      new StatementClock(statements, statementText, shapeableText(text, false, statements)).finish(results, byShape);
      new StatementClock(statements, statementText).finish(results, byPrint);
      if (k % 500 < 3) assert.deepEqual(byShape.list().map(shown), byPrint.list().map(shown), text);
    }
    assert.deepEqual(byShape.list().map(shown), byPrint.list().map(shown));
    assert.equal(byShape.size, 40);
  });
});
