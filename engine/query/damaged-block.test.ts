/**
 * A TSM block that fails its checksum, read through the engine's cursors: the block's points
 * are not served and the damage is logged once, while every other block of the same key and
 * file still is. Before, every query touching the key failed with the corruption error, on
 * every start, until the file was removed by hand. Compaction leaves the block out too and
 * keeps the damaged input in quarantine; before, it failed on the file every round, so the
 * shard was never compacted again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { collectingLogger } from '../logger.js';
import type { BlockEntry } from '../tsm/block-index.js';
import { BLOCK_CHECKSUM_SIZE, QUARANTINE_DIR } from '../tsm/format.js';
import { TsmReader } from '../tsm/reader.js';
import { openTestEngine } from '../testing/open-engine.js';
import { readSeries } from '../testing/read-all.js';
import { tempDir } from '../testing/temp-dir.js';

const T0 = 1_700_000_000_000_000_000n;
const N = 2500;

const body = (from: number, n: number) => {
  const lines: string[] = [];
  for (let i = from; i < from + n; i++) lines.push(`m,host=a v=${i}i ${T0 + BigInt(i) * 1_000_000_000n}`, `m,host=b v=${i}i ${T0 + BigInt(i) * 1_000_000_000n}`);
  return new TextEncoder().encode(lines.join('\n'));
};

/** N points of two series in one TSM file (then `extra` more in a second one); a byte of host=a's second block flipped. */
async function damaged(root: string, extra = 0): Promise<{ shardDir: string; file: string; victim: BlockEntry }> {
  const e = await openTestEngine(root);
  await e.catalog.createDatabase('d');
  await e.write({ db: 'd', precision: 'ns', body: body(0, N) });
  await e.flush();
  if (extra > 0) await e.write({ db: 'd', precision: 'ns', body: body(N, extra) });
  await e.close();
  const shardDir = join(root, 'data', 'd', 'autogen', (await readdir(join(root, 'data', 'd', 'autogen')))[0]!);
  const file = join(shardDir, (await readdir(shardDir)).filter((n) => n.endsWith('.tsm')).sort()[0]!);
  const r = await TsmReader.open(file);
  const entries = r.entries('m,host=a#!~#v');
  await r.close();
  assert.ok(entries.length >= 3, `${entries.length} blocks`);
  const victim = entries[1]!;
  const bytes = await readFile(file);
  const at = victim.offset + BLOCK_CHECKSUM_SIZE + 10;
  bytes[at] = bytes[at]! ^ 0x5a;
  await writeFile(file, bytes);
  return { shardDir, file, victim };
}

test('a damaged block is skipped and logged; the rest of its key and file is served', async (t) => {
  const root = await tempDir(t, 'strata-bad-block-');
  const { shardDir, file, victim } = await damaged(root);

  const logger = collectingLogger();
  const again = await openTestEngine(root, {}, { logger });
  try {
    for (let round = 0; round < 2; round++) {
      const a = await readSeries(again, { db: 'd', measurement: 'm', seriesKey: 'm,host=a', field: 'v' });
      assert.equal(a.length, N - victim.count);
      assert.ok(a.every(([time]) => time < victim.minTime || time > victim.maxTime), 'no point of the damaged block is served');
      const desc = await readSeries(again, { db: 'd', measurement: 'm', seriesKey: 'm,host=a', field: 'v', ascending: false });
      assert.equal(desc.length, N - victim.count);
      const b = await readSeries(again, { db: 'd', measurement: 'm', seriesKey: 'm,host=b', field: 'v' });
      assert.equal(b.length, N);
    }
    const damage = logger.entries.filter((x) => /damaged TSM block/.test(x.msg));
    assert.equal(damage.length, 1, 'logged once, not per query');
    assert.equal(damage[0]?.level, 'error');
  } finally {
    await again.close();
  }
  // Nothing was moved or deleted: `strata inspect` still finds the damage, a later start too.
  assert.ok((await readdir(shardDir)).includes(file.slice(shardDir.length + 1)));
});

test('compaction leaves a damaged block out, keeps its input in quarantine and the shard compacting', async (t) => {
  const root = await tempDir(t, 'strata-bad-block-');
  const EXTRA = 300;
  const { shardDir, file, victim } = await damaged(root, EXTRA);
  const logger = collectingLogger();
  const e = await openTestEngine(root, { coldAfterMs: 0 }, { logger });
  try {
    await e.compactor.runOnce();
    assert.equal(e.compactor.counters.errors, 0);
    assert.ok(e.compactor.counters.compactions >= 1);
    const live = (await readdir(shardDir)).filter((n) => n.endsWith('.tsm'));
    assert.ok(!live.includes(basename(file)), `the damaged input is no longer live: ${live.join(', ')}`);
    assert.deepEqual(await readdir(join(shardDir, QUARANTINE_DIR)), [basename(file)]);
    const a = await readSeries(e, { db: 'd', measurement: 'm', seriesKey: 'm,host=a', field: 'v' });
    assert.equal(a.length, N + EXTRA - victim.count);
    const b = await readSeries(e, { db: 'd', measurement: 'm', seriesKey: 'm,host=b', field: 'v' });
    assert.equal(b.length, N + EXTRA);
    assert.ok(logger.entries.some((x) => x.level === 'error' && /left out damaged TSM blocks/.test(x.msg)));
  } finally {
    await e.close();
  }
});
