/**
 * Golden bytes of the TSM format. If this test breaks, the storage format changed: existing
 * files on users' disks would no longer read. Bump VERSION in format.ts, keep reading the old
 * version, and only then regenerate with
 *   STRATA_UPDATE_GOLDEN=1 node --test build/engine/tsm/golden.test.js
 * (run from the repo root; commit fixtures/format/tsm/small-v<VERSION>.tsm with the change).
 * Files of older versions (small.tsm is version 1) stay committed and must keep reading.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FieldType } from '../point.js';
import { FOOTER_SIZE, KEY_FIELD_SEPARATOR as SEP } from './format.js';
import { TsmReader } from './reader.js';
import { tempDir, writeTsm } from './test-support.js';
import type { KeySpec } from './test-support.js';

const FIXTURE_V1 = join(process.cwd(), 'fixtures/format/tsm/small.tsm');
const FIXTURE = join(process.cwd(), 'fixtures/format/tsm/small-v2.tsm');
const LEVEL = 2;
const bytes = (s: string) => new TextEncoder().encode(s);

/** Covers every type, several blocks per key, negative times, times above 2^53, non-ASCII keys. */
const CONTENT: KeySpec[] = [
  {
    key: `cpu,host=a${SEP}count`,
    type: FieldType.Integer,
    blocks: [
      {
        minTime: 1_600_000_000_000_000_000n,
        maxTime: 1_600_000_002_000_000_000n,
        count: 3,
        payload: bytes('int-block-0'),
        stats: { min: -7, max: 2 ** 40, minIndex: 2, maxIndex: 0, sum: 2 ** 40 - 5 },
      },
    ],
  },
  {
    key: `cpu,host=a${SEP}usage`,
    type: FieldType.Float,
    blocks: [
      {
        minTime: 1_600_000_000_000_000_000n,
        maxTime: 1_600_000_001_000_000_000n,
        count: 2,
        payload: bytes('float-block-0'),
        stats: { min: -0.5, max: 1e300, minIndex: 1, maxIndex: 0 },
      },
      { minTime: 1_600_000_002_000_000_000n, maxTime: 1_600_000_002_000_000_000n, count: 1, payload: bytes('float-block-1') },
    ],
  },
  {
    key: `disk,path=/${SEP}up`,
    type: FieldType.Boolean,
    blocks: [{ minTime: -5n, maxTime: -1n, count: 5, payload: Uint8Array.of(0x1f) }],
  },
  {
    key: `log${SEP}msg`,
    type: FieldType.String,
    blocks: [{ minTime: 0n, maxTime: 0n, count: 1, payload: bytes('hello') }],
  },
  {
    key: `mém,ünït=°C${SEP}v`,
    type: FieldType.Unsigned,
    blocks: [
      { minTime: 2n ** 62n, maxTime: 2n ** 62n + 7n, count: 8, payload: Uint8Array.of(0, 0xff, 0x80, 0x7f), stats: { min: 3, max: 300, minIndex: 7, maxIndex: 1, sum: 1200 } },
    ],
  },
];

test('golden: writing the fixed content yields the committed bytes', async (t) => {
  const dir = await tempDir(t, 'tsm-golden');
  const path = join(dir, '000000001-000000001.tsm');
  await writeTsm(path, CONTENT, LEVEL);
  const written = await readFile(path);
  if (process.env['STRATA_UPDATE_GOLDEN'] === '1') {
    await writeFile(FIXTURE, written);
    t.diagnostic(`rewrote ${FIXTURE}`);
  }
  const golden = await readFile(FIXTURE);
  const firstDiff = written.findIndex((b, i) => b !== golden[i]);
  assert.ok(
    written.equals(golden),
    `TSM format changed: ${written.length} bytes written vs ${golden.length} committed; first difference at offset ${firstDiff}`,
  );
});

for (const [name, path, withStats] of [
  ['version 1', FIXTURE_V1, false],
  ['version 2', FIXTURE, true],
] as const) {
  test(`golden: the committed ${name} file reads back with its content`, async () => {
    const r = await TsmReader.open(path);
    try {
      assert.equal(r.level, LEVEL);
      assert.deepEqual([...r.keys()], CONTENT.map((k) => k.key));
      for (const k of CONTENT) {
        assert.equal(r.type(k.key), k.type);
        const entries = r.entries(k.key);
        assert.deepEqual(entries.map((e) => [e.minTime, e.maxTime, e.count]), k.blocks.map((b) => [b.minTime, b.maxTime, b.count]));
        assert.deepEqual(entries.map((e) => e.stats), k.blocks.map((b) => (withStats ? b.stats : undefined)));
        for (const [i, e] of entries.entries()) assert.deepEqual(await r.readBlock(k.key, e), k.blocks[i]?.payload);
      }
      assert.deepEqual(r.timeRange, { min: -5n, max: 2n ** 62n + 7n });
      assert.deepEqual(r.stats(), { keys: 5, blocks: 6, bytes: r.stats().bytes, values: 20 });
    } finally {
      await r.close();
    }
  });
}

test('golden: version 1 header and footer bytes pinned independently of the writer', async () => {
  const golden = await readFile(FIXTURE_V1);
  // magic "STSM", version 1, level 2, reserved 0
  assert.equal(golden.subarray(0, 8).toString('hex'), '5354534d01020000');
  // First block: checksum (4 bytes) then the payload "int-block-0" (keys are written in order).
  assert.equal(golden.subarray(12, 23).toString(), 'int-block-0');
  const footer = golden.subarray(golden.length - FOOTER_SIZE);
  assert.equal(footer.subarray(36).toString('hex'), '5354534d');
  const indexOffset = Number(footer.readBigUInt64BE(0));
  const indexSize = Number(footer.readBigUInt64BE(8));
  assert.equal(indexOffset + indexSize + FOOTER_SIZE, golden.length);
  assert.deepEqual([footer.readUInt32BE(16), footer.readUInt32BE(20)], [5, 6]);
  // First key record: u16 length, key, type 1 (integer), one entry.
  const key = `cpu,host=a${SEP}count`;
  assert.equal(golden.readUInt16BE(indexOffset), key.length);
  assert.equal(golden.subarray(indexOffset + 2, indexOffset + 2 + key.length).toString(), key);
  assert.deepEqual([golden[indexOffset + 2 + key.length], golden.readUInt32BE(indexOffset + 3 + key.length)], [1, 1]);
});

test('golden: version 2 header, first block and first key record pinned independently of the writer', async () => {
  const golden = await readFile(FIXTURE);
  // magic "STSM", version 2, level 2, reserved 0
  assert.equal(golden.subarray(0, 8).toString('hex'), '5354534d02020000');
  assert.equal(golden.subarray(12, 23).toString(), 'int-block-0');
  const footer = golden.subarray(golden.length - FOOTER_SIZE);
  const indexOffset = Number(footer.readBigUInt64BE(0));
  assert.deepEqual([footer.readUInt32BE(16), footer.readUInt32BE(20)], [5, 6]);
  // First key record: shared 0, suffix length, key, type 1 (integer), time scale 9 (its one
  // block spans 2 s), one entry.
  const key = `cpu,host=a${SEP}count`;
  assert.deepEqual([golden[indexOffset], golden[indexOffset + 1]], [0, key.length]);
  assert.equal(golden.subarray(indexOffset + 2, indexOffset + 2 + key.length).toString(), key);
  assert.deepEqual([...golden.subarray(indexOffset + 2 + key.length, indexOffset + 5 + key.length)], [1, 9, 1]);
  // Second key shares `cpu,host=a#!~#` (14 bytes) and stores only "usage".
  const second = golden.indexOf(Buffer.from('usage'), indexOffset);
  assert.deepEqual([golden[second - 2], golden[second - 1]], [14, 5]);
});
