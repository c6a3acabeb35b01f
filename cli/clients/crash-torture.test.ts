/**
 * The SIGKILL torture (crash-torture.ts) for a few rounds in `make test`: appends, overwrites and
 * DELETEs over six shard groups with 1 s flushes (so TSM files, tombstones and compactions are in
 * play at the kill), start-up kills, and an exact check of every writer's acknowledged state;
 * beside them databases and retention policies created, filled and dropped (DROP DATABASE,
 * DROP RETENTION POLICY, DROP MEASUREMENT, names created again after their drop) and checked
 * the same way.
 * Longer hunts: build/cli/clients/crash-torture-run.js.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { removeDir } from './harness.js';
import { torture } from './crash-torture.js';

describe('SIGKILL torture: overwrites, DELETE and DROP SERIES, several shard groups, databases dropped and re-created, start-up kills', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-torture-'));
  after(() => removeDir(dir));

  it('every acknowledged write, DELETE and DROP holds after each restart', async (t) => {
    const stats = await torture({ dir, seed: 20261129, rounds: 6, killMs: [300, 2500], startupKillRate: 0.4 });
    t.diagnostic(JSON.stringify(stats));
    assert.equal(stats.rounds, 6);
    assert.ok(stats.acked > 1000 && stats.deletes > 5 && stats.overwrites > 100, JSON.stringify(stats));
    // How many drops a few rounds see depends on the machine's load (a DROP DATABASE waits for a
    // flush round); the hunts (crash-torture-run.js) make hundreds.
    assert.ok(stats.ddl && stats.ddl.creates >= 1 && stats.ddl.points > 0, JSON.stringify(stats.ddl));
  });
});
