import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ParseOptions } from './parse.js';
import { ByteKey, matchesKey } from './byte-key.js';
import { codeUnitsOf, NON_ASCII } from './code-units.js';
import { clearKeyCache, parseLineProtocol, parseLineProtocolText } from './parse.js';

const OPTS: ParseOptions = { precision: 'ns', defaultSec: 1_700_000_000, defaultNsec: 7 };

// Units whose low byte is a separator, digit or escape of line protocol (U+0120 ' ', U+013D '=',
// U+012C ',', U+0131 '1', U+015C '\', U+0A0A '\n'), beside ASCII and other UTF-8 lengths.
const TRICKY = ['a', '1', ' ', '=', ',', '\\', '\u0120', '\u013d', '\u012c', '\u0131', '\u015c', '\u0a0a', 'é', '東', '😀'];
const tricky = (max: number) => fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: max });

test('property: code units are the ASCII units, anything else 0x80', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (s) => {
      const { codes, view } = codeUnitsOf(s);
      assert.equal(codes.length, s.length);
      assert.equal(view.byteLength, s.length);
      for (let i = 0; i < s.length; i++) assert.equal(codes[i], s.charCodeAt(i) < 0x80 ? s.charCodeAt(i) : NON_ASCII, `unit ${i}`);
    }),
    { numRuns: 3000 },
  );
});

test('property: a ByteKey matches code units exactly where the text starts with its ASCII key', () => {
  fc.assert(
    fc.property(tricky(12), tricky(40), fc.nat(50), (key, text, at0) => {
      // Half the cases put the key itself (or most of it) at `at`.
      const s = at0 % 2 === 0 ? text.slice(0, at0 % 7) + key + text : text;
      const at = at0 % 2 === 0 ? Math.min(at0 % 7, text.length) : Math.min(at0, s.length);
      const got = matchesKey(codeUnitsOf(s).view, at, new ByteKey(key));
      const ascii = !/[^\x00-\x7f]/.test(key);
      const fits = at + Math.max(4, (key.length + 3) & ~3) <= s.length;
      if (got) assert.ok(key.length > 0 && ascii && s.startsWith(key, at), 'a match is the same text');
      else assert.ok(key.length === 0 || !ascii || !fits || !s.startsWith(key, at), 'the same ASCII text, in reach, matches');
    }),
    { numRuns: 20000 },
  );
});

test('property: lines parsed on predictions (keys, field keys) answer what each line alone answers', () => {
  // Few series and field keys cycled in a random order, so most lines run on the key and
  // field keys predicted from the line before, and near misses differ in one tricky unit.
  const name = tricky(4).filter((s) => s.length > 0 && !s.endsWith('\\'));
  const line = fc
    .tuple(name, name, fc.array(fc.tuple(name, fc.constantFrom('1', '-2.5', '3i', 't', '"x"', '1\u0131')), { minLength: 1, maxLength: 3 }), fc.constantFrom('', ' 5', ' 1\u0131', ' 1451606400000000000'))
    .map(([m, v, fields, ts]) => `m${m.replace(/^[#\s]/, 'x')},t=${v} ${fields.map(([k, x]) => `${k}=${x}`).join(',')}${ts}`);
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(5), { minLength: 10, maxLength: 60 }), (base, order) => {
      // Each line's twin: every `1` and `a` as a unit whose low byte is that character.
      const pool = [...base, ...base.map((l) => l.replace(/1/g, '\u0131').replace(/a/g, '\u0161'))];
      const lines = order.map((i) => pool[i % pool.length]!).filter((l) => !/[\n\r"]/.test(l.replace(/"x"/g, '')));
      const body = lines.join('\n');
      clearKeyCache();
      const alone = lines.map((l) => {
        clearKeyCache();
        return parseLineProtocolText(l, OPTS);
      });
      const expected = { points: alone.flatMap((r) => r.points), errors: alone.flatMap((r) => r.errors) };
      clearKeyCache();
      assert.deepEqual(parseLineProtocol(Buffer.from(body), OPTS), expected);
      assert.deepEqual(parseLineProtocol(Buffer.from(body), OPTS), expected, 'again, on predictions');
      assert.deepEqual(parseLineProtocolText(body, OPTS), expected);
    }),
    { numRuns: 1500 },
  );
});

test('parse: an ASCII body in pieces takes predicted keys up to the last bytes of each piece', () => {
  // > 64 KiB, no quote: parsed in pieces straight from the body's bytes; the last line of a
  // piece is too close to its end for a four-byte compare and takes the string path.
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const d = i % 7;
    const fields = ['temperature=21.5', 'humidity=40.25', 'battery=97i', 'rssi=-60i'].slice(0, 1 + (d % 4)).join(',');
    lines.push(`sensors,device_id=dev_${d},site=s${i % 3} ${fields} ${1451606400000000000n + BigInt(i) * 1000000000n}`);
  }
  const body = lines.join('\n');
  assert.ok(body.length > 3 * 64 * 1024);
  const alone = lines.map((l) => parseLineProtocolText(l, OPTS));
  clearKeyCache();
  const r = parseLineProtocol(Buffer.from(body), OPTS);
  assert.deepEqual(r, { points: alone.flatMap((x) => x.points), errors: [] });
  assert.deepEqual(parseLineProtocol(Buffer.from(body), OPTS), r);
});
