import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Catalog, CatalogError } from './catalog.js';
import { initChecksum } from '../fs/checksum.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { DatabaseNotFoundError, RetentionPolicyNotFoundError } from '../errors.js';
import { CATALOG_FILE } from './store.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

async function fresh(t: CleanupScope) {
  await initChecksum();
  const dir = await tempDir(t, 'strata-meta-');
  return { dir, cat: await Catalog.open(dir, silentLogger) };
}

test('databases keep creation order, autogen default, idempotent create, durable', async (t) => {
  const { dir, cat } = await fresh(t);
  await cat.createDatabase('zeta');
  await cat.createDatabase('alpha');
  await cat.createDatabase('zeta');
  assert.deepEqual(cat.databases().map((d) => d.name), ['zeta', 'alpha']);
  const rp = cat.resolveRetentionPolicy('alpha', undefined);
  assert.deepEqual(rp, { name: 'autogen', durationSec: 0, replicaN: 1, shardGroupDurationSec: 7 * 86400 });
  const again = await Catalog.open(dir, silentLogger);
  assert.deepEqual(again.databases().map((d) => d.name), ['zeta', 'alpha']);
});

test('retention policies: create, default, alter keeps shard duration, drop default', async (t) => {
  const { cat } = await fresh(t);
  await cat.createDatabase('db');
  await cat.createRetentionPolicy('db', { name: 'short', durationSec: 3600, replicaN: 1 }, true);
  assert.equal(cat.resolveRetentionPolicy('db', undefined).name, 'short');
  assert.equal(cat.resolveRetentionPolicy('db', 'short').shardGroupDurationSec, 3600);
  await cat.alterRetentionPolicy('db', 'short', { durationSec: 3 * 86400 });
  assert.equal(cat.resolveRetentionPolicy('db', 'short').shardGroupDurationSec, 3600);
  await assert.rejects(cat.createRetentionPolicy('db', { name: 'x', durationSec: 60, replicaN: 1 }, false), {
    message: 'retention policy duration must be at least 1h0m0s',
  });
  await cat.dropRetentionPolicy('db', 'short');
  assert.throws(() => cat.resolveRetentionPolicy('db', undefined), RetentionPolicyNotFoundError);
  assert.throws(() => cat.resolveRetentionPolicy('nope', undefined), DatabaseNotFoundError);
  await assert.rejects(cat.createRetentionPolicy('nope', { name: 'r', durationSec: 0, replicaN: 1 }, false), DatabaseNotFoundError);
});

test('users, grants and admin flag', async (t) => {
  const { cat } = await fresh(t);
  await cat.createUser('ann', '$argon2id$x', false);
  await assert.rejects(cat.createUser('ann', 'h', false), CatalogError);
  await cat.setPrivilege('ann', 'db', 'READ');
  await cat.updateUser('ann', (u) => ({ ...u, admin: true }));
  assert.deepEqual(cat.user('ann'), { name: 'ann', hash: '$argon2id$x', admin: true, privileges: { db: 'READ' } });
  await cat.dropUser('ann');
  await assert.rejects(cat.dropUser('ann'), { message: 'user not found' });
});

test('corruption table for the catalog file', async (t) => {
  const rows: { name: string; damage: (p: string) => Promise<void>; expect: string[] }[] = [
    { name: 'truncated tail falls back to previous copy', damage: async (p) => writeFile(p, (await readFile(p, 'utf8')).slice(0, 20)), expect: ['a'] },
    { name: 'flipped checksum byte falls back to previous copy', damage: async (p) => writeFile(p, (await readFile(p, 'utf8')).replace(/"checksum":"(.)/, (_m, c: string) => `"checksum":"${c === '0' ? '1' : '0'}`)), expect: ['a'] },
    { name: 'zero-filled file falls back', damage: async (p) => writeFile(p, Buffer.alloc(4096)), expect: ['a'] },
    { name: '0-byte file falls back', damage: async (p) => writeFile(p, ''), expect: ['a'] },
    // Before: start-up failed with EISDIR.
    { name: 'a directory where the file belongs is moved aside', damage: async (p) => rm(p).then(() => mkdir(p)), expect: ['a'] },
    { name: 'leftover temp file is removed, current kept', damage: async (p) => writeFile(p + '.tmp', '{"half'), expect: ['a', 'b'] },
  ];
  for (const row of rows) {
    await t.test(row.name, async () => {
      const { dir, cat } = await fresh(t);
      await cat.createDatabase('a');
      await cat.createDatabase('b');
      await row.damage(join(dir, CATALOG_FILE));
      const logger = collectingLogger();
      const reopened = await Catalog.open(dir, logger);
      assert.deepEqual(reopened.databases().map((d) => d.name), row.expect);
      assert.ok(logger.entries.length > 0, 'damage is logged');
      assert.ok(!(await readdir(dir)).some((n) => n.endsWith('.tmp')));
      await reopened.createDatabase('c');
      const third = await Catalog.open(dir, silentLogger);
      assert.deepEqual(third.databases().map((d) => d.name), [...row.expect, 'c']);
    });
  }
});
