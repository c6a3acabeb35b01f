import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { initChecksum } from '../fs/checksum.js';
import { collectingLogger } from '../logger.js';
import {
  RECORD_HEADER_SIZE,
  SEGMENT_HEADER_SIZE,
  decodeRecord,
  decodeSegmentHeader,
  encodeRecord,
  encodeSegmentHeader,
  isCancel,
  parseSegmentFileName,
  segmentFileName,
} from './record.js';
import type { WalRecord, WalWriteEntry } from './record.js';
import { openWal } from './reader.js';
import { tempDir } from '../testing/temp-dir.js';

await initChecksum();

const entryArb: fc.Arbitrary<WalWriteEntry> = fc.record({
  seq: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  db: fc.string({ unit: 'grapheme', maxLength: 40 }),
  rp: fc.string({ unit: 'grapheme', maxLength: 40 }),
  precision: fc.constantFrom('ns', 'us', 'ms', 's', 'm', 'h'),
  defaultSec: fc.maxSafeInteger(),
  defaultNsec: fc.integer({ min: 0, max: 999_999_999 }),
  lines: fc.uint8Array({ maxLength: 3000 }),
});

function assertSameEntry(actual: WalRecord, expected: WalWriteEntry): void {
  assert.ok(!isCancel(actual), 'decoded a cancel record');
  assert.deepEqual({ ...actual, lines: Uint8Array.from(actual.lines) }, { ...expected, lines: Uint8Array.from(expected.lines) });
}

test('record round-trips every field, bytes of lines exactly', () => {
  fc.assert(
    fc.property(entryArb, (entry) => {
      const bytes = encodeRecord(entry);
      const d = decodeRecord(bytes, 0);
      assert.equal(d.status, 'ok');
      if (d.status !== 'ok') return;
      assert.equal(d.size, bytes.length);
      assertSameEntry(d.entry, entry);
    }),
  );
});

test('cancel record round-trips, and any flipped byte in it is damage', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat(35), (seq, cancels, flip) => {
      const bytes = Buffer.from(encodeRecord({ seq, cancels }));
      assert.equal(bytes.length, RECORD_HEADER_SIZE + 8);
      const d = decodeRecord(bytes, 0);
      assert.ok(d.status === 'ok' && isCancel(d.entry));
      assert.deepEqual(d.entry, { seq, cancels });
      bytes[flip] = (bytes[flip] ?? 0) ^ 0x41;
      assert.notEqual(decodeRecord(bytes, 0).status, 'ok');
    }),
  );
});

test('a record decodes at any offset of a larger buffer', () => {
  fc.assert(
    fc.property(entryArb, fc.uint8Array({ maxLength: 64 }), (entry, prefix) => {
      const rec = encodeRecord(entry);
      const d = decodeRecord(Buffer.concat([prefix, rec, Uint8Array.of(1, 2, 3)]), prefix.length);
      assert.equal(d.status, 'ok');
      if (d.status === 'ok') assertSameEntry(d.entry, entry);
    }),
  );
});

test('any single flipped bit makes the record undecodable', () => {
  fc.assert(
    fc.property(entryArb, fc.nat(), fc.integer({ min: 0, max: 7 }), (entry, at, bit) => {
      const bytes = Buffer.from(encodeRecord(entry));
      const i = at % bytes.length;
      bytes[i] = (bytes[i] ?? 0) ^ (1 << bit);
      assert.notEqual(decodeRecord(bytes, 0).status, 'ok');
    }),
  );
});

test('every strict prefix of a record is short, never ok or bad', () => {
  fc.assert(
    fc.property(entryArb, fc.nat(), (entry, cut) => {
      const bytes = encodeRecord(entry);
      assert.equal(decodeRecord(bytes.subarray(0, cut % bytes.length), 0).status, 'short');
    }),
  );
});

test('segment names: 20 digits, sort like seqs, reject anything else', () => {
  assert.equal(segmentFileName(1n), '00000000000000000001.wal');
  assert.equal(segmentFileName(2n ** 64n - 1n), '18446744073709551615.wal');
  assert.equal(parseSegmentFileName('00000000000000004711.wal'), 4711n);
  for (const bad of ['4711.wal', '00000000000000004711.wal.tmp', '0000000000000000471x.wal', '99999999999999999999.wal', 'LOCK']) {
    assert.equal(parseSegmentFileName(bad), undefined, bad);
  }
  assert.deepEqual(decodeSegmentHeader(encodeSegmentHeader(42n)), { firstSeq: 42n });
  assert.ok('bad' in decodeSegmentHeader(new Uint8Array(SEGMENT_HEADER_SIZE)));
});

// The golden file is a complete one-record segment. If this test breaks, the WAL format
// changed: bump SEGMENT_VERSION, keep reading the old one, and only then regenerate.
const GOLDEN = join(process.cwd(), 'fixtures', 'format', 'wal', 'record.hex');
const goldenEntry: WalWriteEntry = {
  seq: 1n,
  db: 'telegraf',
  rp: 'autogen',
  precision: 'ms',
  defaultSec: 1_700_000_000,
  defaultNsec: 123_456_789,
  lines: Buffer.from('cpu,host=a usage=0.5 1700000000000\nmem,host=a used=42i\n'),
};

function parseHex(text: string): Buffer {
  const hex = text
    .split('\n')
    .map((l) => l.replace(/#.*/, ''))
    .join('')
    .replace(/\s+/g, '');
  return Buffer.from(hex, 'hex');
}

test('golden bytes: segment header + write record are frozen', async () => {
  const expected = parseHex(await readFile(GOLDEN, 'utf8'));
  const actual = Buffer.concat([encodeSegmentHeader(1n), encodeRecord(goldenEntry)]);
  assert.equal(actual.toString('hex'), expected.toString('hex'), 'WAL on-disk format changed');
  const d = decodeRecord(expected, SEGMENT_HEADER_SIZE);
  assert.equal(d.status, 'ok');
  if (d.status === 'ok') assertSameEntry(d.entry, goldenEntry);
  assert.equal(expected.length, SEGMENT_HEADER_SIZE + RECORD_HEADER_SIZE + 18 + 8 + 7 + goldenEntry.lines.length);
});

test('golden bytes: the committed segment opens and replays as a real WAL', async (t) => {
  const dir = await tempDir(t, 'strata-wal-golden-');
  await writeFile(join(dir, segmentFileName(1n)), parseHex(await readFile(GOLDEN, 'utf8')));
  const log = collectingLogger();
  const wal = await openWal(dir, log);
  assert.equal(wal.lastSeq, 1n);
  const got: WalWriteEntry[] = [];
  for await (const e of wal.replay()) got.push(e);
  assert.equal(got.length, 1);
  assertSameEntry(got[0] as WalWriteEntry, goldenEntry);
  assert.deepEqual(log.entries.filter((e) => e.level !== 'info' && e.level !== 'debug'), []);
});
