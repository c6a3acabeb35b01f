import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CorruptionError, StorageIoError } from '../errors.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { FieldType } from '../point.js';
import { BlockCache } from './block-cache.js';
import { TsmFileSet } from './file-set.js';
import { openPositionalFile } from './positional-file.js';
import type { FileOpener } from './positional-file.js';
import type { TsmFileId } from './format.js';
import { payload, tempDir, writeTsm } from './test-support.js';

const bug = { name: 'InvariantError' };

/** One key 'k' with one block whose payload identifies the file. */
async function writeFileWith(set: TsmFileSet, id: TsmFileId, seed: number): Promise<string> {
  const path = set.pathFor(id);
  await writeTsm(path, [{ key: 'k', type: FieldType.Float, blocks: [{ minTime: 1n, maxTime: 2n, count: 2, payload: payload(seed, 64) }] }]);
  return path;
}

test('files are served in (generation, sequence) order and the generation counter continues after reopen', async (t) => {
  const dir = await tempDir(t, 'tsm-set-order');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  assert.equal(set.nextGeneration(), 1);
  assert.equal(set.nextGeneration(), 2);
  const paths = [];
  for (const id of [{ generation: 3, sequence: 1 }, { generation: 1, sequence: 2 }, { generation: 1, sequence: 1 }]) {
    paths.push(await writeFileWith(set, id, id.generation * 10 + id.sequence));
  }
  await set.add(...paths);
  assert.deepEqual(set.files().map((r) => basename(r.path)), ['000000001-000000001.tsm', '000000001-000000002.tsm', '000000003-000000001.tsm']);
  assert.equal(set.nextGeneration(), 4);
  await set.close();

  await writeFile(join(dir, 'notes.txt'), 'not a TSM file');
  await writeFile(join(dir, 'stray.tsm'), 'badly named');
  const logger = collectingLogger();
  const again = await TsmFileSet.open(dir, { logger });
  assert.equal(again.files().length, 3);
  assert.equal(again.nextGeneration(), 4);
  assert.deepEqual(logger.entries.map((e) => [e.level, e.obj]), [['warn', { file: join(dir, 'stray.tsm') }]]);
  await again.close();
});

test('replace: a snapshot taken before keeps reading the old files; they are deleted once released', async (t) => {
  const dir = await tempDir(t, 'tsm-set-replace');
  const logger = collectingLogger();
  const set = await TsmFileSet.open(dir, { logger, blockCache: new BlockCache() });
  const a = await writeFileWith(set, { generation: set.nextGeneration(), sequence: 1 }, 1);
  const b = await writeFileWith(set, { generation: set.nextGeneration(), sequence: 1 }, 2);
  await set.add(a, b);

  const before = set.acquire();
  const compacted = await writeFileWith(set, { generation: 2, sequence: 2 }, 3);
  await set.replace([a, b], [compacted]);

  assert.deepEqual(set.files().map((r) => r.path), [compacted]);
  assert.deepEqual((await readdir(dir)).sort(), [a, `${a}.obsolete`, b, `${b}.obsolete`, compacted].map((p) => basename(p)), 'old files stay while pinned, marked');
  for (const [i, r] of before.files.entries()) {
    const [e] = r.entries('k');
    assert.ok(e);
    assert.deepEqual(await r.readBlock('k', e), payload(i + 1, 64));
  }
  const after = set.acquire();
  assert.deepEqual(after.files.map((r) => r.path), [compacted]);

  await before.release();
  assert.deepEqual(await readdir(dir), [basename(compacted)]);
  const [old] = before.files;
  assert.ok(old);
  await assert.rejects(old.readBlock('k', { minTime: 1n, maxTime: 2n, offset: 8, size: 64, count: 2 }), bug);
  assert.equal(logger.entries.filter((e) => e.msg === 'removed replaced TSM file').length, 2);
  await assert.rejects(before.release()!, bug, 'double release is a bug');

  // Without snapshots, replaced files go at once.
  const next = await writeFileWith(set, { generation: 2, sequence: 3 }, 4);
  await set.replace([compacted], [next]);
  await after.release();
  assert.deepEqual(await readdir(dir), [basename(next)]);
  await set.close();
});

test('replace is all-or-nothing: a bad new file or an unknown old file changes nothing', async (t) => {
  const dir = await tempDir(t, 'tsm-set-fail');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  await set.add(a);
  const good = await writeFileWith(set, { generation: 1, sequence: 2 }, 2);
  const broken = set.pathFor({ generation: 1, sequence: 3 });
  await writeFile(broken, Buffer.alloc(200));
  await assert.rejects(set.replace([a], [good, broken]), CorruptionError);
  await assert.rejects(set.replace([join(dir, 'missing.tsm')], [good]), bug);
  await assert.rejects(set.replace([], [a]), bug, 'already live');
  await assert.rejects(set.replace([], [join(dir, 'x.tsm')]), bug, 'not a TSM name');
  await assert.rejects(set.replace([a, a], [good]), bug, 'listed twice');
  assert.deepEqual(set.files().map((r) => r.path), [a]);
  const snap = set.acquire();
  assert.equal(snap.files.length, 1);
  await snap.release();
  await set.close();
});

test('concurrent replaces are applied one after the other', async (t) => {
  const dir = await tempDir(t, 'tsm-set-queue');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  const b = await writeFileWith(set, { generation: 1, sequence: 2 }, 2);
  const c = await writeFileWith(set, { generation: 1, sequence: 3 }, 3);
  await Promise.all([set.add(a), set.replace([a], [b]), set.replace([b], [c])]);
  assert.deepEqual(set.files().map((r) => r.path), [c]);
  assert.deepEqual(await readdir(dir), [basename(c)]);
  await set.close();
});

test('close() leaves pinned files readable until their snapshot is released, and deletes nothing', async (t) => {
  const dir = await tempDir(t, 'tsm-set-close');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  await set.add(a);
  const snap = set.acquire();
  await set.close();
  assert.throws(() => set.acquire(), bug);
  const [r] = snap.files;
  assert.ok(r);
  const [e] = r.entries('k');
  assert.ok(e);
  assert.deepEqual(await r.readBlock('k', e), payload(1, 64));
  await snap.release();
  await assert.rejects(r.readBlock('k', e), bug);
  assert.deepEqual(await readdir(dir), [basename(a)]);
});

test('a crash while replaced files are pinned: the next open removes them (marked) and serves the output alone', async (t) => {
  const dir = await tempDir(t, 'tsm-set-crash-replaced');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  const b = await writeFileWith(set, { generation: 2, sequence: 1 }, 2);
  await set.add(a, b);
  const pinned = set.acquire();
  const compacted = await writeFileWith(set, { generation: 2, sequence: 2 }, 3);
  await set.replace([a, b], [compacted]);
  // The process dies here: the query never releases, the inputs are never removed.
  const logger = collectingLogger();
  const again = await TsmFileSet.open(dir, { logger });
  assert.deepEqual(again.files().map((r) => r.path), [compacted]);
  assert.deepEqual(await readdir(dir), [basename(compacted)]);
  assert.equal(logger.entries.filter((e) => /removed a TSM file a compaction replaced/.test(e.msg)).length, 2);
  assert.equal(again.nextGeneration(), 3);
  await again.close();
  await pinned.release();
  await set.close();
});

test('a file that cannot be read (I/O error, not corruption) fails the open, naming it and the cause; nothing is moved', async (t) => {
  const dir = await tempDir(t, 'tsm-set-eio');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  const b = await writeFileWith(set, { generation: 5, sequence: 1 }, 2);
  await set.close();
  const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
  const failing: FileOpener = async (p) => {
    if (p === b) throw new StorageIoError(`cannot read ${p} at 0: ${eio.message}`, { cause: eio });
    return openPositionalFile(p);
  };
  // Its points are acknowledged: a set without it would serve queries without them.
  await assert.rejects(TsmFileSet.open(dir, { logger: silentLogger, openFile: failing }), (err: Error) => err instanceof StorageIoError && err.message.includes(b) && /EIO/.test(err.message));
  assert.deepEqual((await readdir(dir)).sort(), [basename(a), basename(b)]);
  const again = await TsmFileSet.open(dir, { logger: silentLogger });
  assert.deepEqual(again.files().map((r) => r.path), [a, b]);
  await again.close();
});

test('a directory under a TSM file name is logged and skipped, and its generation never reused', async (t) => {
  const dir = await tempDir(t, 'tsm-set-dir');
  const set = await TsmFileSet.open(dir, { logger: silentLogger });
  const a = await writeFileWith(set, { generation: 1, sequence: 1 }, 1);
  await set.close();
  await mkdir(join(dir, '000000005-000000001.tsm'));
  const logger = collectingLogger();
  const again = await TsmFileSet.open(dir, { logger });
  assert.deepEqual(again.files().map((r) => r.path), [a]);
  assert.deepEqual(logger.entries.map((e) => [e.level, e.msg]), [['error', 'a TSM file name that is not a file; not serving it']]);
  assert.equal(again.nextGeneration(), 6);
  await again.close();
});
