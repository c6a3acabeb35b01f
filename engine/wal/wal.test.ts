import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageIoError } from '../errors.js';
import { collectingLogger, silentLogger } from '../logger.js';
import { fixtureEntry } from './crash-writer.fixture.js';
import type { WalWriteAppend, WalWriteEntry } from './record.js';
import { defaultSegmentIo } from './segment.js';
import type { SegmentIo } from './segment.js';
import { Wal } from './wal.js';
import { tempDir, type CleanupScope } from '../testing/temp-dir.js';

const walDir = (t: CleanupScope) => tempDir(t, 'strata-wal-');

async function collect(it: AsyncIterable<WalWriteEntry>): Promise<WalWriteEntry[]> {
  const out: WalWriteEntry[] = [];
  for await (const e of it) out.push(e);
  return out;
}

function assertEntry(actual: WalWriteEntry | undefined, seq: bigint, expected: WalWriteAppend): void {
  assert.ok(actual, `entry ${seq} missing`);
  assert.equal(actual.seq, seq);
  assert.deepEqual({ ...actual, lines: Buffer.from(actual.lines) }, { ...expected, seq, lines: Buffer.from(expected.lines) });
}

const problems = (log: ReturnType<typeof collectingLogger>) => log.entries.filter((e) => e.level === 'warn' || e.level === 'error');

test('group commit: 1000 concurrent appends share few fdatasyncs; seqs follow call order; replay returns all', async (t) => {
  const dir = await walDir(t);
  const log = collectingLogger();
  const wal = await Wal.open(dir, {}, log);
  const entries = Array.from({ length: 1000 }, (_, i) => fixtureEntry(i, 20 + (i % 300)));
  const seqs = await Promise.all(entries.map((e) => wal.append(e)));
  assert.deepEqual(seqs, entries.map((_, i) => BigInt(i + 1)), 'seqs assigned in append order');
  assert.ok(wal.syncCount >= Math.ceil(1000 / 64), `at most 64 entries per group (${wal.syncCount} syncs)`);
  assert.ok(wal.syncCount <= 100, `expected far fewer syncs than appends, got ${wal.syncCount}`);
  assert.equal(wal.lastSeq, 1000n);
  const replayed = await collect(wal.replay());
  assert.equal(replayed.length, 1000);
  replayed.forEach((e, i) => assertEntry(e, BigInt(i + 1), entries[i] as WalWriteAppend));
  await wal.close();
  assert.deepEqual(problems(log), []);
});

test('replay skips write records that a later cancel names, across segments and reopen', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir, { segmentSizeBytes: 4096 });
  const entries = Array.from({ length: 40 }, (_, i) => fixtureEntry(i, 300));
  const seqs = await Promise.all(entries.map((e) => wal.append(e)));
  // Cancels of seqs 3 and 17 land segments after them; one of a seq the WAL never held is harmless.
  assert.equal(await wal.append({ cancels: 3n }), 41n);
  await wal.append(fixtureEntry(99, 300));
  await wal.append({ cancels: 17n });
  await wal.append({ cancels: 1000n });
  assert.ok(wal.segmentCount > 2);
  const kept = (await collect(wal.replay())).map((e) => e.seq);
  const want = [...seqs.filter((s) => s !== 3n && s !== 17n), 42n];
  assert.deepEqual(kept, want);
  await wal.close();
  const reopened = await Wal.open(dir, {});
  assert.deepEqual((await collect(reopened.replay())).map((e) => e.seq), want);
  assert.equal(reopened.lastSeq, 44n, 'cancel records count as seqs');
  await reopened.close();
});

test('batchSize 0 disables batching: one fdatasync per append', async (t) => {
  const wal = await Wal.open(await walDir(t), { batchSize: 0 });
  const seqs = await Promise.all(Array.from({ length: 50 }, (_, i) => wal.append(fixtureEntry(i, 100))));
  assert.deepEqual(seqs, Array.from({ length: 50 }, (_, i) => BigInt(i + 1)));
  assert.equal(wal.syncCount, 50);
  await wal.close();
});

test('a group never holds more bytes than a segment, so concurrent large appends keep segments near the roll size', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir, { segmentSizeBytes: 64 * 1024 });
  const seqs = await Promise.all(Array.from({ length: 50 }, (_, i) => wal.append(fixtureEntry(i, 10_000))));
  assert.equal(seqs.at(-1), 50n);
  assert.ok(wal.syncCount >= 8, `50 x 10 kB cannot fit in fewer than 8 groups of 64 KiB (${wal.syncCount})`);
  for (const n of (await readdir(dir)).filter((f) => f.endsWith('.wal'))) {
    assert.ok((await stat(join(dir, n))).size <= 64 * 1024, `${n} exceeds the roll size`);
  }
  await wal.close();
});

test('an entry the format cannot hold is refused without using a seq', async (t) => {
  const wal = await Wal.open(await walDir(t));
  await assert.rejects(wal.append({ ...fixtureEntry(1, 10), db: 'x'.repeat(70_000) }), { code: 'invalid_request' });
  await assert.rejects(wal.append({ ...fixtureEntry(1, 10), defaultNsec: 1e9 }), { code: 'invalid_request' });
  assert.equal(await wal.append(fixtureEntry(1, 10)), 1n);
  await wal.close();
});

test('appends continue after reopen with a larger seq, and replay(afterSeq) skips older entries', async (t) => {
  const dir = await walDir(t);
  let wal = await Wal.open(dir);
  for (let i = 0; i < 5; i++) await wal.append(fixtureEntry(i, 10));
  await wal.close();
  wal = await Wal.open(dir);
  assert.equal(wal.lastSeq, 5n);
  assert.equal(await wal.append(fixtureEntry(5, 10)), 6n);
  assert.deepEqual((await collect(wal.replay(3n))).map((e) => e.seq), [4n, 5n, 6n]);
  await wal.close();
  await assert.rejects(wal.append(fixtureEntry(1, 1)), { code: 'engine_closed' });
});

test('minLastSeq keeps seqs above a flushed watermark even when the WAL lost its tail', async (t) => {
  const dir = await walDir(t);
  let wal = await Wal.open(dir);
  for (let i = 0; i < 5; i++) await wal.append(fixtureEntry(i, 10));
  await wal.close();
  wal = await Wal.open(dir, { minLastSeq: 100n });
  assert.equal(wal.lastSeq, 100n);
  assert.equal(await wal.append(fixtureEntry(9, 10)), 101n);
  await wal.close();
  wal = await Wal.open(dir);
  assert.equal(wal.lastSeq, 101n);
  assert.deepEqual((await collect(wal.replay())).map((e) => e.seq), [1n, 2n, 3n, 4n, 5n, 101n]);
  await wal.close();
});

test('close() waits for accepted appends', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir, { batchDelayUs: 5000 });
  const pending = Array.from({ length: 200 }, (_, i) => wal.append(fixtureEntry(i, 64)));
  await wal.close();
  assert.equal((await Promise.all(pending)).length, 200);
  const again = await Wal.open(dir);
  assert.equal(again.lastSeq, 200n);
  await again.close();
});

test('segments roll at segmentSizeBytes; truncateUpTo deletes only fully flushed segments', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir, { segmentSizeBytes: 4096 });
  const entries = Array.from({ length: 40 }, (_, i) => fixtureEntry(i, 700));
  for (const e of entries) await wal.append(e);
  const names = (await readdir(dir)).filter((n) => n.endsWith('.wal')).sort();
  assert.ok(names.length >= 8, `expected several segments, got ${names.length}`);
  for (const n of names) assert.ok((await stat(join(dir, n))).size <= 4096, `${n} exceeds the roll size`);
  assert.equal(wal.segmentCount, names.length);

  // Seq 10 sits inside a segment: only segments whose last seq <= 10 go.
  const firstSeqs = names.map((n) => BigInt(n.slice(0, 20)));
  const holding11 = firstSeqs.filter((s) => s <= 11n).at(-1);
  const removed = await wal.truncateUpTo(10n);
  const left = (await readdir(dir)).filter((n) => n.endsWith('.wal')).sort();
  assert.equal(removed, names.length - left.length);
  assert.equal(BigInt((left[0] as string).slice(0, 20)), holding11, 'the segment holding seq 11 survives');
  assert.deepEqual((await collect(wal.replay(10n))).map((e) => e.seq), Array.from({ length: 30 }, (_, i) => BigInt(i + 11)));
  const fromStart = await collect(wal.replay());
  assert.equal(fromStart[0]?.seq, holding11);
  assert.equal(fromStart.at(-1)?.seq, 40n);

  // Everything flushed: the active segment is sealed and deleted, one empty segment stays.
  await wal.truncateUpTo(40n);
  assert.deepEqual((await readdir(dir)).filter((n) => n.endsWith('.wal')), ['00000000000000000041.wal']);
  assert.deepEqual(await collect(wal.replay()), []);
  assert.equal(await wal.append(entries[0] as WalWriteAppend), 41n);
  await wal.close();

  const reopened = await Wal.open(dir);
  assert.equal(reopened.lastSeq, 41n);
  assertEntry((await collect(reopened.replay()))[0], 41n, entries[0] as WalWriteAppend);
  await reopened.truncateUpTo(41n);
  await reopened.close();
  const last = await Wal.open(dir);
  assert.equal(last.lastSeq, 41n, 'the empty segment name keeps the seq going after a full truncation');
  assert.equal(await last.append(fixtureEntry(1, 1)), 42n);
  await last.close();
});

test('replay while appending sees a consistent prefix and reports no damage', async (t) => {
  const log = collectingLogger();
  const wal = await Wal.open(await walDir(t), { segmentSizeBytes: 8192 }, log);
  const writes = Promise.all(Array.from({ length: 300 }, (_, i) => wal.append(fixtureEntry(i, 200 + (i % 50)))));
  for (let round = 0; round < 5; round++) {
    const seqs = (await collect(wal.replay())).map((e) => e.seq);
    seqs.forEach((s, i) => assert.equal(s, BigInt(i + 1)));
  }
  await writes;
  assert.equal((await collect(wal.replay())).length, 300);
  await wal.close();
  assert.deepEqual(problems(log), []);
});

test('a replay started before a truncation skips the deleted segments without failing', async (t) => {
  const log = collectingLogger();
  const wal = await Wal.open(await walDir(t), { segmentSizeBytes: 2048 }, log);
  for (let i = 0; i < 20; i++) await wal.append(fixtureEntry(i, 500));
  const replay = wal.replay();
  const first = await replay.next();
  assert.equal(first.value?.seq, 1n);
  await wal.truncateUpTo(20n);
  const rest = await collect(replay);
  assert.ok(rest.every((e, i) => i === 0 || e.seq > (rest[i - 1] as WalWriteEntry).seq));
  assert.deepEqual(await collect(wal.replay()), []);
  await wal.close();
  assert.deepEqual(problems(log), []);
});

/** Fails the n-th call (1-based) of `which`; for a failing write, half the bytes land first. */
function failingIo(which: 'write' | 'datasync', n: number): SegmentIo {
  let calls = 0;
  return {
    async write(fh, bytes, position) {
      if (which === 'write' && ++calls === n) {
        await defaultSegmentIo.write(fh, bytes.subarray(0, bytes.length >> 1), position);
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }
      return defaultSegmentIo.write(fh, bytes, position);
    },
    async datasync(fh) {
      if (which === 'datasync' && ++calls === n) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      return defaultSegmentIo.datasync(fh);
    },
  };
}

for (const which of ['write', 'datasync'] as const) {
  test(`a failed ${which} rejects its whole group with StorageIoError and leaves the WAL consistent`, async (t) => {
    const dir = await walDir(t);
    const log = collectingLogger();
    const wal = await Wal.open(dir, { batchDelayUs: 2000 }, log, failingIo(which, 2));
    const ok1 = await Promise.all([wal.append(fixtureEntry(1, 300)), wal.append(fixtureEntry(2, 300))]);
    const failed = await Promise.allSettled([wal.append(fixtureEntry(3, 300)), wal.append(fixtureEntry(4, 300))]);
    for (const r of failed) {
      assert.equal(r.status, 'rejected');
      assert.ok(r.status === 'rejected' && r.reason instanceof StorageIoError);
    }
    const ok2 = await wal.append(fixtureEntry(5, 300));
    assert.ok(ok2 > 4n, 'seqs stay strictly increasing after a failure');
    assert.equal(wal.lastSeq, ok2);
    const seqs = (await collect(wal.replay())).map((e) => e.seq);
    assert.deepEqual(seqs, [...ok1, ok2]);
    await wal.close();
    assert.ok(log.entries.some((e) => e.level === 'error' && /failed/.test(e.msg)));

    const log2 = collectingLogger();
    const again = await Wal.open(dir, {}, log2);
    assert.deepEqual((await collect(again.replay())).map((e) => e.seq), [...ok1, ok2]);
    assert.deepEqual(problems(log2), [], 'the failed bytes were cut away, nothing to repair');
    await again.close();
  });
}

test('a cancel handed over by cancelLater goes ahead of the next append, in its group: both fail or both are durable', async (t) => {
  const dir = await walDir(t);
  // batchSize 1: the cancel still shares the append's group (cancels count towards no limit).
  const wal = await Wal.open(dir, { batchSize: 1 }, silentLogger, failingIo('datasync', 2));
  const refused = await wal.append(fixtureEntry(1, 100));
  wal.cancelLater(refused);
  wal.cancelLater(refused);
  await assert.rejects(wal.append(fixtureEntry(2, 100)), StorageIoError);
  assert.deepEqual((await collect(wal.replay())).map((e) => e.seq), [refused], 'nothing durable yet: the record still replays');
  const next = await wal.append(fixtureEntry(3, 100));
  assert.deepEqual((await collect(wal.replay())).map((e) => e.seq), [next], 'the cancel came with the next append');
  await wal.close();
  const again = await Wal.open(dir, {}, silentLogger);
  assert.deepEqual((await collect(again.replay())).map((e) => e.seq), [next]);
  await again.close();
});

test('a cancel still pending at close is written before the segment closes', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir);
  const refused = await wal.append(fixtureEntry(1, 100));
  wal.cancelLater(refused);
  await wal.close();
  const again = await Wal.open(dir, {}, silentLogger);
  assert.deepEqual(await collect(again.replay()), []);
  await again.close();
});

test('bad options are refused before anything is opened', async (t) => {
  const dir = await walDir(t);
  for (const bad of [{ segmentSizeBytes: 10 }, { batchSize: -1 }, { batchSize: 1.5 }, { batchDelayUs: -5 }]) {
    await assert.rejects(Wal.open(dir, bad), { code: 'invalid_request' }, JSON.stringify(bad));
  }
  assert.deepEqual(await readdir(dir), []);
});

test('a second open of a locked WAL directory fails with DirectoryLockedError', async (t) => {
  const dir = await walDir(t);
  const wal = await Wal.open(dir);
  await assert.rejects(Wal.open(dir), { code: 'directory_locked', status: 500 });
  await wal.close();
  const again = await Wal.open(dir);
  await again.close();
});
