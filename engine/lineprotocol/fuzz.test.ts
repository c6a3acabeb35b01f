/**
 * Fuzz: 100k random and mutated lines never make the parser throw; every accepted point is
 * well-formed and survives formatPoint → parse unchanged. Seeded, so failures reproduce.
 * Also a few bodies built to expose quadratic scanning (they would hit the timeout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Point } from '../point.js';
import { formatPoint } from './format.js';
import { clearKeyCache, parseLineProtocol, parseLineProtocolText } from './parse.js';
import { compareBytes, makeSeriesKey } from './series-key.js';
import { corpusLines, mutate, randomLine, SEEDS } from './fuzz-corpus.test.js';
import { mulberry32 } from '../random.js';

const OPTS = { precision: 'ns' as const, defaultSec: 1_700_000_000, defaultNsec: 1 };

function checkPoint(p: Point): void {
  assert.ok(p.fields.length > 0);
  // A key repeats only with another type (a field type conflict admission refuses: field-set.ts).
  assert.equal(new Set(p.fields.map((f) => `${f.key}\u0000${f.type}`)).size, p.fields.length);
  assert.ok(Number.isInteger(p.sec) && Number.isInteger(p.nsec) && p.nsec >= 0 && p.nsec < 1e9);
  for (let i = 0; i < p.tags.length; i++) {
    assert.ok(p.tags[i]!.value.length > 0 && p.tags[i]!.key !== 'time');
    if (i > 0) assert.equal(compareBytes(p.tags[i - 1]!.key, p.tags[i]!.key), -1);
  }
  assert.equal(p.seriesKey, makeSeriesKey(p.measurement, p.tags));
  const again = parseLineProtocolText(formatPoint(p), OPTS);
  assert.deepEqual(again, { points: [p], errors: [] });
}

test('fuzz: 100k random and mutated lines', { timeout: 300_000 }, () => {
  const rnd = mulberry32(20261121);
  let accepted = 0;
  let rejected = 0;
  for (let batch = 0; batch < 100; batch++) {
    const lines = corpusLines(rnd, 1000);
    const body = lines.join(rnd() < 0.5 ? '\n' : '\r\n');
    const r = parseLineProtocol(Buffer.from(body), OPTS);
    for (const p of r.points) checkPoint(p);
    for (const e of r.errors) assert.ok(typeof e.line === 'string' && e.reason.length > 0);
    accepted += r.points.length;
    rejected += r.errors.length;
  }
  // Both outcomes must be well represented, or the mutations are not exercising the parser.
  assert.ok(accepted > 10_000 && rejected > 10_000, `accepted ${accepted}, rejected ${rejected}`);
});

test('fuzz: results do not depend on cache or memo state (differential)', { timeout: 300_000 }, () => {
  const rnd = mulberry32(7);
  for (let batch = 0; batch < 40; batch++) {
    const lines: string[] = [];
    while (lines.length < 500) {
      const l = rnd() < 0.1 ? randomLine(rnd) : mutate(SEEDS[Math.floor(rnd() * SEEDS.length)]!, rnd);
      // One line each: no line breaks, and no quote that could run into the next line.
      if (!/[\n\r"]/.test(l)) lines.push(l);
    }
    const body = lines.join('\n');
    clearKeyCache();
    const cold = parseLineProtocolText(body, OPTS);
    const warm = parseLineProtocolText(body, OPTS);
    assert.deepEqual(warm, cold);
    // Each line alone, in reverse order, each with an empty key cache.
    const points: Point[] = [];
    const errors: unknown[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
      if (i % 2 === 0) clearKeyCache();
      const r = parseLineProtocolText(lines[i]!, OPTS);
      points.unshift(...r.points);
      errors.unshift(...r.errors);
    }
    assert.deepEqual({ points, errors }, cold);
  }
});

test('fuzz: adversarial bodies scan in linear time', { timeout: 120_000 }, () => {
  const noSpaces = 'cpu,host=a\n'.repeat(200_000);
  assert.equal(parseLineProtocolText(noSpaces, OPTS).errors.length, 200_000);
  const quote = 'cpu v="' + 'x\n'.repeat(200_000);
  assert.equal(parseLineProtocolText(quote, OPTS).errors.length, 1);
  const quotes = 'cpu v="a",w="b"\n'.repeat(100_000);
  assert.equal(parseLineProtocolText(quotes, OPTS).points.length, 100_000);
  const manyTags = 'cpu' + Array.from({ length: 5_000 }, (_, i) => `,t${i}=v`).reverse().join('') + ' v=1';
  assert.equal(parseLineProtocolText(manyTags, OPTS).points[0]!.tags.length, 5_000);
  const manyFields = 'cpu ' + Array.from({ length: 20_000 }, (_, i) => `f${i}=1`).join(',');
  assert.equal(parseLineProtocolText(manyFields, OPTS).points[0]!.fields.length, 20_000);
  const escapes = 'cpu,t=' + '\\ '.repeat(20_000) + ' v=1\n';
  assert.equal(parseLineProtocolText(escapes.repeat(5), OPTS).points.length, 5);
});
