import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, removeTempFiles } from './atomic.js';
import { tempDir } from '../testing/temp-dir.js';

test('writeFileAtomic replaces the file and leaves no temp file', async (t) => {
  const dir = await tempDir(t, 'strata-atomic-');
  const p = join(dir, 'a.json');
  await writeFileAtomic(p, 'one');
  await writeFileAtomic(p, 'two');
  assert.equal(await readFile(p, 'utf8'), 'two');
  assert.deepEqual(await readdir(dir), ['a.json']);
});

test('removeTempFiles deletes only leftover .tmp files', async (t) => {
  const dir = await tempDir(t, 'strata-atomic-');
  await writeFile(join(dir, 'keep.tsm'), 'x');
  await writeFile(join(dir, 'half.tsm.tmp'), 'partial');
  assert.deepEqual(await removeTempFiles(dir), ['half.tsm.tmp']);
  assert.deepEqual(await readdir(dir), ['keep.tsm']);
  assert.deepEqual(await removeTempFiles(join(dir, 'missing')), []);
});
