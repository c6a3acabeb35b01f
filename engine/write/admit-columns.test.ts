/**
 * admit-columns.ts: a worker-parsed batch bringing new series and fields ends with the same
 * index (series ids in the same order, field types, the policy's field sets), the same series
 * log bytes, the same statuses and the same stored rows as when the event loop admits it
 * point by point (no parse worker), including batches the columnar admission must hand back:
 * type conflicts (with the index, within the batch, within a line; in shards that exist and in
 * shards the batch creates, over several bodies per database), bad lines, cardinality limits
 * reached part-way through a batch.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import { StrataError } from '../errors.js';
import { PartialWriteError } from './partial.js';

const MEASUREMENTS = ['m0', 'm1', 'm2'];
const HOSTS = ['h0', 'h1', 'h2', 'h3', 'h4'];
const ZONES = [undefined, 'z0', 'z1'];
const FIELDS = ['a', 'b', 'c', 'd'];
const VALUES = ['1.5', '2i', '3u', 't', '"s"'];

/** One line: mostly the field's usual type (by measurement and field), sometimes another. */
const lineArb = fc
  .record({
    m: fc.nat(MEASUREMENTS.length - 1),
    host: fc.nat(HOSTS.length - 1),
    zone: fc.nat(ZONES.length - 1),
    fields: fc.uniqueArray(fc.nat(FIELDS.length - 1), { minLength: 1, maxLength: 4 }),
    odd: fc.nat(19),
    sec: fc.nat(40),
    bad: fc.nat(29),
    repeat: fc.nat(14),
  })
  .map((l) => {
    if (l.bad === 0) return 'm0,host=h0 a=oops 1';
    const zone = ZONES[l.zone];
    const tags = `,host=${HOSTS[l.host]}${zone ? `,zone=${zone}` : ''}`;
    const fields = l.fields.map((f) => `${FIELDS[f]}=${VALUES[l.odd === 0 ? (f + 1) % VALUES.length : (f + l.m) % VALUES.length]}`);
    // Now and then the line's first key again with another type (1.x refuses the line, or
    // fails its shard when the key is new there).
    if (l.repeat === 0) fields.push(`${FIELDS[l.fields[0]!]}=${VALUES[(l.fields[0]! + l.m + 2) % VALUES.length]}`);
    return `${MEASUREMENTS[l.m]}${tags} ${fields.join(',')} ${l.sec * 86_400 * 3}`;
  });
const bodiesArb = fc.array(fc.array(lineArb, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 });

interface Twin {
  readonly root: string;
  readonly engine: Engine;
}

async function openTwin(parseWorkers: number, tight: boolean): Promise<Twin> {
  const root = await mkdtemp(join(tmpdir(), 'strata-admit-columns-'));
  const cardinality = tight ? { maxTagValuesPerMeasurement: 3, maxMeasurementsPerDatabase: 2 } : { maxTagValuesPerMeasurement: 100_000, maxMeasurementsPerDatabase: 10_000 };
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, parseWorkers, cardinality }));
  return { root, engine };
}

async function writeAll(engine: Engine, db: string, bodies: readonly string[][]): Promise<string[]> {
  await engine.catalog.createDatabase(db);
  const results: string[] = [];
  for (const lines of bodies) {
    try {
      results.push(`ok ${await engine.write({ db, precision: 's', body: Buffer.from(lines.join('\n')) })}`);
    } catch (err) {
      assert.ok(err instanceof StrataError, String(err));
      results.push(`${err.constructor.name} ${err.status} ${err.message}${err instanceof PartialWriteError ? ` stored=${err.stored}` : ''}`);
    }
  }
  return results;
}

/** The index as registration left it: series by id, field types and the policy's fields, in insertion order. */
function indexState(engine: Engine, db: string): unknown {
  const d = engine.openedDatabase(db);
  if (!d) return undefined;
  const series: unknown[] = [];
  for (let id = 0; d.index.seriesById(id) !== undefined; id++) series.push(d.index.seriesById(id)!.key);
  const fields = MEASUREMENTS.map((m) => [m, [...(d.index.measurement(m)?.fields ?? [])], [...(d.fieldsInRp('autogen', m) ?? [])]]);
  return { series, fields, names: d.index.measurementNames() };
}

async function rows(engine: Engine, db: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const m of MEASUREMENTS) {
    for (const host of HOSTS) {
      for (const zone of ZONES) {
        for (const field of FIELDS) {
          const seriesKey = `${m},host=${host}${zone ? `,zone=${zone}` : ''}`;
          const r = await readSeries(engine, { db, measurement: m, seriesKey, field });
          if (r.length > 0) out.push([seriesKey, field, r]);
        }
      }
    }
  }
  return out;
}

for (const tight of [false, true]) {
  describe(`columnar admission of new series and fields (${tight ? 'tight' : 'default'} cardinality limits)`, { timeout: 120_000 }, () => {
    let points: Twin;
    let columns: Twin;
    const dbs: string[] = [];
    before(async () => {
      points = await openTwin(0, tight);
      columns = await openTwin(1, tight);
    });
    after(async () => {
      for (const t of [points, columns]) await t.engine.close();
      try {
        for (const db of dbs) {
          const [a, b] = await Promise.all([points, columns].map((t) => readFile(join(t.root, 'data', db, 'series.log'))));
          assert.ok(a!.equals(b!), `series.log of ${db} differs`);
        }
      } finally {
        for (const t of [points, columns]) await rm(t.root, { recursive: true, force: true });
      }
    });

    it('ends with the same statuses, index, rows and series log as the point-by-point path', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(bodiesArb, async (bodies) => {
          const db = `db${n++}`;
          dbs.push(db);
          const expected = await writeAll(points.engine, db, bodies);
          const actual = await writeAll(columns.engine, db, bodies);
          assert.deepEqual(actual, expected);
          assert.deepEqual(indexState(columns.engine, db), indexState(points.engine, db));
          assert.deepEqual(await rows(columns.engine, db), await rows(points.engine, db));
        }),
        { numRuns: 40, seed: tight ? 1307 : 1306 },
      );
    });
  });
}
