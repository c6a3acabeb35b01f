/**
 * `strata backup` against a real `strata serve` under write load, then `strata restore` into
 * empty directories and a server on them: every point acknowledged before the backup began
 * must be there, with no checksum error anywhere (restore verifies the manifest, inspect
 * verifies every TSM block and WAL record, and the server quarantines nothing).
 * Flushes run every second and compaction every second, so the backup races both.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verifyBackup } from '../engine/index.js';
import { dirsUnder, query, runStrata, startStrata, toolEnv, write } from './tool-test-support.js';

const BATCH = 200;
const BASE_NS = 1_700_000_000_000_000_000n;
const FAST = { SERVICE__FLUSH__INTERVAL_SECS: '1' };

function batchLines(i: number): string {
  const out: string[] = [];
  for (let j = 0; j < BATCH; j++) {
    const t = BASE_NS + BigInt(i) * 1_000_000_000n + BigInt(j) * 1000n;
    out.push(`load,host=h${i % 5} v=${i * BATCH + j}i,f=${(i + j) / 4} ${t}`);
  }
  return out.join('\n');
}

describe('backup under write load, restore into empty directories', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'strata-backup-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('restores every point acknowledged before the backup began', async () => {
    const src = dirsUnder(join(root, 'src'));
    const server = await startStrata(src, FAST);
    try {
      await query(server.port, 'CREATE DATABASE load');
      const acked: number[] = [];
      let stop = false;
      let next = 0;
      const writer = async () => {
        while (!stop) {
          const i = next++;
          const status = await write(server.port, 'load', batchLines(i));
          assert.equal(status, 204);
          acked.push(i);
        }
      };
      const writers = [writer(), writer()];
      // Long enough for several flushes (TSM files, WAL truncation) and compactions.
      await new Promise((r) => setTimeout(r, 3500));
      const ackedBefore = [...acked];
      const out = join(root, 'bk');
      const env = toolEnv(src, server.port, { ...FAST, STRATA_TOOL_STEP_DELAY_MS: '150' });
      const res = await runStrata(['backup', '--output', out], env);
      await new Promise((r) => setTimeout(r, 300));
      stop = true;
      await Promise.all(writers);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stderr, /backup written to/);
      const manifest = await verifyBackup(out);
      assert.ok(manifest.files.some((f) => f.path.endsWith('.tsm')), 'the backup holds TSM files');
      assert.ok(manifest.files.some((f) => f.path.startsWith('wal/')), 'the backup holds WAL segments');
      assert.ok(BigInt(manifest.walLastSeq) > 0n);
      assert.ok(ackedBefore.length > 5, `only ${ackedBefore.length} batches before the backup`);

      // Restore into empty directories somewhere else and serve them.
      const dst = dirsUnder(join(root, 'dst'));
      const restored = await runStrata(['restore', '--input', out], toolEnv(dst, 0));
      assert.equal(restored.code, 0, restored.stderr);
      for (const d of [dst.wal, dst.meta, dst.data]) assert.ok(existsSync(d));

      const check = await startStrata(dst);
      try {
        const answer = (await query(check.port, 'SELECT v, f FROM load', 'load')) as {
          results: { series?: { values: [number | string, number, number][] }[] }[];
        };
        const got = new Map<bigint, number>();
        for (const row of answer.results[0]?.series?.[0]?.values ?? []) got.set(BigInt(row[0]) * 1000n, row[1]);
        let missing = 0;
        for (const i of ackedBefore) {
          for (let j = 0; j < BATCH; j++) {
            const t = BASE_NS + BigInt(i) * 1_000_000_000n + BigInt(j) * 1000n;
            if (got.get(t) !== i * BATCH + j) missing++;
          }
        }
        assert.equal(missing, 0, `${missing} acknowledged points missing after restore (of ${ackedBefore.length * BATCH})`);
        const inspected = await runStrata(['inspect'], toolEnv(dst, 0));
        assert.equal(inspected.code, 0, inspected.stdout + inspected.stderr);
        assert.match(inspected.stdout, /no damage found/);
      } finally {
        assert.equal(await check.stop(), 0);
        assert.doesNotMatch(check.stderr(), /quarantin|corrupt|damage/i);
      }
    } finally {
      await server.stop();
    }
  });

  it('refuses to restore over the directories of a running server', async () => {
    const live = dirsUnder(join(root, 'live'));
    const server = await startStrata(live);
    try {
      const res = await runStrata(['restore', '--input', join(root, 'bk')], toolEnv(live, 0));
      assert.equal(res.code, 1);
      assert.match(res.stderr, /locked by running process \d+.*stop the server before restoring/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });
});
