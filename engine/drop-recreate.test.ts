/**
 * DROP DATABASE and a CREATE DATABASE of the same name: neither may be answered while the
 * dropped database's directory is still on disk. A SIGKILL right after the CREATE's answer
 * otherwise left the old directory under a name the catalog lists again, and the restart served
 * the dropped database's points as the new one's (found by the SIGKILL torture's catalog actor:
 * 5 of 15 drop-create-kill cycles under write load).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from './engine.js';
import { engineOptions } from './options.js';
import { readSeries } from './testing/read-all.js';

function body(n: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`m,host=a v=${i}i ${1_672_876_800 + i * 60}000000000`);
  return Buffer.from(lines.join('\n'));
}

/** Points of another database, for a flush round that takes a while. */
function background(n: number, round: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`b,h=h${i % 100} v=${i}i ${1_600_000_000 + round * 200_000 + i}000000000`);
  return Buffer.from(lines.join('\n'));
}

async function withEngine(fn: (engine: Engine, dataDir: string, reopen: () => Promise<Engine>) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'strata-drop-recreate-'));
  const options = engineOptions({ walDir: join(root, 'wal'), metaDir: join(root, 'meta'), dataDir: join(root, 'data'), flushIntervalSec: 0 });
  let engine = await Engine.open(options);
  try {
    await fn(engine, join(root, 'data'), async () => {
      await engine.close();
      engine = await Engine.open(options);
      return engine;
    });
  } finally {
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

const tsmFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsm')) : []);

test('DROP DATABASE answers once the database directory is deleted', async () => {
  await withEngine(async (engine, dataDir) => {
    await engine.createDatabase('x');
    await engine.write({ db: 'x', precision: 'ns', body: body(500) });
    await engine.flush();
    assert.ok(tsmFiles(join(dataDir, 'x')).length > 0);
    await engine.dropDatabase('x');
    assert.equal(existsSync(join(dataDir, 'x')), false);
  });
});

test('a CREATE DATABASE racing the DROP of its name is answered only after the old files are gone, and starts empty', async () => {
  await withEngine(async (engine, dataDir, reopen) => {
    await engine.createDatabase('bg');
    for (let round = 0; round < 3; round++) {
      await engine.createDatabase('x');
      await engine.write({ db: 'x', precision: 'ns', body: body(500) });
      await engine.flush();
      // A flush round in progress holds the drop's deletion back (it may be writing x's shards).
      await engine.write({ db: 'bg', precision: 'ns', body: background(100_000, round) });
      const flushing = engine.flush();
      const dropped = engine.dropDatabase('x');
      await engine.createDatabase('x');
      assert.deepEqual(tsmFiles(join(dataDir, 'x')), [], `round ${round}: the dropped database's files are still there`);
      await dropped;
      await flushing;
      const read = async () => readSeries(engine, { db: 'x', measurement: 'm', seriesKey: 'm,host=a', field: 'v' });
      assert.equal((await read()).length, 0);
      engine = await reopen();
      assert.equal((await read()).length, 0, `round ${round}: the dropped points are back after a restart`);
      await engine.dropDatabase('x');
    }
  });
});
