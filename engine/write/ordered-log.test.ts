import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WalAppend, WalWriteAppend } from '../wal/record.js';
import { OrderedLog } from './ordered-log.js';

const entry = (n: number): WalWriteAppend => ({ db: 'db', rp: 'autogen', precision: 'ns', defaultSec: 0, defaultNsec: 0, lines: Buffer.from(`m v=${n}`) });

/** A WAL stand-in that assigns seqs in call order and resolves them when told to. */
function fakeWal() {
  const appended: WalAppend[] = [];
  const later: bigint[] = [];
  const pending: { resolve: (s: bigint) => void; reject: (e: Error) => void; seq: bigint }[] = [];
  return {
    appended,
    later,
    cancelLater: (seq: bigint) => void later.push(seq),
    append: (e: WalAppend) => {
      appended.push(e);
      return new Promise<bigint>((resolve, reject) => pending.push({ resolve, reject, seq: BigInt(appended.length) }));
    },
    flushAll: () => pending.splice(0).forEach((p) => p.resolve(p.seq)),
    failNext: () => pending.shift()?.reject(new Error('disk gone')),
  };
}

test('turns come in reservation order whatever order the writes finish their own work', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat(20), { minLength: 1, maxLength: 12 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), async (delays, giveUp) => {
      const wal = fakeWal();
      const log = new OrderedLog(wal.append, wal.cancelLater);
      const order: number[] = [];
      const writes = delays.map(async (d, i) => {
        const slot = log.reserve(entry(i));
        await new Promise((r) => setTimeout(r, d));
        // Some give up before their turn (a failed parse): that must not let later ones skip earlier ones.
        if (giveUp[i]) return slot.done();
        await slot.turn;
        order.push(i);
        await new Promise((r) => setTimeout(r, delays[(i + 1) % delays.length]));
        slot.done();
      });
      wal.flushAll();
      await Promise.all(writes);
      await log.whenIdle();
      assert.deepEqual(order, delays.map((_, i) => i).filter((i) => !giveUp[i]));
    }),
    { numRuns: 40 },
  );
});

test('cancel appends a cancel of the slot seq once it is durable, and nothing when the append failed', async () => {
  const wal = fakeWal();
  const log = new OrderedLog(wal.append, wal.cancelLater);
  const failed = log.reserve(entry(1));
  const kept = log.reserve(entry(2));
  wal.failNext();
  await log.cancel(failed);
  assert.equal(wal.appended.length, 2, 'no cancel for a record that never was');
  const cancelling = log.cancel(kept);
  wal.flushAll();
  await new Promise((r) => setImmediate(r));
  wal.flushAll();
  await cancelling;
  assert.deepEqual(wal.appended[2], { cancels: 2n });
  failed.done();
  kept.done();
  await log.whenIdle();
});

test('a cancel whose append fails rejects and is handed to the WAL for the next append', async () => {
  const wal = fakeWal();
  const log = new OrderedLog(wal.append, wal.cancelLater);
  const slot = log.reserve(entry(1));
  wal.flushAll();
  const cancelling = log.cancel(slot);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(wal.appended[1], { cancels: 1n });
  wal.failNext();
  await assert.rejects(cancelling, /disk gone/);
  assert.deepEqual(wal.later, [1n]);
  slot.done();
  await log.whenIdle();
});

test('whenIdle waits for every open slot', async () => {
  const wal = fakeWal();
  const log = new OrderedLog(wal.append, wal.cancelLater);
  const a = log.reserve(entry(1));
  const b = log.reserve(entry(2));
  let idle = false;
  const waiting = log.whenIdle().then(() => (idle = true));
  a.done();
  a.done();
  await new Promise((r) => setImmediate(r));
  assert.equal(idle, false, 'one done twice is still one');
  b.done();
  await waiting;
  assert.equal(idle, true);
  wal.flushAll();
});
