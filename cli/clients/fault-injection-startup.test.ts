/**
 * Injected I/O faults while a real `strata serve` starts (strace attached before its first
 * instruction, see startup-fault.ts) over a data directory a SIGKILL left behind: TSM files,
 * WAL segments not flushed yet, a series log, a catalog with a DELETE's tombstone. Each fault
 * lasts until the server answers /ping or exits. Rule for each: either it starts with every
 * acknowledged point there (and the deleted ones still hidden), or it refuses to start with
 * a non-zero exit, an error naming the file and the cause, and no listener left; and the clean
 * start that follows serves every acknowledged point once, with nothing left in temp files.
 * A start-up fault must never cost the next start anything (a WAL segment it could not read
 * cut or deleted, a TSM file it could not read moved away, the catalog's previous copy taken).
 */
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { exec, http, removeDir, startServer, stopServer, type Server } from './harness.js';
import { Ledger, straceUnusable, tempFiles, tsmFiles, waitFor, type FaultSpec } from './fault-injection.js';
import { startUnderFault } from './startup-fault.js';

const skip = straceUnusable();
const root = mkdtempSync(join(tmpdir(), 'strata-faults-startup-'));
// No flush while a faulted server runs: what it serves is what it recovered.
const env = { SERVICE__FLUSH__INTERVAL_SECS: '3600', SERVICE__DISK__ENABLED: 'false' };
const ledger = new Ledger('d');
const template = join(root, 'template');

/** Rows of measurement `gone`, which a DELETE emptied before the crash. */
async function goneRows(srv: Server): Promise<string> {
  const res = await http(srv.port, 'GET', `/query?db=d&q=${encodeURIComponent('SELECT * FROM gone')}`);
  assert.equal(res.status, 200, res.body);
  return res.body;
}

/** Everything acknowledged is served once (but the `lost` times), the deleted rows are not, no temp file is left. */
async function checkServed(srv: Server, when: string, lost?: ReadonlySet<number>): Promise<void> {
  await ledger.check(srv, when, lost);
  assert.doesNotMatch(await goneRows(srv), /"values"/, `${when}: deleted rows are back`);
  // A background save may be writing its temp file right now (the tombstone collection drops
  // the DELETE's marks on shards without hidden rows): a leftover is one still there a second later.
  const first = tempFiles(srv.dir);
  if (first.length > 0) await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(first.filter((f) => tempFiles(srv.dir).includes(f)), [], `${when}: temp files left`);
}

/** WAL segments of a data directory, full paths. */
function segments(dir: string): string[] {
  return readdirSync(join(dir, 'wal')).filter((n) => n.endsWith('.wal')).sort().map((n) => join(dir, 'wal', n));
}

/** What a faulted start must do: refuse with an error matching `refusal`, or (when `mayStart`) start with everything. */
interface Expected {
  readonly refusal?: RegExp;
  readonly mayStart?: boolean;
  /** Acknowledged points the damage destroyed: served by no start. */
  readonly lost?: ReadonlySet<number>;
  /** What the faulted start or the clean one after it must log (saying what it skipped). */
  readonly logged?: RegExp;
}

/**
 * A copy of the template directory, `damage` applied, started with `spec` failing; then the
 * check of the rule above and a clean start. Returns the refusal's last log line ('' when it
 * started).
 */
async function faultedStart(t: TestContext, name: string, spec: (dir: string) => FaultSpec, expected: Expected, damage?: (dir: string) => void, extraEnv: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  cpSync(template, dir, { recursive: true });
  damage?.(dir);
  const start = await startUnderFault(dir, { ...env, ...extraEnv }, spec(dir));
  const first = start.server;
  let refusal = '';
  try {
    t.diagnostic(`${start.fault.injected()} calls failed, e.g. ${start.fault.failedCalls()[0]?.replace(/\s+/g, ' ')}`);
    if (first) {
      t.diagnostic('started under the fault');
      assert.ok(expected.mayStart, `started although it should have refused:\n${start.log().slice(-2000)}`);
      await checkServed(first, 'started under the fault', expected.lost);
    } else {
      const lastLine = start.log().trim().split('\n').at(-1) ?? '';
      t.diagnostic(`refused: exit ${start.exit?.code ?? start.exit?.signal}: ${lastLine}`);
      assert.ok(start.fault.injected() > 0, `nothing failed, yet the server did not start:\n${start.log().slice(-3000)}`);
      assert.ok(expected.refusal, `refused to start:\n${start.log().slice(-3000)}`);
      assert.equal(start.exit?.code, 1, start.log().slice(-2000));
      assert.equal(start.listened, false, 'a refused start left a listener');
      assert.match(lastLine, expected.refusal);
      refusal = lastLine;
    }
  } finally {
    if (first) await stopServer(first, 'SIGKILL');
  }
  const again = await startServer({ dir, env });
  try {
    await checkServed(again, 'the clean start after the faulted one', expected.lost);
    if (expected.logged) assert.match(start.log() + again.log(), expected.logged, 'neither start said what it skipped');
    assert.equal((await http(again.port, 'POST', '/write?db=d', 'after v=1 1')).status, 204);
  } finally {
    await stopServer(again, 'SIGKILL');
  }
  removeDir(dir);
  return refusal;
}

/** Regular files of a data directory (what start-up reads), full paths. */
function dataFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== 'trace')
    .map((e) => join(e.parentPath, e.name));
}

/** One kind of call failing at start-up, the Kth alone for each K a clean start reaches. */
interface Sweep {
  readonly call: string;
  readonly error: string;
  /** Texts some refusal of the sweep must have said: the sweep reached those files. */
  readonly named: readonly RegExp[];
  readonly damage?: (dir: string) => void;
  /** With `damage`: acknowledged points it destroyed, and what a start must log about it. */
  readonly lost?: ReadonlySet<number>;
  readonly logged?: RegExp;
}

// File system calls at start-up run on libuv's pool: with one thread, strace's per-thread count says which call is the Kth.
const ONE_POOL_THREAD = { UV_THREADPOOL_SIZE: '1' };

async function sweep(t: TestContext, s: Sweep): Promise<void> {
  const n = await countCalls(`count-${s.call}`, s);
  t.diagnostic(`a clean start makes ${n} ${s.call} calls`);
  const refusals: string[] = [];
  const cause = new RegExp(`(\\.wal|\\.tsm|series\\.log|catalog\\.json|fields\\.json|LOCK).*: ${s.error}`);
  for (let k = 1; k <= n; k++) {
    const spec = (dir: string): FaultSpec => ({ calls: [s.call], error: s.error, when: String(k), ...(s.damage ? {} : { paths: dataFiles(dir) }) });
    const expected: Expected = { refusal: cause, mayStart: true, ...(s.lost && { lost: s.lost }), ...(s.logged && { logged: s.logged }) };
    refusals.push(await faultedStart(t, `${s.call}-${k}`, spec, expected, s.damage, ONE_POOL_THREAD));
  }
  for (const re of s.named) assert.ok(refusals.some((r) => re.test(r)), `no refusal said ${re}: ${refusals.join(' | ')}`);
}

/** How many `s.call`s a clean start makes (on the data files, for reads), on a copy of the template under `name`. */
async function countCalls(name: string, s: Sweep): Promise<number> {
  const dir = join(root, name);
  cpSync(template, dir, { recursive: true });
  s.damage?.(dir);
  const start = await startUnderFault(dir, { ...env, ...ONE_POOL_THREAD }, { calls: [s.call], error: s.error, when: '65535', ...(s.damage ? {} : { paths: dataFiles(dir) }) });
  if (start.server) await stopServer(start.server, 'SIGKILL');
  assert.ok(start.server, start.log());
  const n = start.fault.calls().filter((l) => new RegExp(`^\\d+\\s+${s.call}\\(`).test(l)).length;
  removeDir(dir);
  return n;
}

describe('injected I/O faults during start-up', { skip, timeout: 480_000 }, () => {
  // The data directory of a crash: flushed files, a tombstone, then acknowledged points only in the WAL.
  before(async () => {
    let srv = await startServer({ dir: mkdtempSync(join(root, 'template-')), env: { ...env, SERVICE__FLUSH__INTERVAL_SECS: '1' } });
    try {
      await exec(srv.port, 'CREATE DATABASE d');
      for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204);
      assert.equal((await http(srv.port, 'POST', '/write?db=d', 'gone,k=a v=1 1\ngone,k=b v=2 2')).status, 204);
      assert.ok(await waitFor(() => tsmFiles(srv.dir).length > 0, 15_000), 'no flush');
      await exec(srv.port, 'DELETE FROM gone', { db: 'd' });
      for (let i = 0; i < 2; i++) assert.equal(await ledger.write(srv), 204);
      assert.ok(await waitFor(() => tsmFiles(srv.dir).length > 1, 15_000), 'no second flush');
      await stopServer(srv, 'SIGKILL');
      srv = await startServer({ dir: srv.dir, env });
      for (let i = 0; i < 3; i++) assert.equal(await ledger.write(srv), 204);
      await checkServed(srv, 'the template');
    } finally {
      await stopServer(srv, 'SIGKILL');
    }
    cpSync(srv.dir, template, { recursive: true });
    removeDir(srv.dir);
  });
  after(() => removeDir(root));

  // Each read of start-up fails alone in turn (the Kth positional read, then the Kth read(2)):
  // WAL segment checks and both replay passes, TSM headers, footers and indexes, the lock,
  // catalog, series log and shard field sets. Whichever it hits, the rule holds. Before, a TSM
  // file that failed a read was left unserved while the server started without its points.
  const reads: Sweep[] = [
    { call: 'pread64', error: 'EIO', named: [/cannot open the WAL segment/, /cannot read the WAL segment/, /cannot read .*\.tsm at \d+/] },
    { call: 'read', error: 'EIO', named: [/cannot lock .*LOCK/, /cannot read the catalog .*catalog\.json/, /cannot open the series log/] },
  ];
  for (const s of reads) it(`each ${s.call} of the data files failing alone (${s.error}): refused naming the file, or started with everything`, (t) => sweep(t, s));

  // What recovery writes, each call failing alone in turn: the takeover of the stale lock, the
  // cut of a torn WAL tail (an append the crash cut short), the quarantine copy and cut of a
  // damaged series log tail (a record the crash cut short).
  const damaged = (dir: string) => {
    appendFileSync(segments(dir).at(-1)!, Buffer.from([0x57, 0x41, 0x4c, 0x52, 0, 0]));
    appendFileSync(join(dir, 'engine', 'd', 'series.log'), Buffer.from([9, 0, 0, 0, 1, 2, 3]));
  };
  const writes: Sweep[] = [
    { call: 'fsync', error: 'EIO', named: [/cannot lock .*LOCK/, /cannot open the series log/], damage: damaged },
    { call: 'fdatasync', error: 'ENOSPC', named: [/cannot open the WAL segment/], damage: damaged },
    { call: 'ftruncate', error: 'EIO', named: [/cannot open the WAL segment/, /cannot open the series log/], damage: damaged },
    { call: 'rename', error: 'ENOSPC', named: [/cannot open the series log/], damage: damaged },
    { call: 'unlink', error: 'EIO', named: [/cannot lock .*LOCK/], damage: damaged },
  ];
  for (const s of writes) it(`each ${s.call} of start-up failing alone (${s.error}), over a torn WAL tail and series log: refused naming the file, or started with everything`, (t) => sweep(t, s));

  // A WAL segment damaged in the middle (not a torn tail: a record failing its checksum with
  // intact records after it), and each call of its repair failing alone in turn: the copy of
  // the bad bytes to quarantine and the rewrite of the segment without them (fsync, rename,
  // directory fsync; a failed write takes the failed fsync's path in fs/atomic.ts). Rule: a
  // start serves every acknowledged point but the damaged record's and logs what it moved
  // aside, or refuses naming the segment and the cause; a half-done repair never blocks the
  // next start nor costs it the records after the damage.
  const lostBody = 6; // logged after the restart that made the template, not flushed
  const middle = (dir: string) => corruptRecordOf(dir, lostBody);
  const skipped = /WAL corruption: unreadable bytes moved to quarantine.* lostSeqs=\d+ /;
  const repairs: Sweep[] = [
    { call: 'rename', error: 'EIO', named: [/cannot open the WAL segment/] },
    { call: 'fsync', error: 'EIO', named: [/cannot open the WAL segment/] },
  ].map((s) => ({ ...s, damage: middle, lost: ledger.bodyTimes(lostBody), logged: skipped }));
  for (const s of repairs) it(`each ${s.call} of start-up failing alone (${s.error}), over a WAL record corrupted mid-segment: its points skipped and said so, or refused naming the segment`, (t) => sweep(t, s));
});

/**
 * Flip a byte of body `body`'s line protocol in its WAL record (a checksum failure), checking
 * that an intact record of a later body follows it in the same segment.
 */
function corruptRecordOf(dir: string, body: number): void {
  for (const seg of segments(dir)) {
    const bytes = readFileSync(seg);
    const at = bytes.indexOf(`m,b=${ledger.bodyTag(body)} v=`);
    if (at < 0) continue;
    assert.ok(bytes.indexOf(`m,b=${ledger.bodyTag(body + 1)} v=`, at) > at, `no record after body ${body} in ${seg}`);
    bytes.writeUInt8(bytes.readUInt8(at + 2) ^ 0x20, at + 2); // 'b' -> 'B': still text, no longer the checksummed bytes
    writeFileSync(seg, bytes);
    return;
  }
  throw new Error(`body ${body} is not in the WAL of ${dir}`);
}

// A skipped suite runs no after() hook: its directory goes here.
if (skip) removeDir(root);
