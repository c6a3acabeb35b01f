/**
 * Injected I/O faults behind the WAL of a real `strata serve` (strace attached, see
 * fault-injection.ts): the flush (TSM file write, fsync, rename; the series log), and the
 * compaction (output fsync and rename, removal of its inputs). Writes keep their 204 while only
 * these fail (the WAL still holds the points); a failed flush must leave the WAL in place, a
 * failed compaction its inputs. Once the fault is gone the next flush succeeds, and after a
 * SIGKILL the restart finds every acknowledged point once and no temp file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { exec, http, removeDir, startServer, stopServer, type Server } from './harness.js';
import { injectFault, Ledger, restartAfterKill, metric, straceUnusable, tsmFiles, waitFor, withFault, type Fault, type FaultSpec } from './fault-injection.js';

const skip = straceUnusable();
const root = mkdtempSync(join(tmpdir(), 'strata-faults-storage-'));
const env = { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__DISK__ENABLED: 'false' };

async function flushes(srv: Server): Promise<{ ok: number; failed: number }> {
  const runs = await metric(srv, 'service_flush_runs_total');
  const failed = await metric(srv, 'service_flush_errors_total');
  return { ok: runs - failed, failed };
}

/** A server with database d, some acknowledged points and one successful flush behind it. */
async function flushedServer(name: string): Promise<{ srv: Server; ledger: Ledger }> {
  const srv = await startServer({ dir: mkdtempSync(join(root, `${name}-`)), env });
  await exec(srv.port, 'CREATE DATABASE d');
  const ledger = new Ledger('d');
  for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204);
  assert.ok(await waitFor(async () => tsmFiles(srv.dir).length > 0 && (await flushes(srv)).ok > 0, 15_000), 'no flush');
  return { srv, ledger };
}

/**
 * Faults that hit the flush: while attached, bodies are written (answered 204 when the fault
 * spares the WAL, refused otherwise) and a flush fails; once detached a flush succeeds.
 */
async function flushFault(t: TestContext, name: string, spec: (srv: Server) => FaultSpec, walSpared: boolean, failedFlushes = 1): Promise<Fault> {
  let { srv, ledger } = await flushedServer(name);
  try {
    const before = await flushes(srv);
    const fault = await injectFault(srv, spec(srv), join(srv.dir, 'trace'));
    try {
      for (let i = 0; i < 2; i++) await ledger.write(srv);
      const failed = async () => (await flushes(srv)).failed - before.failed >= failedFlushes;
      assert.ok(await waitFor(failed, 15_000), `not ${failedFlushes} flushes failed under the fault (${fault.injected()} calls failed)`);
    } finally {
      await fault.stop();
    }
    t.diagnostic(`${fault.injected()} calls failed, e.g. ${fault.failedCalls()[0]?.replace(/\s+/g, ' ')}; answers under the fault: ${ledger.answers.slice(3).map((a) => a.status).join(',')}`);
    if (walSpared) assert.deepEqual(ledger.refusals(), [], 'a write was refused although only the flush failed');
    else for (const r of ledger.refusals()) assert.equal(r.status, 500, r.body);
    await ledger.check(srv, 'after the failed flush');
    const detached = await flushes(srv);
    for (let i = 0; i < 2; i++) assert.equal(await ledger.write(srv), 204, ledger.answers.at(-1)?.body);
    assert.ok(await waitFor(async () => (await flushes(srv)).ok > detached.ok, 15_000), 'no flush succeeded once the fault was gone');
    await ledger.check(srv, 'after a flush without the fault');
    srv = await restartAfterKill(srv, env, t, ledger);
    return fault;
  } finally {
    await stopServer(srv, 'SIGKILL');
  }
}

/** The one shard directory of database d (all points fall into one shard group). */
function shardDir(srv: Server): string {
  const rp = join(srv.dir, 'engine', 'd', 'autogen');
  return join(rp, readdirSync(rp).find((n) => !n.includes('.'))!);
}

describe('injected I/O faults: flush and compaction', { skip, timeout: 240_000 }, () => {
  after(() => removeDir(root));

  it('the TSM file fsync fails (EIO): the flush fails, the WAL stays, the next flush succeeds', async (t) => {
    await flushFault(t, 'tsm-fsync', () => ({ calls: ['fsync'], error: 'EIO' }), true);
  });

  it('the TSM file rename fails (EIO)', async (t) => {
    await flushFault(t, 'tsm-rename', () => ({ calls: ['rename'], error: 'EIO' }), true);
  });

  it('the flushed WAL segment cannot be removed (unlink EIO): the flush fails, a later one truncates the WAL', async (t) => {
    await flushFault(t, 'wal-unlink', (srv) => ({ calls: ['unlink'], error: 'EIO', paths: readdirSync(join(srv.dir, 'wal')).filter((n) => n.endsWith('.wal')).map((n) => join(srv.dir, 'wal', n)) }), true);
  });

  // pwrite64 only: write(2) also wakes libuv's event loop (an eventfd) and answers sockets, which
  // a full disk does not make fail. disk-full.test.ts fills a real tmpfs for the rest.
  it('every positioned file write fails (ENOSPC): writes are refused and the flush fails', async (t) => {
    await flushFault(t, 'enospc', () => ({ calls: ['pwrite64'], error: 'ENOSPC' }), false);
  });

  it('the series log write fails (EIO): its records are written by a later flush', async (t) => {
    await flushFault(t, 'series-write', (srv) => ({ calls: ['pwrite64'], error: 'EIO', paths: [join(srv.dir, 'engine', 'd', 'series.log')] }), true);
  });

  it('the series log fdatasync fails (EIO): its records are written again, not trusted', async (t) => {
    // Two flushes fail: the second must have written the records again before its fdatasync (a
    // log that dropped them after the first failure had nothing left to write or sync).
    const fault = await flushFault(t, 'series-sync', (srv) => ({ calls: ['fdatasync'], watch: ['pwrite64'], error: 'EIO', paths: [join(srv.dir, 'engine', 'd', 'series.log')] }), true, 2);
    const calls = fault.calls().filter((l) => /pwrite64|fdatasync/.test(l));
    const failed = calls.flatMap((l, i) => (l.includes('(INJECTED)') ? [i] : []));
    assert.ok(failed.length >= 2, calls.join('\n'));
    const offset = (l: string | undefined) => / (\d+)\) += \d+$/.exec(l ?? '')?.[1];
    const writes = calls.filter((l, i) => l.includes('pwrite64') && i > failed[0]! && i < failed[1]!);
    assert.equal(writes.length, 1, `between two failed fdatasyncs: ${writes.join(' | ')}`);
    assert.equal(offset(writes[0]), offset(calls.slice(0, failed[0]).findLast((l) => l.includes('pwrite64'))), 'the records were not written again at their offset');
  });

  it('a TSM block read fails (pread64 EIO): the query answers 500 naming the file, never a partial result', async () => {
    const { srv, ledger } = await flushedServer('read');
    try {
      const file = join(srv.dir, 'engine', tsmFiles(srv.dir)[0]!);
      const q = `/query?db=d&epoch=ms&q=${encodeURIComponent('SELECT v FROM m')}`;
      const { result, fault } = await withFault(srv, { calls: ['pread64'], error: 'EIO', paths: [file] }, () => http(srv.port, 'GET', q));
      assert.ok(fault.injected() > 0, 'the query did not read the file');
      assert.equal(result.status, 500, result.body.slice(0, 300));
      assert.match(result.body, /^\{"error":"cannot read .*\.tsm.*"\}\n?$/);
      // A failed read is not damage: the block is served again once the disk answers.
      await ledger.check(srv, 'after the failed read');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  });

  // Level-0 generations 1..3 exist; the fourth flush makes the compaction of 1..4 write
  // 000000004-000000002.tsm (planner.ts), which is where the fault is.
  const output = (srv: Server) => join(shardDir(srv), '000000004-000000002.tsm');
  const input = (srv: Server) => join(shardDir(srv), '000000001-000000001.tsm');
  const compactionFaults: [string, string, (srv: Server) => string[]][] = [
    ['fsync', 'the output fsync', (srv) => [`${output(srv)}.tmp`]],
    ['rename', 'the output rename', (srv) => [`${output(srv)}.tmp`, output(srv)]],
    ['unlink', 'the removal of an input', (srv) => [input(srv)]],
  ];
  for (const [call, what, paths] of compactionFaults) {
    it(`compaction: ${what} fails (EIO): inputs keep serving, nothing is lost or doubled after a restart`, async (t) => {
      let { srv, ledger } = await flushedServer(`compact-${call}`);
      try {
        for (let i = 2; i <= 3; i++) {
          assert.equal(await ledger.write(srv), 204);
          assert.ok(await waitFor(() => tsmFiles(srv.dir).length >= i, 15_000), `no level-0 file ${i}`);
        }
        assert.deepEqual(tsmFiles(srv.dir).map((f) => f.split('/').at(-1)).sort(), ['000000001-000000001.tsm', '000000002-000000001.tsm', '000000003-000000001.tsm']);
        const fault = await injectFault(srv, { calls: [call], error: 'EIO', paths: paths(srv) }, join(srv.dir, 'trace'));
        try {
          assert.equal(await ledger.write(srv), 204);
          assert.ok(await waitFor(() => fault.injected() > 0, 15_000), `the compaction did not reach ${what}: ${tsmFiles(srv.dir).join(' ')}`);
          await ledger.check(srv, 'after the failed compaction step');
        } finally {
          await fault.stop();
        }
        t.diagnostic(`${fault.failedCalls()[0]?.replace(/\s+/g, ' ')}; files: ${tsmFiles(srv.dir).map((f) => f.split('/').at(-1)).join(' ')}`);
        // An input whose removal failed is removed by the next compaction round once the disk
        // answers (it stayed beside the output before, and was merged into every read after a restart).
        if (call === 'unlink') assert.ok(await waitFor(() => !existsSync(input(srv)), 15_000), `the input is still there: ${tsmFiles(srv.dir).join(' ')}`);
        assert.equal(await ledger.write(srv), 204);
        await ledger.check(srv, 'after the fault');
        srv = await restartAfterKill(srv, env, t, ledger);
        // Without the fault the compaction goes through: one level-1 file holds generations 1..4.
        const compacted = () => tsmFiles(srv.dir).some((f) => f.endsWith('000000004-000000002.tsm')) && !existsSync(input(srv));
        assert.ok(await waitFor(compacted, 15_000), `no compaction after the restart: ${tsmFiles(srv.dir).join(' ')}`);
        await ledger.check(srv, 'after the compaction');
      } finally {
        await stopServer(srv, 'SIGKILL');
      }
    });
  }

  it('compaction: an input cannot be removed and the server is killed before the disk answers: the restart removes it, nothing lost or doubled', async (t) => {
    let { srv, ledger } = await flushedServer('compact-unlink-kill');
    try {
      for (let i = 2; i <= 4; i++) {
        const fault = i === 4 ? await injectFault(srv, { calls: ['unlink'], error: 'EIO', paths: [input(srv)] }, join(srv.dir, 'trace')) : undefined;
        assert.equal(await ledger.write(srv), 204);
        if (fault) {
          assert.ok(await waitFor(() => fault.injected() > 0 && existsSync(`${input(srv)}.obsolete`), 15_000), `the removal did not fail: ${tsmFiles(srv.dir).join(' ')}`);
          // Killed with the fault on: no later round got to retry.
          await stopServer(srv, 'SIGKILL');
          await fault.stop();
        } else {
          assert.ok(await waitFor(() => tsmFiles(srv.dir).length >= i, 15_000), `no level-0 file ${i}`);
        }
      }
      const files = tsmFiles(srv.dir).map((f) => f.split('/').at(-1)).sort();
      assert.deepEqual(files, ['000000001-000000001.tsm', '000000004-000000002.tsm'], 'the leftover sits beside the output before the restart');
      srv = await restartAfterKill(srv, env, t, ledger);
      assert.deepEqual(tsmFiles(srv.dir).map((f) => f.split('/').at(-1)), ['000000004-000000002.tsm'], 'the leftover was not removed at start-up');
      assert.equal(existsSync(`${input(srv)}.obsolete`), false, 'the marker is left');
      assert.match(srv.log(), /removed a TSM file a compaction replaced/);
      assert.equal(await ledger.write(srv), 204);
      await ledger.check(srv, 'after a write');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  });
});

// A skipped suite runs no after() hook: its directory goes here.
if (skip) removeDir(root);
