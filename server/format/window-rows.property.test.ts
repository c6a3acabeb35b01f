/**
 * GROUP BY time answers printed from their window grid (ql window-row-times.ts, time-text.ts
 * windowGridFormatter) are the answers of the general path, byte for byte: random points of one
 * or two series (cache and TSM files), random intervals (sub-second ones too), offsets, ranges
 * (nanosecond bounds, before 1970), fills, ORDER BY time DESC and LIMIT/OFFSET. The reference is
 * the same statement with TZ('UTC'): the same windows, but never dense (a zone may make windows
 * uneven), so its rows come from the general path and their times from rfc3339Nano.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Engine, engineOptions } from '../../engine/index.js';
import { executeStatements, parseQuery, windowRowTimesOf } from '../../ql/index.js';
import { resultsToJson } from './json.js';

const INTERVALS: readonly [string, bigint][] = [
  ['1s', 1_000_000_000n],
  ['7s', 7_000_000_000n],
  ['1m', 60_000_000_000n],
  ['13m', 780_000_000_000n],
  ['1h', 3_600_000_000_000n],
  ['1d', 86_400_000_000_000n],
  ['250ms', 250_000_000n],
  ['1500ms', 1_500_000_000n],
  ['333333333ns', 333_333_333n],
];
const OFFSETS = ['', ', 7s', ', -1s', ', 123ms', ', -250ms', ', 1ns'];
// Weighted toward what the grid serves (ascending dense windows, no LIMIT/OFFSET); the rest checks it stays out.
const FILLS = ['', '', ' fill(null)', ' fill(none)', ' fill(none)', ' fill(previous)', ' fill(0)', ' fill(-1.5)', ' fill(linear)'];

/** A position in window units, uniform in [min, max] to a thousandth (fc.double favours tiny values). */
const units = (min: number, max: number) => fc.integer({ min: min * 1000, max: max * 1000 }).map((x) => x / 1000);

const caseArb = fc.record({
  base: fc.oneof(fc.bigInt({ min: -(10n ** 17n), max: 3n * 10n ** 18n }), fc.bigInt({ min: 1_451_606_400n * 10n ** 9n, max: 1_451_692_800n * 10n ** 9n })),
  interval: fc.constantFrom(...INTERVALS),
  offset: fc.constantFrom(...OFFSETS),
  fill: fc.constantFrom(...FILLS),
  calls: fc.constantFrom('max(v)', 'min(v)', 'count(v)', 'max(v), count(v)', 'min(v), max(v)', 'count(v) AS n', 'mean(v)'),
  float: fc.boolean(),
  // Point positions in window units (fractions of an interval: several per window, gaps).
  points: fc.array(fc.tuple(units(0, 60), fc.integer({ min: -50, max: 50 }), fc.constantFrom('a', 'b')), { minLength: 0, maxLength: 120 }),
  from: units(-2, 30),
  windows: units(0.01, 40),
  oneHost: fc.boolean(),
  byHost: fc.boolean(),
  flushed: fc.constantFrom(0, 0.5, 1),
  desc: fc.constantFrom(false, false, false, true),
  limit: fc.constantFrom('', '', '', '', ' LIMIT 3', ' LIMIT 2 OFFSET 1', ' OFFSET 4'),
});

test('rows printed from the window grid equal the general path', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-grid-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'w'), metaDir: join(root, 'm'), dataDir: join(root, 'd'), flushIntervalSec: 0 }));
  let run = 0;
  let gridded = 0;
  try {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const db = `db${run++}`;
        await engine.catalog.createDatabase(db);
        const [, iv] = c.interval;
        const at = (units: number) => c.base + BigInt(Math.round(units * Number(iv)));
        const lines = c.points.map(([u, v, h]) => `m,host=${h} v=${c.float ? v / 4 : `${v}i`} ${at(u)}`);
        const cut = Math.floor(lines.length * c.flushed);
        if (cut > 0) {
          await engine.write({ db, precision: 'ns', body: Buffer.from(lines.slice(0, cut).join('\n')) });
          await engine.flush();
        }
        if (cut < lines.length) await engine.write({ db, precision: 'ns', body: Buffer.from(lines.slice(cut).join('\n')) });
        const min = at(c.from);
        const max = at(c.from + c.windows);
        const where = `${c.oneHost ? "host = 'a' AND " : ''}time >= ${min} AND time < ${max}`;
        const q = `SELECT ${c.calls} FROM m WHERE ${where} GROUP BY time(${c.interval[0]}${c.offset})${c.byHost ? ', host' : ''}`;
        const tail = `${c.fill}${c.desc ? ' ORDER BY time DESC' : ''}${c.limit}`;
        const answer = async (text: string) => {
          const results = await executeStatements(parseQuery(text), { engine, database: db, retentionPolicy: '', nowNs: 0n });
          for (const r of results) for (const s of r.series ?? []) if (windowRowTimesOf(s.values)) gridded++;
          return resultsToJson(results, { epoch: undefined, pretty: false });
        };
        assert.equal(await answer(q + tail), await answer(`${q}${tail} tz('UTC')`), q + tail);
      }),
      { numRuns: 200, seed: Number(process.env.GRID_SEED ?? 1727) },
    );
    // Not vacuous: many answers went through the grid.
    assert.ok(gridded > 25, `only ${gridded} series printed from a grid`);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});
