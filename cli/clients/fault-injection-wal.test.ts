/**
 * Injected I/O faults on the write path of a real `strata serve` (strace attached, see
 * fault-injection.ts): the WAL append and its fdatasync, and the catalog file behind DDL.
 * For each fault: the request that hit it is not acknowledged (500 with a 1.x-style
 * `{"error": ...}`), points acknowledged before stay queryable, writes succeed again once the
 * fault is gone, and after a SIGKILL the restart (fault gone) finds every acknowledged point
 * once, and no temp file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { exec, http, removeDir, startServer, stopServer } from './harness.js';
import { injectFault, Ledger, restartAfterKill, straceUnusable, withFault, type FaultSpec } from './fault-injection.js';

const skip = straceUnusable();
const root = mkdtempSync(join(tmpdir(), 'strata-faults-wal-'));
// No flush during the fault: only the WAL is written.
const env = { SERVICE__FLUSH__INTERVAL_SECS: '3600', SERVICE__DISK__ENABLED: 'false' };
const ERROR_BODY = /^\{"error":".+"\}\n?$/;

/** A WAL fault while bodies are written: refused, then writes resume once it is gone. */
/** Returns how many refused points the restart served. */
async function walFault(t: TestContext, name: string, spec: FaultSpec, expectText: RegExp, failingWrites: number): Promise<number> {
  let srv = await startServer({ dir: mkdtempSync(join(root, `${name}-`)), env });
  try {
    await exec(srv.port, 'CREATE DATABASE d');
    const ledger = new Ledger('d');
    for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204);
    const fault = await injectFault(srv, spec, join(srv.dir, 'trace'));
    try {
      for (let i = 0; i < failingWrites; i++) await ledger.write(srv);
    } finally {
      await fault.stop();
    }
    assert.ok(fault.injected() > 0, 'no call failed: the fault missed the WAL');
    const refused = ledger.refusals();
    assert.equal(refused.length, failingWrites, `answers under the fault: ${ledger.answers.map((a) => a.status).join(',')}`);
    for (const r of refused) {
      assert.equal(r.status, 500, r.body);
      assert.match(r.body, ERROR_BODY);
      assert.match(r.body, expectText);
    }
    t.diagnostic(`${fault.injected()} calls failed; answer: ${refused[0]?.body.trim()}`);
    // Points are applied only once their WAL entry is durable: a refused body is not visible.
    assert.equal((await ledger.check(srv, 'while the server runs, after the fault')).refusedStored, 0, 'refused points are served');
    for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204, ledger.answers.at(-1)?.body);
    await ledger.check(srv, 'writes after the fault');
    srv = await restartAfterKill(srv, env, t, ledger);
    const { refusedStored } = await ledger.check(srv, 'after the restart');
    assert.equal(await ledger.write(srv), 204);
    await ledger.check(srv, 'a write after the restart');
    return refusedStored;
  } finally {
    await stopServer(srv, 'SIGKILL');
  }
}

describe('injected I/O faults: WAL and catalog', { skip, timeout: 180_000 }, () => {
  after(() => removeDir(root));

  it('fdatasync of the WAL fails (EIO): 500, never retried into a 204', async (t) => {
    await walFault(t, 'fdatasync', { calls: ['fdatasync'], error: 'EIO' }, /EIO|i\/o error/i, 3);
  });

  it('the WAL write fails (ENOSPC): 500 naming the cause', async (t) => {
    await walFault(t, 'enospc', { calls: ['pwrite64'], error: 'ENOSPC' }, /ENOSPC|no space/i, 3);
  });

  // Cutting the failed bytes off fails too: they stay in the old segment, which is no longer
  // appended to, and the writer cancels them with the next append (before: all came back after
  // the restart, points the client had been told were not written).
  it('fdatasync fails and so does cutting the failed bytes off (ftruncate EIO): the refused bodies stay refused', async (t) => {
    const refusedStored = await walFault(t, 'cut', { calls: ['fdatasync', 'ftruncate'], error: 'EIO' }, /EIO|i\/o error/i, 3);
    assert.equal(refusedStored, 0, 'refused bodies came back after the restart');
  });

  // After a failed group the writer moves to a new segment; here that fails too, at every try.
  it('fdatasync fails and so does the roll to a new segment (fsync EIO)', async (t) => {
    await walFault(t, 'roll-fsync', { calls: ['fdatasync', 'fsync'], error: 'EIO' }, /EIO|i\/o error/i, 3);
  });

  it('the WAL write fails and so does creating the next segment (pwrite64, openat ENOSPC)', async (t) => {
    await walFault(t, 'roll-open', { calls: ['pwrite64', 'openat'], error: 'ENOSPC' }, /ENOSPC|no space/i, 3);
  });

  it('the active WAL segment fails its fdatasync (EIO): that write is refused, the writer moves to a new segment and goes on', async (t) => {
    let srv = await startServer({ dir: mkdtempSync(join(root, 'once-')), env });
    try {
      await exec(srv.port, 'CREATE DATABASE d');
      const ledger = new Ledger('d');
      for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204);
      // Only the segment now appended to fails: after a failed fdatasync the writer must not
      // trust that file again (fsyncgate), and a new segment works.
      const segment = join(srv.dir, 'wal', readdirSync(join(srv.dir, 'wal')).filter((n) => n.endsWith('.wal')).sort().at(-1)!);
      const fault = await injectFault(srv, { calls: ['fdatasync'], error: 'EIO', paths: [segment] }, join(srv.dir, 'trace'));
      try {
        assert.equal(await ledger.write(srv), 500, ledger.answers.at(-1)?.body);
        for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204, ledger.answers.at(-1)?.body);
      } finally {
        await fault.stop();
      }
      t.diagnostic(`failed calls on ${segment}: ${fault.failedCalls().join(' | ')}`);
      assert.ok(fault.injected() >= 1);
      await ledger.check(srv, 'after one failed fdatasync');
      srv = await restartAfterKill(srv, env, t, ledger);
      const refusedStored = (await ledger.check(srv, 'again')).refusedStored;
      assert.equal(refusedStored, 0, 'the refused body came back after the restart');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  });

  // A body with a refused line is logged whole, then cancelled (its kept points get a record of
  // their own). Here the body's record is synced and every fdatasync after it fails: the
  // cancel, and the engine's second try of it. The body is answered 500 and was never applied;
  // its record must not come back at a restart either.
  it("the cancel record of a partly refused body cannot be synced (fdatasync EIO): the body stays refused after a restart", async (t) => {
    let srv = await startServer({ dir: mkdtempSync(join(root, 'cancel-')), env: { ...env, UV_THREADPOOL_SIZE: '1' } });
    try {
      await exec(srv.port, 'CREATE DATABASE d');
      const ledger = new Ledger('d');
      for (let i = 0; i < 2; i++) assert.equal(await ledger.write(srv), 204);
      assert.equal((await http(srv.port, 'POST', '/write?db=d', 'p,b=x v=1.5 1')).status, 204);
      // One thread makes the file system calls: the body's record is its first fdatasync.
      const { result: partial, fault } = await withFault(srv, { calls: ['fdatasync'], error: 'EIO', when: '2+' }, () =>
        http(srv.port, 'POST', '/write?db=d', 'p,b=x v=2.5 2\np,b=x v="text" 3'),
      );
      t.diagnostic(`${fault.injected()} calls failed; the partly refused body: ${partial.status} ${partial.body.trim()}`);
      assert.ok(fault.injected() >= 2, fault.calls().join('\n'));
      assert.equal(partial.status, 500, partial.body);
      const served = async (when: string) => {
        const res = await http(srv.port, 'GET', `/query?db=d&epoch=ns&q=${encodeURIComponent('SELECT v FROM p')}`);
        assert.equal(res.status, 200, res.body);
        assert.match(res.body, /"values":\[\[1,1\.5\]\]/, `${when}: ${res.body}`);
      };
      await served('while running');
      for (let i = 0; i < 2; i++) assert.equal(await ledger.write(srv), 204, ledger.answers.at(-1)?.body);
      srv = await restartAfterKill(srv, env, t, ledger);
      await served('after the restart');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  });

  it("the database's directory cannot be created (mkdir EIO): writes to it are refused until it can", async (t) => {
    let srv = await startServer({ dir: mkdtempSync(join(root, 'mkdir-')), env });
    try {
      const { result, fault } = await withFault(srv, { calls: ['mkdir'], error: 'EIO', paths: [join(srv.dir, 'engine', 'e')] }, async () => ({
        created: await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE e')}`),
        write: await http(srv.port, 'POST', '/write?db=e', 'm,b=x v=1 1'),
      }));
      const { created, write } = result;
      t.diagnostic(`${fault.injected()} calls failed; CREATE DATABASE: ${created.status} ${created.body.trim()}; write: ${write.status} ${write.body.trim()}`);
      assert.ok(fault.injected() > 0, 'the fault missed the database directory');
      assert.notEqual(write.status, 204, 'a write acknowledged without storage for its database');
      assert.equal(write.status, 500, write.body);
      assert.match(write.body, ERROR_BODY);
      assert.match(write.body, /cannot open the storage of database .*engine\/e/);
      // The cause is the mkdir's EIO (Node's recursive mkdir reported ENOENT for it: fs/atomic.ts probes each part).
      assert.match(write.body, /EIO: i\/o error, mkdir/);
      assert.doesNotMatch(write.body, /ENOENT/);
      if (created.status !== 200) await exec(srv.port, 'CREATE DATABASE e');
      const ledger = new Ledger('e');
      for (let i = 0; i < 2; i++) assert.equal(await ledger.write(srv), 204, ledger.answers.at(-1)?.body);
      srv = await restartAfterKill(srv, env, t, ledger);
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
  });

  for (const call of ['fsync', 'rename'] as const) {
    it(`the catalog save fails (${call} EIO): CREATE DATABASE reports the error and the database does not take writes`, async (t) => {
      let srv = await startServer({ dir: mkdtempSync(join(root, `meta-${call}-`)), env });
      try {
        await exec(srv.port, 'CREATE DATABASE d');
        const ledger = new Ledger('d');
        assert.equal(await ledger.write(srv), 204);
        const catalog = join(srv.dir, 'meta', 'catalog.json');
        const { result, fault } = await withFault(srv, { calls: [call], error: 'EIO', paths: [catalog, `${catalog}.tmp`] }, async () => ({
          answer: await http(srv.port, 'POST', `/query?q=${encodeURIComponent('CREATE DATABASE e')}`),
          write: await http(srv.port, 'POST', '/write?db=e', 'm v=1 1'),
        }));
        const { answer, write } = result;
        assert.ok(fault.injected() > 0, 'the catalog save did not hit the fault');
        t.diagnostic(`CREATE DATABASE under the fault: ${answer.status} ${answer.body.trim()}`);
        assert.equal(answer.status, 500, answer.body);
        assert.match(answer.body, ERROR_BODY);
        assert.match(answer.body, /cannot save the catalog .*EIO/);
        assert.equal(write.status, 404, `a write to the database whose creation failed: ${write.status} ${write.body}`);
        assert.equal(await ledger.write(srv), 204);
        await exec(srv.port, 'CREATE DATABASE e');
        assert.equal((await http(srv.port, 'POST', '/write?db=e', 'm v=1 1')).status, 204);
        srv = await restartAfterKill(srv, env, t, ledger);
        const e = await http(srv.port, 'GET', `/query?db=e&q=${encodeURIComponent('SELECT v FROM m')}`);
        assert.match(e.body, /"values":\[\["1970-01-01T00:00:00\.000000001Z",1\]\]/, e.body);
      } finally {
        await stopServer(srv, 'SIGKILL');
      }
    });
  }
});

// A skipped suite runs no after() hook: its directory goes here.
if (skip) removeDir(root);
