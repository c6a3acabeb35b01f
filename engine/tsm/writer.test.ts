import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FieldType } from '../point.js';
import { MAX_KEY_BYTES } from './format.js';
import type { FieldType as FieldTypeCode } from '../point.js';
import { TsmReader } from './reader.js';
import { payload, tempDir } from './test-support.js';
import { TsmWriter } from './writer.js';

const F = FieldType.Float;
const bug = { name: 'InvariantError' };

test('ordering violations throw InvariantError and leave the writer usable', async (t) => {
  const dir = await tempDir(t, 'tsm-writer');
  const path = join(dir, '000000001-000000001.tsm');
  const w = await TsmWriter.create(path, { level: 0 });
  const p = payload(1, 10);
  await w.writeBlock('b', F, 10n, 20n, 2, p);
  const rows: [string, () => Promise<void>][] = [
    ['key before the previous key', () => w.writeBlock('a', F, 100n, 200n, 1, p)],
    ['same key, overlapping time', () => w.writeBlock('b', F, 20n, 30n, 1, p)],
    ['same key, earlier time', () => w.writeBlock('b', F, 0n, 5n, 1, p)],
    ['same key, other type', () => w.writeBlock('b', FieldType.Integer, 30n, 40n, 1, p)],
    ['minTime after maxTime', () => w.writeBlock('c', F, 5n, 4n, 1, p)],
    ['time beyond int64', () => w.writeBlock('c', F, 0n, 2n ** 63n, 1, p)],
    ['zero values', () => w.writeBlock('c', F, 1n, 2n, 0, p)],
    ['empty payload', () => w.writeBlock('c', F, 1n, 2n, 1, new Uint8Array(0))],
    ['unknown type', () => w.writeBlock('c', 9 as FieldTypeCode, 1n, 2n, 1, p)],
    ['empty key', () => w.writeBlock('', F, 1n, 2n, 1, p)],
    ['key over 64 KiB', () => w.writeBlock('k'.repeat(MAX_KEY_BYTES + 1), F, 1n, 2n, 1, p)],
  ];
  for (const [name, write] of rows) await assert.rejects(write(), bug, name);
  // Byte order, not UTF-16 order: U+FF61 (EF BD A1) sorts before U+1F600 (F0 9F 98 80) in
  // bytes although its UTF-16 code unit (FF61) is above the surrogate D83D.
  await w.writeBlock('b', F, 21n, 30n, 2, p);
  await w.writeBlock('\uff61', F, 1n, 1n, 1, p);
  await w.writeBlock('\u{1f600}', F, 1n, 1n, 1, p);
  const info = await w.finish();
  assert.deepEqual([info.keyCount, info.blockCount, info.valueCount, info.minKey, info.maxKey], [3, 4, 6, 'b', '\u{1f600}']);
  const r = await TsmReader.open(path);
  assert.deepEqual([...r.keys()], ['b', '\uff61', '\u{1f600}']);
  await r.close();
  await assert.rejects(w.writeBlock('z', F, 1n, 1n, 1, p), bug, 'no writes after finish');
});

test('empty files are refused: finish() without blocks throws and leaves nothing behind', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-empty');
  const w = await TsmWriter.create(join(dir, '000000001-000000001.tsm'), { level: 0 });
  assert.equal(w.blockCount, 0);
  await assert.rejects(w.finish(), bug);
  assert.deepEqual(await readdir(dir), []);
  await w.abort(); // still safe
});

test('abort() removes the temp file; the final name never appears', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-abort');
  const w = await TsmWriter.create(join(dir, '000000001-000000001.tsm'), { level: 0, bufferSize: 4096 });
  for (let i = 0; i < 10; i++) await w.writeBlock('k', F, BigInt(i * 10), BigInt(i * 10 + 1), 2, payload(i, 1000));
  assert.deepEqual(await readdir(dir), ['000000001-000000001.tsm.tmp']);
  await w.abort();
  await w.abort();
  assert.deepEqual(await readdir(dir), []);
});

test('finish() refuses to overwrite an existing file', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-exists');
  const path = join(dir, '000000001-000000001.tsm');
  await writeFile(path, 'live data');
  const w = await TsmWriter.create(path, { level: 0 });
  await w.writeBlock('k', F, 1n, 1n, 1, payload(1, 4));
  await assert.rejects(w.finish(), bug);
  await w.abort();
  assert.deepEqual(await readdir(dir), ['000000001-000000001.tsm']);
});

test('payloads larger than the write buffer are streamed directly and read back intact', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-big');
  const path = join(dir, '000000001-000000001.tsm');
  const w = await TsmWriter.create(path, { level: 1, bufferSize: 4096 });
  const sizes = [10, 5000, 4090, 1, 70_000, 3];
  for (const [i, n] of sizes.entries()) await w.writeBlock('k', F, BigInt(i * 2), BigInt(i * 2), 1, payload(i, n));
  await w.finish();
  const r = await TsmReader.open(path);
  for (const [i, e] of r.entries('k').entries()) assert.deepEqual(await r.readBlock('k', e), payload(i, sizes[i] ?? 0));
  await r.close();
});

test('invalid levels are refused', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-level');
  await assert.rejects(TsmWriter.create(join(dir, 'x.tsm'), { level: 256 }), bug);
  await assert.rejects(TsmWriter.create(join(dir, 'x.tsm'), { level: -1 }), bug);
});

test('overlapping calls are a caller bug: the second one throws, the first completes', async (t) => {
  const dir = await tempDir(t, 'tsm-writer-concurrent');
  const path = join(dir, '000000001-000000001.tsm');
  const w = await TsmWriter.create(path, { level: 0, bufferSize: 4096 });
  const first = w.writeBlock('k', F, 1n, 1n, 1, payload(1, 10_000)); // large: really awaits I/O
  await assert.rejects(w.writeBlock('k', F, 2n, 2n, 1, payload(2, 10)), bug);
  await assert.rejects(w.finish(), bug);
  await first;
  await w.writeBlock('k', F, 2n, 2n, 1, payload(2, 10));
  assert.equal((await w.finish()).blockCount, 2);
});
