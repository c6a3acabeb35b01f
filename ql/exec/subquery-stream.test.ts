/**
 * Streamed subqueries (subquery-stream.ts) through a real engine (TSM files over two shards plus
 * the cache): every answer equals the held path's (ctx.holdSubqueries: the inner result
 * materialised first, as before streaming), over random inner and outer shapes, and the rows
 * held at once (subquery-rows-held.ts) stay within one inner series where the shape streams.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, engineOptions } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { resetSubqueryRowsPeak, subqueryRowsHeld } from './subquery-rows-held.js';

const DAY = 86_400;
/** Midnight UTC, so that day windows line up with the data's days. */
const START = 1_700_000_000 - (1_700_000_000 % DAY);
const STEP = 600; // one point per 10 minutes
const POINTS = 1_440; // 10 days: two 7-day shards
const HOSTS = ['a', 'b', 'c', 'd', 'e'];

function lines(from: number, to: number): Buffer {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    for (const [k, h] of HOSTS.entries()) {
      // Gaps of different lengths per host; host b only in the last quarter (an empty series
      // before others in many ranges).
      if ((i + k * 5) % 37 < 3 + k || (h === 'b' && i < POINTS * 0.75)) continue;
      const v = (((i * 7919 + k * 131) % 97) - 40) / 4;
      const dc = k % 2 === 0 ? `,dc=${k === 0 ? 'x' : 'y'}` : '';
      out.push(`m,host=${h},region=${k < 3 ? 'east' : 'west'}${dc} v=${v},n=${(i * 31 + k) % 53}i ${START + i * STEP}`);
    }
  }
  return Buffer.from(out.join('\n'));
}

const at = (s: number): string => `'${new Date(s * 1000).toISOString()}'`;

let root = '';
let engine: Engine;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'strata-substream-'));
  engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  await engine.catalog.createDatabase('db');
  await engine.write({ db: 'db', precision: 's', body: lines(0, 1_100) });
  await engine.flush();
  await engine.write({ db: 'db', precision: 's', body: lines(1_100, POINTS) });
});

after(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

interface Answer {
  readonly text: string;
  /** The most subquery rows held at once while it ran. */
  readonly peak: number;
}

async function answer(q: string, hold: boolean): Promise<Answer> {
  resetSubqueryRowsPeak();
  const before = subqueryRowsHeld().now;
  const [r] = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: BigInt(START + 20 * DAY) * 1_000_000_000n, holdSubqueries: hold });
  const held = subqueryRowsHeld();
  assert.equal(held.now, before, `every row held for ${q} is released`);
  const text = JSON.stringify(r?.error ?? r?.series, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  return { text, peak: held.peak - before };
}

/** Equal answers; else the first place they part (the texts run to megabytes). */
function sameAnswer(streamed: string, held: string, q: string): void {
  if (streamed === held) return;
  let i = 0;
  while (streamed[i] === held[i]) i++;
  assert.fail(`${q}\n  streamed: ...${streamed.slice(Math.max(0, i - 200), i + 200)}\n  held:     ...${held.slice(Math.max(0, i - 200), i + 200)}`);
}

/** The rows of the inner statement's largest series, run on its own. */
async function largestSeries(inner: string): Promise<{ largest: number; total: number }> {
  const [r] = await executeStatements(parseQuery(inner), { engine, database: 'db', retentionPolicy: '', nowNs: BigInt(START + 20 * DAY) * 1_000_000_000n });
  const sizes = (r?.series ?? []).map((s) => s.values.length);
  return { largest: Math.max(0, ...sizes), total: sizes.reduce((a, b) => a + b, 0) };
}

const RANGE = `time >= ${at(START + DAY / 2)} AND time < ${at(START + 9 * DAY)}`;

describe('streamed subqueries', () => {
  it('hold one inner series at a time on the dashboard shapes, with the held answers', async () => {
    const shapes = [
      ['', 'max(m)', 'mean(v)'],
      ['fill(null)', 'max(m)', 'mean(v)'],
      ['fill(previous)', 'max(m)', 'mean(v)'],
      ['', 'mean(m)', 'derivative(mean(v), 1s)'],
      ['fill(0)', 'count(m)', 'max(n)'],
    ];
    for (const [fill, outer, inner] of shapes) {
      const innerText = `SELECT ${inner} AS m FROM m WHERE ${RANGE} GROUP BY time(10m), * ${fill}`;
      for (const tail of ['', ' GROUP BY time(1d)', ' GROUP BY region', ' ORDER BY time DESC']) {
        const q = `SELECT ${outer} FROM (${innerText})${tail}`;
        const held = await answer(q, true);
        const streamed = await answer(q, false);
        sameAnswer(streamed.text, held.text, q);
        // As the subquery runs it: fill(null) windows are no rows there, and in the outer order.
        const run = (fill === '' || fill === 'fill(null)' ? innerText.replace(fill, '') + ' fill(none)' : innerText) + (tail.includes('DESC') ? tail : '');
        const { largest, total } = await largestSeries(run);
        assert.ok(total > 3 * largest, `several series (${total} rows, the largest ${largest})`);
        assert.equal(held.peak, total, `held: the whole inner result (${q})`);
        assert.ok(streamed.peak > 0 && streamed.peak <= largest, `streamed: at most one inner series (${streamed.peak} of ${total} rows, the largest ${largest}): ${q}`);
      }
    }
  });

  it('hold a slice of each inner series under an outer raw SELECT or transform, with the held answers', async () => {
    // 12,240 one-minute windows per series: cut into slices (subquery-slices.ts) when several series merge.
    // fill(0): host b, without points in the first slices, is filled there as its whole range is.
    for (const [fill, inner] of [['', 'mean(v)'], ['fill(0)', 'count(v)'], ['fill(null)', 'max(n)']]) {
      const innerText = `SELECT ${inner} AS m FROM m WHERE ${RANGE} GROUP BY time(1m), * ${fill}`;
      const { largest, total } = await largestSeries(`SELECT ${inner} AS m FROM m WHERE ${RANGE} GROUP BY time(1m), * ${fill === 'fill(0)' ? fill : 'fill(none)'}`);
      assert.ok(total > 3 * largest, `several series (${total} rows, the largest ${largest})`);
      const shapes: [string, string, boolean][] = [
        // [outer columns, tail, whether an output series merges several inner ones]
        ['m', '', true],
        ['m, host', ' ORDER BY time DESC', true],
        ['m', ' WHERE m > 1 LIMIT 500', true],
        ['m * 2, region', ' WHERE host =~ /[ab]/ OFFSET 100', true],
        ['m', ' GROUP BY region', true],
        ['m', ' GROUP BY host', false],
        ['derivative(m, 1h)', ' GROUP BY host', false],
        ['difference(m)', '', true],
        ['moving_average(m, 3)', ' GROUP BY region ORDER BY time DESC', true],
        ['cumulative_sum(m)', ' GROUP BY *', false],
        ['elapsed(m, 1m)', ' LIMIT 20', true],
        ['non_negative_derivative(m), difference(m)', ' GROUP BY host', false],
      ];
      for (const [outer, tail, merges] of shapes) {
        const q = `SELECT ${outer} FROM (${innerText})${tail}`;
        const held = await answer(q, true);
        const streamed = await answer(q, false);
        sameAnswer(streamed.text, held.text, q);
        assert.equal(held.peak, total, `held: the whole inner result (${q})`);
        assert.ok(streamed.peak > 0 && streamed.peak <= largest, `sliced: at most one inner series (${streamed.peak} of ${total} rows, the largest ${largest}): ${q}`);
        // Merging five series: a slice of each, not every series whole (the first series with
        // rows runs whole once, for the fields' types: StreamedRows.open).
        if (merges) assert.ok(streamed.peak < total / 4, `sliced while merging (${streamed.peak} of ${total} rows): ${q}`);
      }
    }
  });

  it('answer as the held path where an inner series turns out empty', async () => {
    // Host b has no point before day 7.5: its inner series exists (the shard holds it) but answers nothing.
    const days = (from: number, to: number) => `time >= ${at(START + from * DAY)} AND time < ${at(START + to * DAY)}`;
    const queries = [
      // SLIMIT/SOFFSET count the outer tag sets: an empty inner series is not one (held path).
      `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${days(0, 6)} GROUP BY time(1d), *) GROUP BY host SLIMIT 1 SOFFSET 1`,
      `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${days(0, 6)} GROUP BY time(1d), *) GROUP BY host`,
      `SELECT count(m), sum(m) FROM (SELECT mean(v) AS m FROM m WHERE ${days(6, 9)} GROUP BY time(1d), * OFFSET 2) GROUP BY region`,
      `SELECT mean(m) FROM (SELECT derivative(mean(v)) AS m FROM m WHERE ${days(7, 8)} GROUP BY time(12h), host) GROUP BY time(1d)`,
      // Every inner series empty: no source at all, as when held.
      `SELECT max(m) FROM (SELECT mean(v) AS m FROM m WHERE ${days(0, 2)} GROUP BY time(1d), * OFFSET 100)`,
    ];
    for (const q of queries) assert.equal((await answer(q, false)).text, (await answer(q, true)).text, q);
  });

  it('answer as the held path over random inner and outer shapes', async () => {
    let streamedFewer = 0;
    let rows = 0;
    const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
    const inner = fc.record({
      field: pick([
        'mean(v)', 'max(v)', 'count(v)', 'sum(n)', 'min(n)', 'last(v)', 'first(n)', 'median(v)', 'spread(n)', 'stddev(v)', 'mode(n)', 'percentile(v, 90)',
        'derivative(mean(v), 1h)', 'difference(max(n))', 'cumulative_sum(count(v))', 'moving_average(mean(v), 2)', 'non_negative_derivative(max(v))', 'elapsed(last(v), 1m)',
        'mean(v) AS m, max(n)',
        // Never streamed: rows sharing times, or raw rows.
        'top(v, 2)', 'distinct(n)', 'integral(v)', 'v',
      ]),
      time: pick(['', 'time(1h)', 'time(6h)', 'time(1d)', 'time(30m, 10m)', 'time(1m)', 'time(10m)', 'time(2m, 1m)']),
      tags: pick(['', '*', 'host', 'region', 'dc']),
      fill: pick(['', 'fill(null)', 'fill(none)', 'fill(previous)', 'fill(0)', 'fill(linear)']),
      page: pick(['', ' LIMIT 3', ' LIMIT 2 OFFSET 1', ' OFFSET 30', ' OFFSET 100']),
      where: pick(['', " AND host != 'b'", ' AND v > 0']),
      from: fc.integer({ min: 0, max: 9 }),
      days: fc.integer({ min: 1, max: 10 }),
    });
    const outer = fc.record({
      field: pick([
        'max(m)', 'mean(m)', 'count(m)', 'sum(m)', 'min(m)', 'first(m)', 'last(m)', 'median(m)', 'spread(m)', 'max(m), min(m)', 'derivative(mean(m))', 'top(m, 2)', 'max(m), host', 'integral(m)',
        // Raw: the series merged by time (sliced where the inner statement allows it).
        'm', 'm, host', 'm * 2, region', 'difference(m)', 'cumulative_sum(m)', 'moving_average(m, 3)', 'elapsed(m, 1h)', 'derivative(m, 1h), difference(m)',
      ]),
      dims: pick(['', ' GROUP BY time(1d)', ' GROUP BY time(12h) fill(none)', ' GROUP BY host', ' GROUP BY time(1d), region fill(previous)', ' GROUP BY *']),
      where: pick(['', ` WHERE ${RANGE}`, ` WHERE time >= ${at(START + 2 * DAY)} AND time < ${at(START + 8 * DAY)} AND host =~ /[ace]/`, ` WHERE ${RANGE} AND m > 3`]),
      tail: pick(['', ' ORDER BY time DESC', ' LIMIT 2', ' SLIMIT 2', ' SLIMIT 1 SOFFSET 1', ' ORDER BY time DESC LIMIT 1 OFFSET 1']),
    });
    await fc.assert(
      fc.asyncProperty(inner, outer, async (i, o) => {
        const as = i.field.includes(',') || i.field === 'v' ? '' : ' AS m';
        const range = `time >= ${at(START + i.from * DAY)} AND time < ${at(START + (i.from + i.days) * DAY)}`;
        const dims = [i.time, i.tags].filter((d) => d !== '').join(', ');
        const innerText = `SELECT ${i.field}${as} FROM m WHERE ${range}${i.where}${dims ? ` GROUP BY ${dims}` : ''} ${i.fill}${i.page}`;
        const q = `SELECT ${o.field} FROM (${innerText})${o.where}${o.dims}${o.tail}`;
        const held = await answer(q, true);
        const streamed = await answer(q, false);
        sameAnswer(streamed.text, held.text, q);
        assert.ok(streamed.peak <= held.peak, `streamed holds no more than held: ${q}`);
        if (streamed.peak < held.peak) streamedFewer++;
        rows += held.peak;
      }),
      { numRuns: 500 },
    );
    assert.ok(streamedFewer > 25, `the streamed path ran (${streamedFewer} cases held fewer rows)`);
    assert.ok(rows > 20_000, `the inner results held rows (${rows})`);
  });

  it('answer as the held path under an outer raw SELECT over random inner shapes', async () => {
    let sliced = 0;
    const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
    const inner = fc.record({
      field: pick([
        'mean(v)', 'max(v)', 'count(v)', 'sum(n)', 'min(n)', 'last(v)', 'first(n)', 'median(v)', 'spread(n)', 'stddev(v)', 'mode(n)', 'percentile(v, 90)', 'count(distinct(n))',
        'mean(v) AS m, max(n)', 'mean(v) * 2 AS m, last(n) AS k',
        // Not sliced: a transform carries the window before.
        'derivative(mean(v), 1h)', 'cumulative_sum(count(v))',
      ]),
      time: pick(['time(1m)', 'time(2m, 1m)', 'time(5m)', 'time(10m)', 'time(1h)']),
      tags: pick(['*', 'host', 'region', 'dc', 'host, region']),
      // Not sliced: fill(previous|linear|<value>) and an inner LIMIT/OFFSET.
      fill: pick(['', '', 'fill(none)', 'fill(null)', 'fill(previous)', 'fill(0)', 'fill(linear)']),
      page: pick(['', '', '', '', ' LIMIT 300', ' OFFSET 30']),
      where: pick(['', " AND host != 'b'", ' AND v > 0', ' AND n < 20']),
      from: fc.integer({ min: 0, max: 6 }),
      days: fc.integer({ min: 1, max: 10 }),
      unbounded: fc.integer({ min: 0, max: 9 }),
    });
    const outer = fc.record({
      field: pick(['m', 'm, host', 'm * 2, region', '*', 'difference(m)', 'cumulative_sum(m)', 'moving_average(m, 3)', 'elapsed(m, 1h)', 'non_negative_derivative(m, 1h)', 'derivative(m, 1h), difference(m)']),
      dims: pick(['', '', ' GROUP BY host', ' GROUP BY region', ' GROUP BY *', ' GROUP BY dc']),
      where: pick(['', '', ` WHERE ${RANGE}`, ' WHERE m > 2', ` WHERE time >= ${at(START + 2 * DAY)} AND host =~ /[ace]/`]),
      tail: pick(['', '', ' ORDER BY time DESC', ' LIMIT 50', ' LIMIT 20 OFFSET 700', ' ORDER BY time DESC LIMIT 30', ' SLIMIT 1']),
    });
    await fc.assert(
      fc.asyncProperty(inner, outer, async (i, o) => {
        const as = i.field.includes(' AS ') ? '' : ' AS m';
        // Now and then no upper bound (the range ends at now, 20 days on).
        const range = i.unbounded === 0 ? `time >= ${at(START + i.from * DAY)}` : `time >= ${at(START + i.from * DAY)} AND time < ${at(START + (i.from + i.days) * DAY)}`;
        const innerText = `SELECT ${i.field}${as} FROM m WHERE ${range}${i.where} GROUP BY ${i.time}, ${i.tags} ${i.fill}${i.page}`;
        const q = `SELECT ${o.field} FROM (${innerText})${o.where}${o.dims}${o.tail}`;
        const held = await answer(q, true);
        const streamed = await answer(q, false);
        sameAnswer(streamed.text, held.text, q);
        assert.ok(streamed.peak <= held.peak, `streamed holds no more than held: ${q}`);
        if (streamed.peak * 3 < held.peak) sliced++;
      }),
      { numRuns: 200 },
    );
    assert.ok(sliced > 20, `the sliced path ran (${sliced} cases held under a third of the rows)`);
  });
});
