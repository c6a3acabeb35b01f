/** Shard.ensureFiles: callers asking at once (a flush, a refused write) share one file set. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../logger.js';
import { tempDir } from '../testing/temp-dir.js';
import { Shard } from './shard.js';

test('concurrent ensureFiles calls open one file set, and later calls get it too', async (t) => {
  const dir = join(await tempDir(t, 'strata-shard-'), 'db', 'autogen', '0_604800');
  const shard = new Shard('db', 'autogen', 0, 604800, dir);
  t.after(() => shard.close());
  const [a, b] = await Promise.all([shard.ensureFiles(silentLogger, undefined), shard.ensureFiles(silentLogger, undefined)]);
  assert.equal(a, b);
  assert.equal(shard.files, a);
  assert.equal(await shard.ensureFiles(silentLogger, undefined), a);
  assert.ok((await stat(dir)).isDirectory());
});
