import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FIELD_TYPE_NAMES } from '../point.js';
import type { Point, Precision } from '../point.js';
import { KeyCache } from './key.js';
import { describeLineError, parseLineProtocol, parseLineProtocolText } from './parse.js';

const DEF = { defaultSec: 1_700_000_039, defaultNsec: 123_456_789 };

type Simple = [string, [string, string, unknown][], number, number];
function simple(p: Point): Simple {
  return [p.seriesKey, p.fields.map((f) => [f.key, FIELD_TYPE_NAMES[f.type], f.value]), p.sec, p.nsec];
}
function parse(text: string, precision: Precision = 'ns') {
  const r = parseLineProtocolText(text, { precision, ...DEF });
  return { points: r.points.map(simple), errors: r.errors.map((e) => [e.line, e.reason]) };
}
const ok = (text: string, ...points: Simple[]) => ({ text, points, errors: [] as string[][] });
const bad = (text: string, reason: string) => ({ text, points: [] as Simple[], errors: [[text.trim(), reason]] });

// Every row: exact points (series key, [field, type, value], sec, nsec) and exact errors.
const TABLE: { name: string; text: string; points: Simple[]; errors: string[][] }[] = [
  { name: 'float without suffix (node-influx v=2)', ...ok('cpu v=2 1000000000', ['cpu', [['v', 'float', 2]], 1, 0]) },
  { name: 'leading space (influx CLI INSERT)', ...ok(' cpu,host=a v=1i 5', ['cpu,host=a', [['v', 'integer', 1]], 0, 5]) },
  { name: 'leading tab and NUL', ...ok('\t\0cpu v=1 5', ['cpu', [['v', 'float', 1]], 0, 5]) },
  { name: 'blank lines between points', ...ok('a v=1 1\n\n  \n\nb v=2 2\n', ['a', [['v', 'float', 1]], 0, 1], ['b', [['v', 'float', 2]], 0, 2]) },
  { name: 'CRLF', ...ok('a v=1 1\r\n\r\nb v=t\r\n', ['a', [['v', 'float', 1]], 0, 1], ['b', [['v', 'boolean', true]], 1_700_000_039, 123_456_789]) },
  { name: 'no final newline', ...ok('a v=1 1\nb v=2', ['a', [['v', 'float', 1]], 0, 1], ['b', [['v', 'float', 2]], 1_700_000_039, 123_456_789]) },
  { name: 'comments', ...ok('# header\n   # indented "quote\na v=1 1\n#', ['a', [['v', 'float', 1]], 0, 1]) },
  {
    name: 'all boolean spellings (python True/False, perl TRUE/FALSE)',
    ...ok(
      'b a=t,b=T,c=true,d=True,e=TRUE,f=f,g=F,h=false,i=False,j=FALSE 1',
      ['b', [['a', 'boolean', true], ['b', 'boolean', true], ['c', 'boolean', true], ['d', 'boolean', true], ['e', 'boolean', true], ['f', 'boolean', false], ['g', 'boolean', false], ['h', 'boolean', false], ['i', 'boolean', false], ['j', 'boolean', false]], 0, 1],
    ),
  },
  { name: 'bad boolean tRUE', ...bad('b v=tRUE', 'invalid boolean') },
  { name: 'bad boolean truex', ...bad('b v=truex', 'invalid boolean') },
  { name: 'bad boolean word', ...bad('b v=yes', 'invalid boolean') },
  { name: 'leading plus is not a number', ...bad('b v=+1', 'invalid boolean') },
  { name: 'inf is not a number', ...bad('b v=inf', 'invalid boolean') },
  {
    name: 'floats',
    ...ok(
      'f a=1e3,b=-1.5E-3,c=.5,d=5.,e=1e+3,f=-0,g=0.1,h=123456789012345678,i=1.7976931348623157e308,j=1e-400 1',
      ['f', [['a', 'float', 1000], ['b', 'float', -0.0015], ['c', 'float', 0.5], ['d', 'float', 5], ['e', 'float', 1000], ['f', 'float', -0], ['g', 'float', 0.1], ['h', 'float', 123456789012345680], ['i', 'float', 1.7976931348623157e308], ['j', 'float', 0]], 0, 1],
    ),
  },
  { name: 'two decimal points', ...bad('f v=1.5.5', 'invalid number') },
  { name: 'dangling exponent', ...bad('f v=1e', 'invalid float') },
  { name: 'float overflow', ...bad('f v=1e400', 'invalid float') },
  { name: 'NaN', ...bad('f v=NaN', 'invalid number') },
  { name: '-Inf', ...bad('f v=-Inf', 'invalid number') },
  { name: 'lone minus', ...bad('f v=-', 'invalid number') },
  { name: 'lone dot', ...bad('f v=.', 'invalid number') },
  { name: 'junk after digits', ...bad('f v=12a', 'invalid number') },
  { name: 'float with i', ...bad('f v=1.5i', 'invalid number') },
  { name: 'digits after i', ...bad('f v=1i5', 'invalid number') },
  {
    name: 'integers at the int64 limits',
    ...ok(
      'i a=9223372036854775807i,b=-9223372036854775808i,c=9007199254740991i,d=9007199254740992i,e=-0i,f=00000000000000000000042i 1',
      ['i', [['a', 'integer', 9223372036854775807n], ['b', 'integer', -9223372036854775808n], ['c', 'integer', 9007199254740991], ['d', 'integer', 9007199254740992n], ['e', 'integer', 0], ['f', 'integer', 42]], 0, 1],
    ),
  },
  { name: 'int64 overflow', ...bad('i v=9223372036854775808i', 'unable to parse integer 9223372036854775808: strconv.ParseInt: parsing "9223372036854775808": value out of range') },
  { name: 'int64 underflow', ...bad('i v=-9223372036854775809i', 'unable to parse integer -9223372036854775809: strconv.ParseInt: parsing "-9223372036854775809": value out of range') },
  { name: 'unsigned', ...ok('u a=0u,b=18446744073709551615u,c=42u 1', ['u', [['a', 'unsigned', 0], ['b', 'unsigned', 18446744073709551615n], ['c', 'unsigned', 42]], 0, 1]) },
  { name: 'uint64 overflow', ...bad('u v=18446744073709551616u', 'unable to parse unsigned 18446744073709551616: strconv.ParseUint: parsing "18446744073709551616": value out of range') },
  { name: 'negative unsigned', ...bad('u v=-1u', 'invalid number') },
  {
    name: 'strings with escapes, separators and a raw newline',
    ...ok('s a="x\\"y\\\\z\\d",b="a, b=c d",c="",d="line1\nline2" 1\ns v=1 2', ['s', [['a', 'string', 'x"y\\z\\d'], ['b', 'string', 'a, b=c d'], ['c', 'string', ''], ['d', 'string', 'line1\nline2']], 0, 1], ['s', [['v', 'float', 1]], 0, 2]),
  },
  { name: 'unbalanced quotes swallow the rest, as 1.x', text: 's v="abc\ns v=1', points: [], errors: [['s v="abc\ns v=1', 'unbalanced quotes']] },
  { name: 'text glued to a closing quote', ...bad('s v="a"b', 'invalid field format') },
  {
    name: 'escapes in measurement, tag key and tag value',
    ...ok('cpu\\ load\\,x,host\\ name=a\\,b\\=c v=1 1', ['cpu\\ load\\,x,host\\ name=a\\,b\\=c', [['v', 'float', 1]], 0, 1]),
  },
  { name: 'equals in a measurement is literal', ...ok('a=b v=1 1', ['a=b', [['v', 'float', 1]], 0, 1]) },
  // 1.6.7 unescapes `\=` and `\"` in a measurement too (its escape.Unescape), and keys the series by the plain name
  { name: 'escaped equals and quote in a measurement', ...ok('a\\=b,t=1 v=1 1\nm\\"q v=2 2', ['a=b,t=1', [['v', 'float', 1]], 0, 1], ['m"q', [['v', 'float', 2]], 0, 2]) },
  { name: 'escaped equals in a measurement with unsorted tags', ...ok('a\\=b\\ c,u=2,t=1 v=1 1', ['a=b\\ c,t=1,u=2', [['v', 'float', 1]], 0, 1]) },
  { name: 'other backslashes are literal', ...ok('c\\d,t=x\\y v=1 1', ['c\\d,t=x\\y', [['v', 'float', 1]], 0, 1]) },
  // 1.6.7 reads a field set back looking one character back: `=` after an escaped backslash joins
  // key and value (field-look-behind.ts); a key that then runs to the end fails the line
  { name: 'field key ending in an escaped backslash, alone', ...bad('m x\\\\=1 1', 'invalid value: field-key=x\\\\=1') },
  { name: 'field key ending in an escaped backslash, last', ...bad('m v=1i,w\\\\=1i 5', 'invalid value: field-key=w\\\\=1i') },
  {
    name: 'field key ending in an escaped backslash joins the next field',
    ...ok('m x\\\\=1,v=2,s="a\\"b",t=T 2', ['m', [['x\\=1,v', 'float', 2], ['s', 'string', 'a"b'], ['t', 'boolean', true]], 0, 2]),
  },
  { name: 'escaped backslash inside a field key is literal', ...ok('m x\\\\y=1i 2', ['m', [['x\\\\y', 'integer', 1]], 0, 2]) },
  { name: 'a bad value is refused on the scanner split first', ...bad('m x\\\\=q,v=2', 'invalid boolean') },
  // 1.x checks the character two back of an `=` after a comma, which may close an escaped backslash.
  { name: 'a comma after an escaped backslash is no missing field key', ...bad('m a\\\\,=x 1', 'invalid boolean') },
  { name: 'such a key still fails the field set', ...bad('m a\\\\,=1 1', 'invalid field format') },
  {
    name: 'a string left open to the end of the body: its line without the last newline',
    text: 'm v=1 1\nm,t=a v="open 1\nm v=0i 1\n',
    points: [['m', [['v', 'float', 1]], 0, 1]],
    errors: [['m,t=a v="open 1\nm v=0i 1', 'unbalanced quotes']],
  },
  {
    // 1.x's line scanner skips backslash pairs in the key too: its field set (and a string in it)
    // starts after `m\\ `, so the quote opened there joins three lines into one bad line.
    name: 'an escaped backslash before a space starts the field set for the line scanner',
    text: 'm\\\\ a="x 1\nm v=2 2\nm b=" 3\nm v=4 4',
    points: [['m', [['v', 'float', 4]], 0, 4]],
    errors: [['m\\\\ a="x 1\nm v=2 2\nm b=" 3', 'invalid field format']],
  },
  { name: 'tags sorted into canonical order', ...ok('cpu,b=2,a=1,c=3 v=1 1', ['cpu,a=1,b=2,c=3', [['v', 'float', 1]], 0, 1]) },
  { name: 'tag value starting with = is canonicalised', ...ok('cpu,a==b v=1 1', ['cpu,a=\\=b', [['v', 'float', 1]], 0, 1]) },
  { name: 'duplicate tags', ...bad('cpu,a=1,a=2 v=1', 'duplicate tags') },
  { name: 'duplicate tags unsorted', ...bad('cpu,b=1,a=1,b=2 v=1', 'duplicate tags') },
  { name: 'field key escapes', ...ok('cpu f\\ o\\,o\\=x\\"y=1 1', ['cpu', [['f o,o=x"y', 'float', 1]], 0, 1]) },
  { name: 'duplicate field keys: last wins', ...ok('cpu v=1,w=2,v=3 1', ['cpu', [['v', 'float', 3], ['w', 'float', 2]], 0, 1]) },
  // 1.6.7 checks every occurrence's type: the repeat of another type stays, for admission to refuse.
  { name: 'duplicate field keys of two types: both kept', ...ok('cpu v=1,w=2,v=3i,v=4 1', ['cpu', [['v', 'float', 4], ['w', 'float', 2], ['v', 'integer', 3]], 0, 1]) },
  { name: 'fields named time are dropped', ...ok('cpu time=1,v=2 1', ['cpu', [['v', 'float', 2]], 0, 1]) },
  { name: 'spaces and tabs before fields and timestamp', ...ok('cpu \t v=1 \t 7   ', ['cpu', [['v', 'float', 1]], 0, 7]) },
  { name: 'missing measurement', ...bad(',host=a v=1', 'missing measurement') },
  { name: 'missing fields: bare measurement', ...bad('cpu', 'missing fields') },
  { name: 'missing fields: tags only', ...bad('cpu,host=a', 'missing fields') },
  { name: 'no fields after the separator (1.6.7: invalid field format)', text: 'cpu,host=a  ', points: [], errors: [['cpu,host=a  ', 'invalid field format']] },
  { name: 'missing fields: tab is not a separator', ...bad('cpu\tv=1', 'missing fields') },
  { name: 'missing tag key', ...bad('cpu,=a v=1', 'missing tag key') },
  { name: 'missing tag key: trailing comma', ...bad('cpu, v=1', 'missing tag key') },
  { name: 'missing tag value: no =', ...bad('cpu,host v=1', 'missing tag value') },
  { name: 'missing tag value: empty', ...bad('cpu,host= v=1', 'missing tag value') },
  { name: 'missing tag value: end of line', ...bad('cpu,host', 'missing tag value') },
  { name: 'invalid tag format', ...bad('cpu,host=a=b v=1', 'invalid tag format') },
  { name: 'missing field key', ...bad('cpu =1', 'missing field key') },
  { name: 'missing field key after comma', ...bad('cpu v=1,=2', 'missing field key') },
  { name: 'missing field value at end', ...bad('cpu v=', 'missing field value') },
  { name: 'missing field value before space', ...bad('cpu v= 1', 'missing field value') },
  { name: 'missing field value before comma', ...bad('cpu v=,w=1', 'missing field value') },
  { name: 'invalid field format: no =', ...bad('cpu v', 'invalid field format') },
  { name: 'invalid field format: trailing comma', ...bad('cpu v=1,', 'invalid field format') },
  { name: 'invalid field format: key without value', ...bad('cpu v=1,w', 'invalid field format') },
  { name: 'invalid field format: space after comma', ...bad('cpu v=1, w=2', 'invalid field format') },
  { name: 'comma in a field key', ...bad('cpu a,b=1', 'invalid field format') },
  { name: 'comma in a field key, bad value: the value error wins (1.x order)', ...bad('cpu a,b=x', 'invalid boolean') },
  { name: 'field set starting with a comma', ...bad('cpu ,a=b v=1', 'invalid boolean') },
  { name: 'missing field key after a comma inside a key', ...bad('cpu a,=1', 'missing field key') },
  { name: 'bad timestamp', ...bad('cpu v=1 12a', 'bad timestamp') },
  { name: 'bad timestamp: decimal', ...bad('cpu v=1 1.5', 'bad timestamp') },
  { name: 'bad timestamp: inner minus', ...bad('cpu v=1 1-5', 'bad timestamp') },
  { name: 'point is invalid: text after timestamp', ...bad('cpu v=1 1 2', 'point is invalid') },
  { name: 'timestamp lone minus', ...bad('cpu v=1 -', 'strconv.ParseInt: parsing "-": invalid syntax') },
  { name: 'timestamp beyond int64', ...bad('cpu v=1 99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range') },
  { name: 'max int64 ns is out of range', ...bad('cpu v=1 9223372036854775807', 'time outside range -9223372036854775806 - 9223372036854775806') },
  { name: 'min int64+1 ns is out of range', ...bad('cpu v=1 -9223372036854775807', 'time outside range -9223372036854775806 - 9223372036854775806') },
  { name: 'largest valid ns', ...ok('cpu v=1 9223372036854775806', ['cpu', [['v', 'float', 1]], 9223372036, 854775806]) },
  { name: 'smallest valid ns', ...ok('cpu v=1 -9223372036854775806', ['cpu', [['v', 'float', 1]], -9223372037, 145224194]) },
  { name: 'negative ns', ...ok('cpu v=1 -1', ['cpu', [['v', 'float', 1]], -1, 999999999]) },
  { name: 'zero and leading zeros', ...ok('cpu v=1 -0\ncpu v=1 0000000000000000000001', ['cpu', [['v', 'float', 1]], 0, 0], ['cpu', [['v', 'float', 1]], 0, 1]) },
];

for (const row of TABLE) {
  test(`parse: ${row.name}`, () => {
    assert.deepEqual(parse(row.text), { points: row.points, errors: row.errors });
  });
}

test('parse: precisions scale the timestamp without BigInt', () => {
  const cases: [Precision, string, number, number][] = [
    ['ns', '1700000000123456789', 1_700_000_000, 123_456_789],
    ['us', '1700000000123456', 1_700_000_000, 123_456_000],
    ['ms', '1700000000123', 1_700_000_000, 123_000_000],
    ['s', '1700000000', 1_700_000_000, 0],
    ['m', '28333333', 1_699_999_980, 0],
    ['h', '472222', 1_699_999_200, 0],
    ['ms', '-1', -1, 999_000_000],
    ['us', '5', 0, 5_000],
    ['s', '-9223372036', -9_223_372_036, 0],
    ['m', '-153722867', -9_223_372_020, 0],
  ];
  for (const [precision, ts, sec, nsec] of cases) {
    assert.deepEqual(parse(`c v=1 ${ts}`, precision).points, [['c', [['v', 'float', 1]], sec, nsec]], `${precision} ${ts}`);
  }
  assert.deepEqual(parse('c v=1 9223372037', 's').errors, [['c v=1 9223372037', 'time outside range -9223372036854775806 - 9223372036854775806']]);
  assert.deepEqual(parse('c v=1 9223372036855', 'ms').errors, [['c v=1 9223372036855', 'time outside range -9223372036854775806 - 9223372036854775806']]);
  assert.deepEqual(parse('c v=1 153722868', 'm').errors, [['c v=1 153722868', 'time outside range -9223372036854775806 - 9223372036854775806']]);
});

test('parse: a missing timestamp takes the default, truncated to the precision', () => {
  const expect: [Precision, number, number][] = [
    ['ns', 1_700_000_039, 123_456_789],
    ['us', 1_700_000_039, 123_456_000],
    ['ms', 1_700_000_039, 123_000_000],
    ['s', 1_700_000_039, 0],
    ['m', 1_699_999_980, 0],
    ['h', 1_699_999_200, 0],
  ];
  for (const [precision, sec, nsec] of expect) assert.deepEqual(parse('c v=1', precision).points, [['c', [['v', 'float', 1]], sec, nsec]]);
});

test('parse: tag and field named time are refused with the 1.x texts', () => {
  const r = parseLineProtocolText('cpu,time=1 v=1 1\ncpu time=1 1\ncpu time=1 x\n', { precision: 'ns', ...DEF });
  assert.deepEqual(r.points, []);
  assert.deepEqual(r.errors, [
    { line: 'cpu,time=1 v=1 1', reason: 'invalid tag key: input tag "time" on measurement "cpu" is invalid', refused: 'time-tag', sec: 0 },
    { line: 'cpu time=1 1', reason: 'invalid field name: input field "time" on measurement "cpu" is invalid', refused: 'time-field', series: { seriesKey: 'cpu', measurement: 'cpu', tags: [], sec: 0 } },
    { line: 'cpu time=1 x', reason: 'bad timestamp' },
  ]);
  assert.equal(describeLineError(r.errors[0]!), 'invalid tag key: input tag "time" on measurement "cpu" is invalid');
  assert.equal(describeLineError(r.errors[2]!), "unable to parse 'cpu time=1 x': bad timestamp");
});

test('parse: measurement, tags and UTF-8 from bytes', () => {
  const body = new TextEncoder().encode('温度,地点=東京,b\\ k=x\\=y 值=1,s="ü😀" 1\n');
  const r = parseLineProtocol(body, { precision: 'ns', ...DEF });
  assert.deepEqual(r.errors, []);
  const p = r.points[0]!;
  assert.equal(p.seriesKey, '温度,b\\ k=x\\=y,地点=東京');
  assert.equal(p.measurement, '温度');
  assert.deepEqual(p.tags, [{ key: 'b k', value: 'x=y' }, { key: '地点', value: '東京' }]);
  assert.deepEqual(p.fields.map((f) => [f.key, f.value]), [['值', 1], ['s', 'ü😀']]);
});

test('parse: good lines survive around bad ones (partial write)', () => {
  const r = parse('a v=1 1\nbad\nb v=2 2\nc v= 3\n');
  assert.deepEqual(r.points.map((p) => p[0]), ['a', 'b']);
  assert.deepEqual(r.errors, [['bad', 'missing fields'], ['c v= 3', 'missing field value']]);
});

test('parse: max key length', () => {
  const long = 'm'.repeat(65536);
  assert.deepEqual(parse(`${long} v=1`).errors, [[`${long} v=1`, 'max key length exceeded: 65536 > 65535']]);
  const edge = 'm'.repeat(65530);
  assert.deepEqual(parse(`${edge} vv=1`).errors, [[`${edge} vv=1`, 'max key length exceeded: 65536 > 65535']]);
  assert.equal(parse(`${edge} v=1`).points.length, 1);
  // Syntax errors in the field set are reported before the field-key length (1.x order).
  assert.deepEqual(parse(`${edge} vv=1,w=x`).errors, [[`${edge} vv=1,w=x`, 'invalid boolean']]);
  // The field-key memo must not skip the check when a short series used the same field first.
  assert.deepEqual(parse(`m vv=1\n${edge} vv=1`).errors, [[`${edge} vv=1`, 'max key length exceeded: 65536 > 65535']]);
  assert.deepEqual(parse(`m ü=1\n${'m'.repeat(65530)} ü=1`).errors, [[`${'m'.repeat(65530)} ü=1`, 'max key length exceeded: 65536 > 65535']]);
});

test('parse: the key cache and field memo never leak between different lines', () => {
  const text = 'cpu,host=a u=1i,s=2i 1\ncpu,host=a u=1i,s=2i,u=3i 2\ncpu,host=a uu=1 3\ncpu,host=b u=1 4\ncpu,host=a u=1i,s=2i 5\n';
  assert.deepEqual(parse(text).points, [
    ['cpu,host=a', [['u', 'integer', 1], ['s', 'integer', 2]], 0, 1],
    ['cpu,host=a', [['u', 'integer', 3], ['s', 'integer', 2]], 0, 2],
    ['cpu,host=a', [['uu', 'float', 1]], 0, 3],
    ['cpu,host=b', [['u', 'float', 1]], 0, 4],
    ['cpu,host=a', [['u', 'integer', 1], ['s', 'integer', 2]], 0, 5],
  ]);
});

test('parse: the predicted next key is taken only when the line really starts with it', () => {
  // Each line's key is a near miss of the key that followed the previous key last time
  // (prefix, extension, escaped space, missing fields): parsed twice in a row, the second pass
  // runs on predictions and must answer exactly what each line parsed alone answers.
  const lines = [
    'm,t=a v=1 1',
    'm,t=a\\ b v=2 2',
    'm,t=a v=3 3',
    'm,t=ab v=4 4',
    'm,t=a v=5 5',
    'm,t=a',
    'm,t=a v=6 6',
    'm,t=a\ v=7 7',
    'm,t=a v=8 8',
    'm,t=a,u=1 v=9 9',
    'm,t=a v=10 10',
    'm,t=a\  v=11 11',
    'm,t=a v=12 12',
    'm,t=ä v=13 13',
  ];
  const alone = lines.map((l) => parse(l));
  const expected = { points: alone.flatMap((r) => r.points), errors: alone.flatMap((r) => r.errors) };
  const body = lines.join('\n');
  assert.deepEqual(parse(body), expected);
  assert.deepEqual(parse(body), expected);
  const shuffled = [...lines].reverse().join('\n');
  const reversed = [...alone].reverse();
  assert.deepEqual(parse(shuffled), { points: reversed.flatMap((r) => r.points), errors: reversed.flatMap((r) => r.errors) });
});

test('key cache: bounded, keeps series in use, never returns a stale key', () => {
  const cache = new KeyCache(4);
  const a = cache.add('cpu,host=a');
  assert.equal(typeof a, 'object');
  for (const h of ['b', 'c', 'd', 'e', 'f']) {
    cache.add(`cpu,host=${h}`);
    assert.equal(cache.get('cpu,host=a'), a); // promoted on every hit, so it survives
  }
  assert.equal(cache.get('cpu,host=b'), undefined); // aged out after two generations
  assert.equal(cache.add('cpu,a=1,a=2'), 'duplicate tags');
  assert.equal(cache.get('cpu,a=1,a=2'), undefined);
});

test('property: float and integer values equal JavaScript number parsing (the fast paths are exact)', () => {
  const digits = (max: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), maxLength: max });
  const decimal = fc
    .tuple(fc.boolean(), digits(18), fc.boolean(), digits(18), fc.option(fc.integer({ min: -330, max: 330 })))
    .filter(([, a, dot, b]) => (a + b).length > 0 && (dot || b.length === 0))
    .map(([neg, a, dot, b, exp]) => `${neg ? '-' : ''}${a}${dot ? '.' : ''}${b}${exp === null ? '' : `e${exp}`}`);
  fc.assert(
    fc.property(decimal, (text) => {
      const r = parseLineProtocolText(`m v=${text} 1`, { precision: 'ns', ...DEF });
      const want = Number(text);
      if (!Number.isFinite(want)) return assert.deepEqual(r.errors.map((e) => e.reason), ['invalid float']);
      assert.deepEqual(r.errors, []);
      assert.ok(Object.is(r.points[0]!.fields[0]!.value, want), `${text} -> ${String(r.points[0]!.fields[0]!.value)}, want ${want}`);
    }),
    { numRuns: 20000 },
  );
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
      const f = parseLineProtocolText(`m v=${v}i 1`, { precision: 'ns', ...DEF }).points[0]!.fields[0]!;
      assert.equal(BigInt(f.value as number | bigint), v);
      assert.equal(typeof f.value, v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n ? 'number' : 'bigint');
    }),
    { numRuns: 5000 },
  );
});
