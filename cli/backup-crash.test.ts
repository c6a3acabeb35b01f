/**
 * SIGKILL `strata backup` and `strata restore` at random points (a step delay stretches each
 * run so the kills land in every phase): the backup output is either absent or a complete,
 * verifiable backup; a restore target is the old content, the new content, or (journal
 * present) finishable; and rerunning the same command always succeeds with the full result.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RESTORE_JOURNAL_SUFFIX, verifyBackup } from '../engine/index.js';
import { dirsUnder, query, runStrata, startStrata, toolEnv, write, type Dirs } from './tool-test-support.js';

const DELAY = { STRATA_TOOL_STEP_DELAY_MS: '25' };
const ROUNDS = 4;

/** path → sha1 of every file under the three directories (LOCK excluded). */
function digest(d: Dirs): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (root: string, dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(root, p);
      else if (name !== 'LOCK') out.set(relative(root, p), createHash('sha1').update(readFileSync(p)).digest('hex'));
    }
  };
  for (const dir of [d.wal, d.meta, d.data]) walk(join(dir, '..'), dir);
  return out;
}

const same = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

async function fill(dirs: Dirs, from: number, count: number): Promise<void> {
  const server = await startStrata(dirs, { SERVICE__FLUSH__INTERVAL_SECS: '1' });
  try {
    await query(server.port, 'CREATE DATABASE a');
    await query(server.port, 'CREATE DATABASE b');
    for (let i = from; i < from + count; i++) {
      const lines = Array.from({ length: 50 }, (_, j) => `m,k=${j % 3} v=${i * 50 + j} ${1_600_000_000 + i * 50 + j}000000000`).join('\n');
      assert.equal(await write(server.port, i % 2 ? 'a' : 'b', lines), 204);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 1100)); // let a flush write a TSM file
    }
  } finally {
    assert.equal(await server.stop(), 0);
  }
}

describe('backup and restore killed midway', { timeout: 240_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'strata-crash-'));
  const src = dirsUnder(join(root, 'src'));
  const bkOld = join(root, 'bk-old');
  const bkNew = join(root, 'bk-new');
  after(() => rmSync(root, { recursive: true, force: true }));

  before(async () => {
    await fill(src, 0, 20);
    assert.equal((await runStrata(['backup', '--output', bkOld], toolEnv(src, 0))).code, 0);
    await fill(src, 20, 20);
    assert.equal((await runStrata(['backup', '--output', bkNew], toolEnv(src, 0))).code, 0);
    const m = await verifyBackup(bkNew);
    assert.ok(m.files.filter((f) => f.path.endsWith('.tsm')).length >= 2);
  });

  it('a killed backup leaves no output or a complete one; a rerun succeeds', async () => {
    const env = toolEnv(src, 0, DELAY);
    const started = Date.now();
    assert.equal((await runStrata(['backup', '--output', join(root, 'timing')], env)).code, 0);
    const full = Date.now() - started;
    for (let round = 0; round < ROUNDS; round++) {
      const out = join(root, `killed-${round}`);
      const killAfterMs = Math.floor(Math.random() * full);
      const res = await runStrata(['backup', '--output', out], env, { killAfterMs });
      if (existsSync(out)) {
        await verifyBackup(out); // finished before the kill: complete
        continue;
      }
      assert.equal(res.signal, 'SIGKILL', res.stderr);
      const rerun = await runStrata(['backup', '--output', out], toolEnv(src, 0));
      assert.equal(rerun.code, 0, `round ${round} (killed after ${killAfterMs} ms): ${rerun.stderr}`);
      await verifyBackup(out);
      assert.ok(!existsSync(`${out}.backup-tmp`));
    }
  });

  it('a killed restore leaves the old or new directories or a journal; a rerun completes it', async () => {
    const dst = dirsUnder(join(root, 'dst'));
    const env = toolEnv(dst, 0, DELAY);
    assert.equal((await runStrata(['restore', '--input', bkNew], toolEnv(dst, 0))).code, 0);
    const newDigest = digest(dst);
    assert.equal((await runStrata(['restore', '--input', bkOld], toolEnv(dst, 0))).code, 0);
    const oldDigest = digest(dst);
    assert.ok(!same(oldDigest, newDigest));

    const started = Date.now();
    assert.equal((await runStrata(['restore', '--input', bkNew], env)).code, 0);
    const full = Date.now() - started;
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      assert.equal((await runStrata(['restore', '--input', bkOld], toolEnv(dst, 0))).code, 0);
      const killAfterMs = Math.floor(Math.random() * full);
      await runStrata(['restore', '--input', bkNew], env, { killAfterMs });
      const journal = existsSync(dst.wal + RESTORE_JOURNAL_SUFFIX);
      const now = digest(dst);
      const state = journal ? 'journal' : same(now, oldDigest) ? 'old' : same(now, newDigest) ? 'new' : 'MIXED';
      outcomes.add(state);
      assert.notEqual(state, 'MIXED', `round ${round}: killed after ${killAfterMs} ms left a mix of old and new files`);
      const rerun = await runStrata(['restore', '--input', bkNew], toolEnv(dst, 0));
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.ok(same(digest(dst), newDigest), `round ${round}: rerun did not produce the backup's content`);
      for (const d of Object.values(dst) as string[]) {
        assert.ok(!existsSync(`${d}.restore-tmp`) && !existsSync(`${d}.restore-old`), `leftover staging next to ${d}`);
      }
    }
    // The restored directories serve every point of the new backup.
    const server = await startStrata(dst);
    try {
      const answer = (await query(server.port, 'SELECT count(v) FROM m', 'a')) as { results: { series: { values: [number, number][] }[] }[] };
      assert.equal(answer.results[0]?.series[0]?.values[0]?.[1], 20 * 50);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    process.stderr.write(`# restore kill outcomes: ${[...outcomes].join(', ')}\n`);
  });
});
