/**
 * The memory budgets an operator sets reach the engine: `[flush] cache_snapshot_bytes` and
 * `[storage] block_cache_bytes` (not spec keys; perf/README.md, section 25c), from a file or the
 * environment, with their defaults, and a snapshot size too small to hold a slab is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { engineOptionsFromConfig } from './engine-options.js';

function options(env: Record<string, string> = {}, file?: string) {
  const { config } = loadConfig({
    argvConfigPath: undefined,
    getenv: () => ({ ...env }),
    readFile: (path) => (path === './config.toml' ? file : undefined),
  });
  return engineOptionsFromConfig(config, createLogger(config.logging, { write: () => true }));
}

test('the snapshot size and the block cache default to 8 MiB and 32 MiB', () => {
  const o = options();
  assert.equal(o.cacheSnapshotBytes, 8 * 1024 * 1024);
  assert.equal(o.blockCacheBytes, 32 * 1024 * 1024);
});

test('the environment and the file set them', () => {
  const fromEnv = options({ SERVICE__FLUSH__CACHE_SNAPSHOT_BYTES: '4194304', SERVICE__STORAGE__BLOCK_CACHE_BYTES: '0' });
  assert.equal(fromEnv.cacheSnapshotBytes, 4 * 1024 * 1024);
  assert.equal(fromEnv.blockCacheBytes, 0);
  const fromFile = options({}, '[flush]\ncache_snapshot_bytes = 2097152\n[storage]\nblock_cache_bytes = 1048576\n');
  assert.equal(fromFile.cacheSnapshotBytes, 2 * 1024 * 1024);
  assert.equal(fromFile.blockCacheBytes, 1024 * 1024);
});

test('a snapshot size below 1 MiB is refused, naming the key', () => {
  assert.throws(
    () => options({ SERVICE__FLUSH__CACHE_SNAPSHOT_BYTES: '65536' }),
    (err: unknown) => err instanceof ConfigError && /flush\.cache_snapshot_bytes/.test(String(err.message) + JSON.stringify(err)),
  );
});

test('a shard is cold for full compactions after 4 h, or [storage] compact_full_write_cold_duration', () => {
  assert.equal(options().compaction.coldAfterMs, 4 * 3600 * 1000);
  assert.equal(options({ SERVICE__STORAGE__COMPACT_FULL_WRITE_COLD_DURATION: '3s' }).compaction.coldAfterMs, 3000);
  assert.throws(() => options({ SERVICE__STORAGE__COMPACT_FULL_WRITE_COLD_DURATION: '0s' }), ConfigError);
});
