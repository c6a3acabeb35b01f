/**
 * Random statements that vary the TEXT of a query the way clients and people write it, over a
 * database of awkward names: comments (`--`, `/* *\/`), keyword and function case, quoted
 * identifiers with escapes, keywords as identifiers, unicode and spaces in names, measurement
 * names with dots and slashes read through `db.rp.m` / `db..m` / `rp.m` across two retention
 * policies, time literals (RFC 3339 with and without fractions and zones, date-only, integer
 * ns, durations), number literals, string escapes, regex literals with escaped slashes,
 * arithmetic precedence, a tag and a field of one name under `*`, `::tag`, `::field` and
 * `GROUP BY *`, and malformed input of each kind (1.6.7's parse error texts with positions).
 */
import type { Picker } from './pick.js';

/** The second retention policy the data is also written into (not the default). */
export const TEXT_RP = 'two';

const T0 = Date.UTC(2024, 2, 9) * 1e6;
const ns = (minutes: number): string => String(T0 + minutes * 60e9);

/** Line protocol of the awkward names: the same points go to autogen, a few others to `two`. */
export function queryTextData(rp: 'autogen' | 'two'): string {
  const lines: string[] = [];
  const shift = rp === 'two' ? 1000 : 0;
  for (let i = 0; i < 12; i++) {
    const t = ns(i * 10);
    const host = i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : "o'k";
    lines.push(`m.dot,host=${host.replace(/ /g, '\\ ')},value=t${i % 2} value=${shift + i * 1.5},n=${i}i ${t}`);
    lines.push(`a/b,host=${host} value=${shift + i} ${t}`);
    lines.push(`température,pièce=salon\\ bleu valeur=${shift + 20 + i / 4} ${t}`);
    lines.push(`my\\ meas,my\\ tag=x\\ y my\\ field=${shift + i}i,other=${i % 2 === 0} ${t}`);
    lines.push(`select,from=f${i % 2} where=${shift + i},"quoted"=${i * 2} ${t}`);
    lines.push(`a"b,t"k=v${i % 2} f"x=${shift + i} ${t}`);
  }
  return `${lines.join('\n')}\n`;
}

const FROM_DOT = (db: string): string[] => ['"m.dot"', `${db}.."m.dot"`, `${db}.autogen."m.dot"`, `"${db}"."autogen"."m.dot"`, `"${db}".."m.dot"`, `two."m.dot"`, `${db}.two."m.dot"`, `"two"."m.dot"`, `autogen."m.dot"`];

function kw(p: Picker, word: string): string {
  return p.pick([word, word.toLowerCase(), word[0] + word.slice(1).toLowerCase()]);
}

function comment(p: Picker): string {
  return p.pick([' ', ' ', ' ', ' /* c */ ', ' /**/ ', '\n', '\t', ' /* multi\nline */ ']);
}

function timeLiteral(p: Picker): string {
  return p.pick([
    "'2024-03-09'",
    "'2024-03-09T00:00:00Z'",
    "'2024-03-09T00:20:00.5Z'",
    "'2024-03-09T00:20:00.123456789Z'",
    "'2024-03-09T01:20:00+01:00'",
    "'2024-03-08T19:20:00-05:00'",
    "'2024-03-09 00:30:00'",
    "'2024-03-09 00:30:00.25'",
    "'2024-03-09T00:30:00'",
    "'2024-03-09T00:30Z'",
    String(T0 + 30 * 60e9),
    `${(T0 + 30 * 60e9) / 1e6}ms`,
    `${(T0 + 30 * 60e9) / 1e9}s`,
    `${(T0 + 30 * 60e9) / 1e3}u`,
    `${(T0 + 30 * 60e9) / 1e3}µs`,
    "'2024-03-09T00:40:00Z' - 1h30m",
    "'2024-03-09T00:00:00Z' + 1500ms",
    "'2024-03-09T00:00:00Z' + 1d2h",
    'now() - 1w',
    "'2024-3-9'",
    "'2024-03-09T25:00:00Z'",
  ]);
}

function numberLiteral(p: Picker): string {
  return p.pick(['1e1', '1.5E+1', '.5', '5.', '0.0', '-0', '9223372036854775807', '9223372036854775808', '1e400', '007', '1_0', '-.5', '+3', '15e-1']);
}

function dotQuery(p: Picker, db: string): string {
  const from = p.pick(FROM_DOT(db));
  const field = p.pick([
    'value', 'value::field', 'value::tag', '"value"', '*', '*::tag', '*::field', 'n', '"n"::integer', 'value, value::tag',
    'value + n * 2', '(value + n) * 2', 'value - -n', 'value / 0', 'n % 2', '-value', 'value * 2 / 4 - 1', 'n & 3 | 4', 'n ^ 1',
    'value::tag, value::field', `${p.pick(['mean', 'MEAN', 'Mean'])}(value)`, `${p.pick(['count', 'COUNT'])}(value::field)`, 'max(value) - min(value) * 2',
    `value * ${numberLiteral(p)}`, 'host', 'host::tag, *',
  ]);
  const conds = [
    '',
    ` ${kw(p, 'WHERE')} time >= ${timeLiteral(p)}`,
    ` ${kw(p, 'WHERE')} time >= ${timeLiteral(p)} ${kw(p, 'AND')} time < '2024-03-09T01:30:00Z'`,
    ` ${kw(p, 'WHERE')} value > ${numberLiteral(p)}`,
    ` ${kw(p, 'WHERE')} host = ${p.pick(["'o\\'k'", "'a'", "'o''k'", '"a"', "'a\\\\b'", "'b\\n'"])}`,
    ` ${kw(p, 'WHERE')} value = ${p.pick(["'t1'", 't1', "'t0'"])}`,
    ` ${kw(p, 'WHERE')} value::tag = 't1'`,
    ` ${kw(p, 'WHERE')} host =~ ${p.pick(['/o\'k/', '/^[ab]$/', '/\\//', '/(?i)A/', '/a|/'])}`,
  ];
  const group = p.pick(['', ` ${kw(p, 'GROUP')} ${kw(p, 'BY')} *`, ` ${kw(p, 'GROUP')} ${kw(p, 'BY')} value`, ` GROUP BY host, value`, ` GROUP BY "value"`]);
  const isAgg = /\(/.test(field) && !/^\(/.test(field);
  const time = isAgg && p.chance(0.5) ? `${group ? ', ' : ' GROUP BY '}time(${p.pick(['30m', '1h', '1500s', '1d', '1w', '1h30m', '90m', '10s', '0s'])})` : '';
  // GROUP BY time always gets both bounds (windows up to now() answer hundreds of MB).
  const picked = p.pick(conds);
  const bounded = /time </.test(picked) ? picked : picked.replace(/ time >= [^ ]+( [-+] [^ ]+)?/, '');
  const cond = !time ? picked : `${bounded || ' WHERE'}${bounded ? ' AND' : ''} time >= '2024-03-09T00:00:00Z' AND time < '2024-03-09T02:00:00Z'`;
  return `${kw(p, 'SELECT')}${comment(p)}${field}${comment(p)}${kw(p, 'FROM')} ${from}${cond}${group}${time}`;
}

function namesQuery(p: Picker, db: string): string {
  return p.pick([
    `SELECT * FROM "a/b"`,
    `SELECT * FROM /a\\/b/`,
    `SELECT * FROM /\\//`,
    `SELECT value FROM "a/b" WHERE host = 'a'`,
    `SELECT * FROM température`,
    `SELECT valeur FROM "température" WHERE "pièce" = 'salon bleu'`,
    `SELECT mean(valeur) FROM température GROUP BY "pièce"`,
    `SELECT "my field" FROM "my meas"`,
    `SELECT * FROM "my meas" WHERE "my tag" = 'x y'`,
    `SELECT "my field" + 1 FROM "my meas" GROUP BY "my tag"`,
    `SELECT * FROM "select"`,
    `SELECT "where" FROM "select" WHERE "from" = 'f1'`,
    `SELECT "quoted" FROM "select"`,
    `SELECT where FROM select`,
    `SELECT * FROM "a\\"b"`,
    `SELECT "f\\"x" FROM "a\\"b"`,
    `SELECT * FROM "a""b"`,
    `SELECT * FROM "a\\"b" GROUP BY "t\\"k"`,
    `SELECT * FROM ${db}.."a/b"`,
    `SELECT * FROM ${db}.${p.pick(['two', 'autogen', 'nosuch'])}."a/b"`,
    `SELECT * FROM "${db}".."température"`,
    `SELECT count(*) FROM /.*/`,
    `SELECT count(*) FROM two./.*/`,
    `SELECT * FROM "m.dot", "a/b" LIMIT 2`,
    `SELECT * FROM telemetry..cpu WHERE time < '2024-03-09T00:10:00Z' LIMIT 2`,
    `SELECT * FROM "telemetry"."autogen"."cpu" LIMIT 1`,
    `SELECT * FROM archive.longterm.rollup LIMIT 1`,
    `SELECT * FROM archive..rollup LIMIT 1`,
    `SHOW MEASUREMENTS`,
    `SHOW MEASUREMENTS WITH MEASUREMENT =~ /\\./`,
    `SHOW MEASUREMENTS WITH MEASUREMENT = "m.dot"`,
    `SHOW TAG KEYS FROM "m.dot"`,
    `SHOW FIELD KEYS FROM "a\\"b"`,
    `SHOW TAG VALUES FROM température WITH KEY = "pièce"`,
    `SHOW TAG VALUES WITH KEY = "value"`,
    `SHOW SERIES FROM "my meas"`,
    `SHOW FIELD KEYS FROM two."m.dot"`,
    `SHOW SERIES FROM ${db}.two."a/b"`,
    `SELECT value AS "the value", n AS "select" FROM "m.dot"`,
    `SELECT value AS value FROM "m.dot" GROUP BY value`,
    `SELECT value::field AS v, value::tag AS t FROM "m.dot" WHERE host = 'b'`,
  ]);
}

function textQuery(p: Picker): string {
  return p.pick([
    "-- leading comment\nSELECT value FROM \"m.dot\" LIMIT 1",
    'SELECT value FROM "m.dot" LIMIT 1 -- trailing comment',
    'SELECT value FROM "m.dot" LIMIT 1 /* trailing block */',
    'SELECT/*x*/value/*y*/FROM/*z*/"m.dot"/**/LIMIT/**/1',
    'select value from "m.dot" limit 1 offset 2',
    'SeLeCt VaLuE fRoM "m.dot" LiMiT 1',
    'SELECT value FROM "m.dot" ORDER BY time desc LIMIT 2',
    'SELECT value FROM "m.dot" order by TIME DESC limit 2',
    'SELECT value FROM "m.dot" LIMIT 1;',
    'SELECT value FROM "m.dot" LIMIT 1;;',
    ';SELECT value FROM "m.dot" LIMIT 1',
    'SELECT value FROM "m.dot" LIMIT 1; SELECT n FROM "m.dot" LIMIT 1',
    'SELECT value FROM "m.dot" LIMIT 1 -- a; SELECT 1',
    '  \n SELECT value FROM "m.dot" LIMIT 1 \n ',
    'SELECT "value" FROM "m"."dot"',
    'SELECT value FROM m.dot',
    'SELECT value FROM "m.dot" WHERE time > now() - 1h30m',
    'SELECT value FROM "m.dot" WHERE time > now() - 100000w',
    'SELECT value FROM "m.dot" WHERE value > 3 AND (host = \'a\' OR host = \'b\')',
    'SELECT value FROM "m.dot" WHERE value > 3 AND host = \'a\' OR host = \'b\'',
    'SELECT value FROM "m.dot" WHERE (value > 3)',
    'SELECT value FROM "m.dot" WHERE ((value > 3) AND (n < 9))',
    'SELECT value FROM "m.dot" WHERE value + 1 > 2 * 3',
    'SELECT value FROM "m.dot" WHERE n = 3.0',
    'SELECT value FROM "m.dot" WHERE value = 1.5e0',
    'SELECT value FROM "m.dot" WHERE n != 3 AND n <> 4',
    'SELECT value FROM "m.dot" WHERE "host" =~ /o\'k/',
    "SELECT value FROM \"m.dot\" WHERE host = 'o\\'k'",
    'SELECT value FROM "m.dot" WHERE time = \'2024-03-09T00:10:00Z\'',
    'SELECT value FROM "m.dot" WHERE time = 1709943000000000000',
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1d)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1d2h)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1h, 15m)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1h, -15m)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1h) fill(-1.5)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1h) FILL(NONE)",
    "SELECT mean(value) FROM \"m.dot\" WHERE time >= '2024-03-09' AND time < '2024-03-10' GROUP BY time(1h) fill(Previous)",
    'SELECT MEAN("value") AS "Mean" FROM "m.dot"',
    'SELECT Count(*) FROM "m.dot"',
    'SELECT PERCENTILE(value, 50.5), Percentile(value, 1e1) FROM "m.dot"',
    'SELECT TOP(value, host, 2) FROM "m.dot"',
    'SELECT DERIVATIVE(value, 1500ms) FROM "m.dot"',
    'SELECT value FROM "m.dot" SLIMIT 1 SOFFSET 1 GROUP BY host',
    'SELECT value FROM "m.dot" GROUP BY host SLIMIT 1 SOFFSET 1',
    'SELECT value FROM "m.dot" tz(\'UTC\')',
  ]);
}

/** Malformed statements of each kind: 1.6.7 answers each with its parser's text and position. */
function malformed(p: Picker): string {
  return p.pick([
    'SELECT',
    'SELECT value',
    'SELECT value FROM',
    'SELECT FROM "m.dot"',
    'SELECT value, FROM "m.dot"',
    'SELECT value FROM "m.dot" WHERE',
    'SELECT value FROM "m.dot" WHERE value >',
    'SELECT value FROM "m.dot" WHERE (value > 1',
    'SELECT value FROM "m.dot" WHERE value > 1)',
    'SELECT mean(value FROM "m.dot"',
    'SELECT mean(value)) FROM "m.dot"',
    'SELECT value FROM "m.dot',
    "SELECT value FROM \"m.dot\" WHERE host = 'a",
    'SELECT value FROM /m\\.dot',
    'SELECT value FROM "m.dot" /* never closed',
    'SELECT value FROM "m.dot" GROUP BY time(1x)',
    'SELECT mean(value) FROM "m.dot" GROUP BY time()',
    'SELECT value FROM "m.dot" LIMIT -1',
    'SELECT value FROM "m.dot" LIMIT 1.5',
    'SELECT value FROM "m.dot" LIMIT 99999999999999999999',
    'SELECT value FROM "m.dot" OFFSET x',
    'SELECT value FROM "m.dot" ORDER BY value',
    'SELECT value FROM "m.dot" ORDER BY time ASC DESC',
    'SELECT value FROM "m.dot" fill(0)',
    'SELECT nosuch(value) FROM "m.dot"',
    'SELECT value FROM "m.dot" WHERE time > 0x10',
    'SELECT value FROM "m.dot" WHERE value > 1e',
    'SELECT value FROM "m.dot" WHERE value > 1..2',
    'SELECT value FROM "m.dot" WHERE time > \'yesterday\'',
    'SELECT value FROM "m.dot" WHERE time > now() - 1',
    'SELECT value FROM "m.dot" WHERE time > now() - 1h30',
    'SELECT value FROM "m.dot" WHERE host = \'a\\qb\'',
    'SELECT value FROM a..b..c',
    'SELECT value FROM a.b.c.d',
    'SELECT value FROM ."m.dot"',
    'SELECT value FROM "m.dot".',
    'SELECT * FROM select',
    'SELECT from FROM "select"',
    'SELECT value FROM "m.dot" WHERE value =~ "a"',
    'SELECT value FROM "m.dot" GROUP BY',
    'SELECT value FROM "m.dot" GROUP BY time(1h) fill(',
    'SELECT value FROM "m.dot" GROUP BY time(1h) fill(nope)',
    'SELECT value::nosuch FROM "m.dot"',
    'SELECT value::tag::field FROM "m.dot"',
    'SELECT value FROM "m.dot" tz(UTC)',
    'SELECT value FROM "m.dot" tz(\'Mars/Olympus\')',
    'SELEC value FROM "m.dot"',
    'SELECT value\nFROM "m.dot"\nWHERE\n  value >',
    'SELECT value FROM "m.dot" WHERE host = \'a\' AND',
    'SELECT value FROM "m.dot" WHERE time > \'2024-03-09\' + \'1h\'',
    'SELECT \'abc\' FROM "m.dot"',
    'SELECT value FROM "m.dot" LIMIT 1 LIMIT 2',
    '--only a comment',
    '/* only a block */',
    'SELECT value FROM "m.dot" WHERE value > .',
    'SELECT 1 + FROM "m.dot"',
    'SELECT * FROM "m.dot" WHERE "value"::tag = \'t1\' AND ::field',
  ]);
}

export function randomQueryText(p: Picker, db: string): Record<string, unknown> {
  const k = p.r();
  const q = k < 0.35 ? dotQuery(p, db) : k < 0.6 ? namesQuery(p, db) : k < 0.8 ? textQuery(p) : malformed(p);
  return { q, ...(p.chance(0.15) ? { params: { epoch: p.pick(['ns', 's', 'ms']) } } : {}) };
}
