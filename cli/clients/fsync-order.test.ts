/**
 * What SIGKILL tests cannot show: that acknowledged data survives a power loss, where the page
 * cache is lost too. A real `strata serve` runs under strace and its file-system calls are
 * checked for the orderings durability rests on:
 *   - every 204 of /write is sent after the WAL bytes written before it were fdatasynced;
 *   - CREATE DATABASE, DELETE, DROP SERIES and CREATE RETENTION POLICY are answered after their
 *     new catalog was renamed into place and its directory fsynced;
 *   - a compaction removes its inputs only after its outputs' names are durable;
 *   - every directory and file the server creates under its directories gets its entry
 *     fsynced in the parent directory (an fsync of the file does not persist the entry) before
 *     a flush removes the WAL segment that could have replayed it, and in any case later.
 * Skipped when strace is not installed (`.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { executable, exec, freePort, http, MAIN, removeDir, serverEnv } from './harness.js';

const STRACE = '/usr/bin/strace';
const CALLS = 'openat,mkdir,mkdirat,rename,renameat,renameat2,fsync,fdatasync,close,pwrite64,write,writev,sendto,sendmsg,unlink,unlinkat';

interface Call {
  readonly name: string;
  readonly args: string;
  readonly ret: string;
}

/** The calls of a `strace -f` log in order, unfinished/resumed pairs joined. */
function parseTrace(text: string): Call[] {
  const calls: Call[] = [];
  const open = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, tid, rest] = m as unknown as [string, string, string];
    let body = rest;
    const unfinished = / <unfinished \.\.\.>$/.exec(body);
    if (unfinished) {
      open.set(tid, body.slice(0, unfinished.index));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(body);
    if (resumed) {
      body = (open.get(tid) ?? '') + resumed[1];
      open.delete(tid);
    }
    const call = /^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)/.exec(body);
    if (call) calls.push({ name: call[1]!, args: call[2]!, ret: call[3]! });
  }
  return calls;
}

/** Resolves once process `pid` no longer exists (at most 10 s). */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 200 && pid > 0; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`the traced server ${pid} is still running`);
}

const firstString = (args: string): string | undefined => /"((?:[^"\\]|\\.)*)"/.exec(args)?.[1];
const strings = (args: string): string[] => [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);

describe('fsync ordering under strace (what a power loss would need)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-fsync-'));
  after(() => (process.env.KEEP_TRACE ? undefined : removeDir(dir)));

  it('204s follow the WAL fdatasync; every created entry is fsynced in its directory before the WAL lets go', { skip: !executable(STRACE) && 'strace is not installed' }, async () => {
    const port = await freePort();
    const trace = join(dir, 'trace');
    const data = join(dir, 'srv');
    const env = serverEnv(data, port, { SERVICE__FLUSH__INTERVAL_SECS: '1', SERVICE__LOGGING__LEVEL: 'warn' });
    // Its own process group: killing strace alone would detach the server and leave it running.
    const child = spawn(STRACE, ['-f', '-qq', '-s', '24', '-o', trace, '-e', `trace=${CALLS}`, process.execPath, MAIN, 'serve'], { cwd: dir, env, stdio: 'ignore', detached: true });
    const exited = new Promise((ok) => child.on('exit', ok));
    try {
      for (let i = 0; i < 300; i++) {
        const ok = await http(port, 'GET', '/ping', undefined, {}, 1000).then((r) => r.status === 204, () => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await exec(port, 'CREATE DATABASE d');
      // Two shard groups, a new series each time, one request at a time.
      for (let i = 0; i < 6; i++) {
        const res = await http(port, 'POST', '/write?db=d&precision=s', `m,host=h${i} v=${i} ${1_700_000_000 + (i % 2) * 8 * 86_400}`);
        assert.equal(res.status, 204, res.body);
      }
      // One new point a second into one shard: level-0 files that a compaction merges, whose
      // inputs it then deletes.
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 1100));
        const res = await http(port, 'POST', '/write?db=d&precision=s', `m,host=c v=${i} ${1_700_000_100 + i}`);
        assert.equal(res.status, 204, res.body);
      }
      // Statements that change the catalog (a DELETE's tombstone is kept there).
      for (const q of ["DELETE FROM m WHERE host = 'h0'", "DROP SERIES FROM m WHERE host = 'h1'", 'CREATE RETENTION POLICY r ON d DURATION 2h REPLICATION 1']) await exec(port, q, { db: 'd' });
      // Until a flush freed a WAL segment and a compaction removed its inputs (later on a busy machine).
      const removed = (ext: string) => new RegExp(`unlink(at)?\\([^)]*\\${ext}"`).test(readFileSync(trace, 'utf8'));
      for (let waited = 0; waited < 30_000 && !(removed('.wal') && removed('.tsm')); waited += 500) await new Promise((r) => setTimeout(r, 500));
    } finally {
      // The traced server first, and strace left to exit on its own: strace buffers its log, and
      // a SIGKILL of strace lost the last lines (the last DDL answer, under load).
      const server = Number(/^(\d+) /.exec(readFileSync(trace, 'utf8'))?.[1]);
      if (server > 0) process.kill(server, 'SIGKILL');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      await gone(server);
    }
    const calls = parseTrace(readFileSync(trace, 'utf8'));
    const fds = new Map<string, string>();
    let walFd: string | undefined;
    let walDirty = false;
    const created: { path: string; at: number }[] = [];
    const synced: { path: string; at: number }[] = [];
    let walRemovedAt = Infinity;
    let acks = 0;
    // The last 204, DDL answer or WAL segment removal: what relies on entries created before it.
    let lastReliedAt = -1;
    let walWrites = 0;
    const ddlAnswers: number[] = [];
    let tsmRemoved = 0;
    calls.forEach((c, at) => {
      const fdArg = c.args.split(',')[0]!.trim();
      switch (c.name) {
        case 'openat': {
          const path = firstString(c.args);
          if (!path || c.ret.startsWith('-')) return;
          fds.set(c.ret, path);
          // A segment is written through the fd of its `.wal.tmp` name, renamed once set up.
          if ((path.endsWith('.wal') || path.endsWith('.wal.tmp')) && /O_WRONLY|O_RDWR/.test(c.args)) walFd = c.ret;
          if (c.args.includes('O_CREAT') && path.startsWith(data) && !path.endsWith('.tmp') && !path.endsWith('/LOCK')) created.push({ path, at });
          return;
        }
        case 'mkdir':
        case 'mkdirat': {
          const path = strings(c.args)[0];
          if (path && c.ret === '0' && path.startsWith(data)) created.push({ path, at });
          return;
        }
        case 'rename':
        case 'renameat':
        case 'renameat2': {
          const to = strings(c.args)[1];
          if (to && c.ret === '0' && to.startsWith(data)) created.push({ path: to, at });
          return;
        }
        case 'fsync':
        case 'fdatasync': {
          const path = fds.get(fdArg);
          if (path) synced.push({ path, at });
          if (fdArg === walFd) walDirty = false;
          return;
        }
        case 'pwrite64':
        case 'write':
        case 'writev':
          if (fdArg === walFd) {
            walDirty = true;
            walWrites++;
          }
          return;
        case 'sendto':
        case 'sendmsg':
          // The run's 200s answer its catalog changes: each must follow a new catalog, published
          // (renamed into place, its directory fsynced) after the answer before it.
          if (c.args.includes('HTTP/1.1 200')) {
            const since = ddlAnswers[ddlAnswers.length - 1] ?? -1;
            const published = created.findLast((e) => e.path.endsWith('/catalog.json') && e.at > since);
            const dirSynced = published && synced.some((s) => s.at > published.at && s.path === dirname(published.path));
            assert.ok(dirSynced, `statement ${ddlAnswers.length} answered (call ${at}) before its catalog was renamed into place and its directory fsynced`);
            ddlAnswers.push(at);
            lastReliedAt = at;
          }
          if (c.args.includes('HTTP/1.1 204')) {
            acks++;
            lastReliedAt = at;
            assert.equal(walDirty, false, `a 204 went out (call ${at}) before the WAL bytes written before it were fdatasynced`);
          }
          return;
        case 'unlink':
        case 'unlinkat': {
          const path = strings(c.args)[0];
          if (path?.endsWith('.wal') && c.ret === '0') {
            if (walRemovedAt === Infinity) walRemovedAt = at;
            lastReliedAt = at;
          }
          if (path?.endsWith('.tsm') && c.ret === '0') {
            // A compaction's inputs go only once its outputs' names are durable.
            tsmRemoved++;
            const d = dirname(path);
            const unsynced = created.filter((e) => e.path.endsWith('.tsm') && dirname(e.path) === d && !synced.some((x) => x.path === d && x.at > e.at && x.at < at));
            assert.deepEqual(unsynced.map((e) => e.path.slice(data.length)), [], `${path.slice(data.length)} removed (call ${at}) before these were durable in its directory`);
          }
          return;
        }
        case 'close':
          fds.delete(fdArg);
          return;
      }
    });
    assert.ok(acks >= 6 && walWrites >= 6, `saw ${acks} 204s and ${walWrites} WAL writes in the trace`);
    const answers = calls.filter((c) => c.name === 'sendto' || c.name === 'sendmsg').map((c) => c.args.slice(0, 40));
    assert.equal(ddlAnswers.length, 4, `saw the answers to CREATE DATABASE, DELETE, DROP SERIES and CREATE RETENTION POLICY; answers sent: ${answers.join(' | ')}`);
    assert.ok(tsmRemoved > 0, 'a compaction removed its input files within the run');
    assert.ok(walRemovedAt < Infinity, 'a flush removed a WAL segment within the run');
    assert.ok(created.some((e) => e.path.endsWith('series.log')) && created.some((e) => e.path.endsWith('.tsm')), 'the run created a series log and TSM files');
    // An entry whose directory was never fsynced is late only when something relied on it: the
    // end-of-run SIGKILL can land between a new WAL segment's rename and its directory's fsync.
    const late = created.filter((e) => {
      const parent = dirname(e.path);
      const sync = synced.find((s) => s.at > e.at && s.path === parent);
      return sync === undefined ? e.at < lastReliedAt : e.at < walRemovedAt && sync.at > walRemovedAt;
    });
    assert.deepEqual(late.map((e) => e.path.slice(data.length)), [], 'entries not fsynced in their directory (in time)');
  });
});
