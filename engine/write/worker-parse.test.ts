/**
 * Engine.write with parse workers behaves exactly as without: same errors (texts, statuses,
 * partial writes), same stored data, same write notifications, whether a batch takes the known-series fast path or the
 * point-by-point path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine.js';
import { engineOptions } from '../options.js';
import { readSeries } from '../testing/read-all.js';
import { StrataError } from '../errors.js';
import type { WrittenRange } from './listeners.js';
import { PartialWriteError } from './partial.js';

const BODIES = [
  'cpu,host=a v=1,n=1i,s="x",b=t 10\ncpu,host=b v=2,n=2i,s="y",b=f 10', // new series and fields
  'cpu,host=a v=3,n=3i,s="z",b=t 20\ncpu,host=b v=4,n=4i 20', // known: fast path
  'cpu,host=a v=5 30\ncpu,host=a v=oops 31\nbad', // parse errors: partial write
  'cpu,host=a n=1.5 40\ncpu,host=b v=6 40', // type conflict: partial write
  'cpu,host=a v=7,n=9223372036854775807i,s="é" 50', // boxed values on the fast path
  '', // nothing to store
  'cpu,host=c v=8 60\nother v=1 60', // new series among known ones
  'cpu,host=a v=9 1', // out of order, known
];

async function outcomes(parseWorkers: number): Promise<{ results: string[]; rows: unknown[]; ranges: WrittenRange[] }> {
  const root = await mkdtemp(join(tmpdir(), 'strata-worker-write-'));
  const engine = await Engine.open(engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0, parseWorkers }));
  try {
    await engine.catalog.createDatabase('db');
    const ranges: WrittenRange[] = [];
    engine.writeListeners.add((r) => ranges.push(...r));
    const results: string[] = [];
    for (const body of BODIES) {
      try {
        results.push(`ok stored=${await engine.write({ db: 'db', precision: 's', body: Buffer.from(body) })}`);
      } catch (err) {
        assert.ok(err instanceof StrataError);
        const stored = err instanceof PartialWriteError ? ` stored=${err.stored}` : '';
        results.push(`${err.constructor.name} ${err.status} ${err.message}${stored}`);
      }
    }
    const rows: unknown[] = [];
    for (const seriesKey of ['cpu,host=a', 'cpu,host=b', 'cpu,host=c']) {
      for (const field of ['v', 'n', 's', 'b']) rows.push(await readSeries(engine, { db: 'db', measurement: 'cpu', seriesKey, field }));
    }
    rows.push(await readSeries(engine, { db: 'db', measurement: 'other', seriesKey: 'other', field: 'v' }));
    return { results, rows, ranges };
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

test('writes parsed by workers give the same statuses, errors and data as on the event loop', async () => {
  const main = await outcomes(0);
  const workers = await outcomes(2);
  assert.deepEqual(workers, main);
  // The stored counts are the points kept: lines, minus the bad ones of a partial write.
  assert.equal(main.results[0]?.startsWith('ok stored='), true);
  assert.match(main.results[BODIES.indexOf('cpu,host=a v=5 30\ncpu,host=a v=oops 31\nbad')]!, / stored=1$/);
  assert.equal(main.results[BODIES.indexOf('')], 'ok stored=0');
  assert.equal(main.results.filter((r) => !r.startsWith('ok ')).length, 2);
  assert.equal(main.ranges.length, 8);
  assert.match(main.results[2]!, /partial write: unable to parse 'cpu,host=a v=oops 31'/);
});
