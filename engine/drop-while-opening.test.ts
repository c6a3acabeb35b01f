/**
 * DROP DATABASE while the database's storage is being opened (its first use after CREATE
 * DATABASE): the drop answers once the directory is gone, as any drop does. The open used to
 * close what it had opened and leave the directory until the next start, and the drop answered
 * without waiting for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { DatabaseNotFoundError } from './errors.js';
import { engineOptions } from './options.js';
import { readSeries } from './testing/read-all.js';

/** A point a week: one shard per week, each opened with its own file reads. */
function weekly(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`m,host=h${i} v=${i}i ${1_672_876_800 + i * 7 * 86_400}000000000`);
  return Buffer.from(lines.join('\n'));
}

test('a DROP DATABASE during the first open of a database answers once its directory is deleted', async () => {
  const root = await mkdtemp(join(tmpdir(), 'strata-drop-opening-'));
  const options = (name: string) => engineOptions({ walDir: join(root, name, 'wal'), metaDir: join(root, name, 'meta'), dataDir: join(root, name, 'data'), flushIntervalSec: 0 });
  // A directory of 300 shards: its open takes hundreds of file reads, and the drop's catalog save lands among them.
  const source = await Engine.open(options('source'));
  await source.createDatabase('x');
  await source.write({ db: 'x', precision: 'ns', body: weekly(300) });
  await source.flush();
  await source.close();
  const dataDir = join(root, 'serve', 'data');
  let engine = await Engine.open(options('serve'));
  try {
    // Should a slow fsync delay the drop's save past the open, the rules hold as for any drop
    // and the next round tries again.
    let raced = false;
    for (let round = 0; round < 4 && !raced; round++) {
      await cp(join(root, 'source', 'data', 'x'), join(dataDir, 'x'), { recursive: true });
      await engine.createDatabase('x');
      let openSettled = false;
      const opening = engine.database('x').then(
        () => ((openSettled = true), false),
        (err: unknown) => {
          openSettled = true;
          if (!(err instanceof DatabaseNotFoundError)) throw err;
          return true;
        },
      );
      await engine.dropDatabase('x');
      assert.equal(openSettled, true, `round ${round}: the drop answered while the open was still running`);
      assert.equal(existsSync(join(dataDir, 'x')), false, `round ${round}: the directory outlived the drop's answer`);
      raced = await opening;
    }
    assert.ok(raced, 'the drop never landed during the open');
    // The name works again afterwards, and starts empty.
    await engine.createDatabase('x');
    await engine.write({ db: 'x', precision: 'ns', body: Buffer.from('m,host=a v=1i 1672876800000000000') });
    const read = () => readSeries(engine, { db: 'x', measurement: 'm', seriesKey: 'm,host=h7', field: 'v' });
    assert.equal((await read()).length, 0);
    await engine.close();
    engine = await Engine.open(options('serve'));
    assert.equal((await read()).length, 0);
    assert.equal((await readSeries(engine, { db: 'x', measurement: 'm', seriesKey: 'm,host=a', field: 'v' })).length, 1);
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
});
