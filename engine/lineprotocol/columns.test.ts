import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeColumns, encodeColumns, parseToColumns } from './columns.js';
import { formatPoint } from './format.js';
import { parseLineProtocol } from './parse.js';
import { ParsePool } from './parse-pool.js';
import { pointArb } from './arbitraries.test.js';
import { corpusLines } from './fuzz-corpus.test.js';
import { mulberry32 } from '../random.js';

const OPTS = { precision: 'ns' as const, defaultSec: 1_700_000_000, defaultNsec: 1 };

test('columns round trip: decode(encode(parse)) equals the parse, every field type', () => {
  fc.assert(
    fc.property(fc.array(pointArb, { maxLength: 20 }), (points) => {
      const parsed = parseLineProtocol(Buffer.from(points.map(formatPoint).join('\n')), OPTS);
      assert.deepEqual(decodeColumns(encodeColumns(parsed)), parsed);
    }),
  );
});

test('columns built while parsing equal the parse and the columns of its Points (fuzz corpus, kinds included)', () => {
  const rnd = mulberry32(20261122);
  for (let round = 0; round < 20; round++) {
    const body = Buffer.from(corpusLines(rnd, 500).join(rnd() < 0.5 ? '\n' : '\r\n'));
    const direct = parseToColumns(body, OPTS);
    const expected = parseLineProtocol(body, OPTS);
    assert.deepEqual(decodeColumns(direct), expected);
    const viaPoints = encodeColumns(expected);
    assert.deepEqual([...direct.kinds], [...viaPoints.kinds]);
    assert.deepEqual(direct.fieldNames, viaPoints.fieldNames);
    assert.equal(direct.minSec, viaPoints.minSec);
  }
});

test('a body larger than a decode piece parses the same (lines cut at piece ends, long lines, errors, CRLF)', () => {
  const rnd = mulberry32(20261123);
  const lines = corpusLines(rnd, 40_000).filter((l) => !l.includes('"'));
  lines.splice(3000, 0, `m,t=long v=1,w=${'9'.repeat(600_000)} 5`); // longer than a piece
  for (const sep of ['\n', '\r\n']) {
    const body = Buffer.from(lines.join(sep));
    assert.ok(body.length > 1_000_000 && !body.includes('"'));
    assert.deepEqual(decodeColumns(parseToColumns(body, OPTS)), parseLineProtocol(body, OPTS));
  }
});

test('a worker-parsed body equals the main-thread parse on the fuzz corpus (points and errors)', { timeout: 120_000 }, async () => {
  const pool = new ParsePool(2);
  try {
    const rnd = mulberry32(20261121);
    const bodies = Array.from({ length: 30 }, () => Buffer.from(corpusLines(rnd, 1000).join(rnd() < 0.5 ? '\n' : '\r\n')));
    const batches = await Promise.all(bodies.map((b) => pool.parse(b, OPTS)));
    let points = 0;
    let errors = 0;
    for (let i = 0; i < bodies.length; i++) {
      const parsed = batches[i];
      assert.ok(parsed, `body ${i} was parsed by a worker`);
      const expected = parseLineProtocol(bodies[i]!, OPTS);
      assert.deepEqual(decodeColumns(parsed.batch), expected);
      parsed.release();
      points += expected.points.length;
      errors += expected.errors.length;
    }
    assert.ok(points > 3000 && errors > 3000, `points ${points}, errors ${errors}`);
  } finally {
    await pool.close();
  }
});

test('a pool that cannot answer resolves undefined (the caller parses itself)', async () => {
  const none = new ParsePool(0);
  assert.equal(await none.parse(Buffer.from('m v=1'), OPTS), undefined);
  const pool = new ParsePool(1);
  const big = Buffer.from('m,t=a v=1\n'.repeat(200_000));
  const inFlight = pool.parse(big, OPTS);
  await pool.close(); // terminates the worker while it parses
  assert.equal(await inFlight, undefined);
  assert.equal(await pool.parse(Buffer.from('m v=1'), OPTS), undefined);
});

test('warm() starts the pool threads before the first body (the engine warms them at open)', async () => {
  const pool = new ParsePool(2);
  try {
    assert.equal(pool.running, 0);
    pool.warm();
    assert.equal(pool.running, 2);
    assert.ok(await pool.parse(Buffer.from('m v=1 1'), OPTS));
    assert.equal(pool.running, 2);
  } finally {
    await pool.close();
  }
});
