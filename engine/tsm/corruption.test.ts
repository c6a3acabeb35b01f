/**
 * Corruption table for TSM files (style.md item 11). Each row damages the middle one of three
 * identical files in a shard directory and states the expected recovery:
 *   quarantine  TsmReader.open throws CorruptionError naming the file; TsmFileSet.open moves the
 *               file to quarantine/, logs a warning, keeps serving the other two.
 *   bad-blocks  the file opens (header, footer, index intact); readBlock of each damaged block
 *               throws CorruptionError at that block's offset (every time: damaged bytes are
 *               never returned or cached); all other blocks read back exactly.
 *   removed     a leftover temp file: TsmFileSet.open deletes it, all files are served.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptionError } from '../errors.js';
import { checksum64, initChecksum } from '../fs/checksum.js';
import { collectingLogger } from '../logger.js';
import { FieldType } from '../point.js';
import { BlockCache } from './block-cache.js';
import type { BlockEntry } from './block-index.js';
import { TsmFileSet } from './file-set.js';
import {
  BLOCK_CHECKSUM_SIZE,
  FOOTER_CHECKSUM_OFFSET,
  FOOTER_SIZE,
  HEADER_LEVEL_OFFSET,
  HEADER_MAGIC_OFFSET,
  HEADER_SIZE,
  QUARANTINE_DIR,
} from './format.js';
import { TsmReader } from './reader.js';
import { decodeFooter, encodeFooter } from './sections.js';
import { payload, tempDir, writeTsm } from './test-support.js';
import type { KeySpec } from './test-support.js';

const PAGE = 4096;
const SPEC: KeySpec[] = ['a', 'b', 'c', 'd'].map((key, k) => ({
  key,
  type: FieldType.Float,
  blocks: [0, 1, 2, 3].map((j) => ({ minTime: BigInt(j * 1000), maxTime: BigInt(j * 1000 + 999), count: 1000, payload: payload(k * 4 + j, 1000) })),
}));
const NAMES = ['000000001-000000001.tsm', '000000002-000000001.tsm', '000000003-000000001.tsm'];
const VICTIM = NAMES[1] ?? '';

interface Block {
  readonly key: string;
  readonly entry: BlockEntry;
  readonly payload: Uint8Array;
}
interface Facts {
  readonly size: number;
  readonly indexOffset: number;
  readonly blocks: readonly Block[];
}

type Damage = (bytes: Buffer, f: Facts) => Buffer;
interface Row {
  readonly name: string;
  readonly damage: Damage;
  readonly expect: 'quarantine' | 'bad-blocks' | 'removed';
  /** For quarantine rows: the check that must catch the damage. */
  readonly reason?: RegExp;
  /** For bad-blocks rows: which blocks must fail. */
  readonly bad?: (b: Block) => boolean;
}

const flip = (at: (f: Facts) => number): Damage => (bytes, f) => {
  const out = Buffer.from(bytes);
  const i = at(f);
  out[i] = (out[i] ?? 0) ^ 0x40;
  return out;
};
const blockOf = (f: Facts, key: string, j: number): BlockEntry => {
  const b = f.blocks.filter((x) => x.key === key)[j];
  assert.ok(b);
  return b.entry;
};
/** Rewrites a footer field and re-seals the footer checksum: a structurally wrong but signed footer. */
const forgeFooter = (change: (footer: ReturnType<typeof decodeFooter>) => ReturnType<typeof decodeFooter>): Damage => (bytes) => {
  const header = bytes.subarray(0, HEADER_SIZE);
  const at = bytes.length - FOOTER_SIZE;
  const footer = decodeFooter('victim', header, bytes.subarray(at), bytes.length);
  return Buffer.concat([bytes.subarray(0, at), encodeFooter(header, change(footer))]);
};
/** Edits the index and re-seals both checksums: a well-signed file whose index is wrong. */
const resealedIndex = (edit: (index: Buffer) => void): Damage => (bytes, f) => {
  const out = Buffer.from(bytes);
  const at = out.length - FOOTER_SIZE;
  const index = out.subarray(f.indexOffset, at);
  edit(index);
  return forgeFooter((footer) => ({ ...footer, indexChecksum: checksum64(index) }))(out, f);
};
const overlapsPage = (page: number) => (b: Block) => b.entry.offset < (page + 1) * PAGE && b.entry.offset + BLOCK_CHECKSUM_SIZE + b.entry.size > page * PAGE;

const ROWS: Row[] = [
  { name: '0-byte file', expect: 'quarantine', reason: /shorter than any TSM file/, damage: () => Buffer.alloc(0) },
  { name: 'truncated tail (last 10 bytes lost)', expect: 'quarantine', reason: /bad footer magic/, damage: (b) => b.subarray(0, b.length - 10) },
  { name: 'truncated inside the blocks', expect: 'quarantine', reason: /bad footer magic/, damage: (b) => b.subarray(0, 5000) },
  { name: 'bytes appended after the footer', expect: 'quarantine', reason: /bad footer magic/, damage: (b) => Buffer.concat([b, Buffer.alloc(100)]) },
  { name: 'flipped header magic byte', expect: 'quarantine', reason: /bad header magic/, damage: flip(() => HEADER_MAGIC_OFFSET + 1) },
  { name: 'flipped level byte (covered by footer checksum)', expect: 'quarantine', reason: /footer checksum mismatch/, damage: flip(() => HEADER_LEVEL_OFFSET) },
  { name: 'flipped index byte', expect: 'quarantine', reason: /index checksum mismatch/, damage: flip((f) => f.indexOffset + 5) },
  { name: 'flipped footer checksum byte', expect: 'quarantine', reason: /footer checksum mismatch/, damage: flip((f) => f.size - FOOTER_SIZE + FOOTER_CHECKSUM_OFFSET + 2) },
  { name: 'bad index length in footer (footer checksum re-sealed)', expect: 'quarantine', reason: /does not fit/, damage: forgeFooter((f) => ({ ...f, indexSize: f.indexSize + 8 })) },
  { name: 'bad key count in footer (footer checksum re-sealed)', expect: 'quarantine', reason: /truncated/, damage: forgeFooter((f) => ({ ...f, keyCount: f.keyCount + 1 })) },
  {
    name: 'bad index entry with index and footer checksums re-sealed (blocks past the index)',
    expect: 'quarantine',
    reason: /blocks end at|outside the blocks section/,
    damage: resealedIndex((index) => {
      // Key 'a' record: shared 0, suffixLen 1, 'a', type, time scale, entryCount, then entry 0:
      // minTime, span (bytes 7–8: 999), size (bytes 9–10: 1000); grow the size so implied
      // offsets overrun.
      index[9] = (index[9] ?? 0) + 1;
    }),
  },
  {
    name: 'unknown type with checksums re-sealed',
    expect: 'quarantine',
    reason: /unknown block type 9/,
    damage: resealedIndex((index) => {
      index[3] = 9;
    }),
  },
  { name: 'zero-filled last page (index and footer)', expect: 'quarantine', reason: /bad footer magic/, damage: (b) => Buffer.concat([b.subarray(0, b.length - PAGE), Buffer.alloc(PAGE)]) },
  {
    name: 'flipped block checksum byte',
    expect: 'bad-blocks',
    damage: flip((f) => blockOf(f, 'b', 1).offset),
    bad: (b) => b.key === 'b' && b.entry.minTime === 1000n,
  },
  {
    name: 'flipped block payload byte',
    expect: 'bad-blocks',
    damage: flip((f) => blockOf(f, 'c', 3).offset + BLOCK_CHECKSUM_SIZE + 500),
    bad: (b) => b.key === 'c' && b.entry.minTime === 3000n,
  },
  {
    name: 'zero-filled page inside the blocks',
    expect: 'bad-blocks',
    damage: (b) => Buffer.concat([b.subarray(0, PAGE), Buffer.alloc(PAGE), b.subarray(2 * PAGE)]),
    bad: overlapsPage(1),
  },
  { name: 'leftover .tmp of an interrupted write', expect: 'removed', damage: (b) => b.subarray(0, 3000) },
];

test('TSM corruption table', async (t) => {
  await initChecksum();
  const origin = join(await tempDir(t, 'tsm-corrupt-origin'), NAMES[0] ?? '');
  await writeTsm(origin, SPEC);
  const pristine = await readFile(origin);
  const facts = await factsOf(origin);
  assert.ok(facts.indexOffset > 3 * PAGE && facts.size - facts.indexOffset < PAGE, 'layout assumed by the page rows');

  for (const row of ROWS) {
    await t.test(row.name, async (t) => {
      const dir = await tempDir(t, 'tsm-corrupt');
      for (const name of NAMES) await writeFile(join(dir, name), pristine);
      const damaged = row.damage(pristine, facts);
      const victim = row.expect === 'removed' ? '000000004-000000001.tsm.tmp' : VICTIM;
      await writeFile(join(dir, victim), damaged);
      const path = join(dir, victim);

      if (row.expect === 'quarantine') {
        await assert.rejects(TsmReader.open(path), (err) => err instanceof CorruptionError && err.file === path && (row.reason?.test(err.message) ?? false));
      } else if (row.expect === 'bad-blocks') {
        await checkBlocks(path, facts, row.bad ?? (() => false));
      }

      const logger = collectingLogger();
      const set = await TsmFileSet.open(dir, { logger });
      try {
        const served = set.files().map((r) => r.path);
        const warns = logger.entries.filter((e) => e.level === 'warn' || e.level === 'error');
        if (row.expect === 'quarantine') {
          assert.deepEqual(served, [NAMES[0], NAMES[2]].map((n) => join(dir, n ?? '')));
          assert.deepEqual(await readdir(join(dir, QUARANTINE_DIR)), [VICTIM]);
          assert.equal(warns.length, 1);
          assert.deepEqual([warns[0]?.level, warns[0]?.msg], ['warn', 'quarantined corrupt TSM file']);
        } else {
          assert.deepEqual(served, NAMES.map((n) => join(dir, n)));
          assert.deepEqual(warns, []);
          assert.deepEqual((await readdir(dir)).sort(), NAMES);
        }
      } finally {
        await set.close();
      }
    });
  }
});

async function factsOf(path: string): Promise<Facts> {
  const r = await TsmReader.open(path);
  try {
    const blocks: Block[] = [];
    for (const key of r.keys()) for (const entry of r.entries(key)) blocks.push({ key, entry, payload: await r.readBlock(key, entry) });
    const first = blocks.reduce((m, b) => Math.max(m, b.entry.offset + BLOCK_CHECKSUM_SIZE + b.entry.size), 0);
    return { size: r.stats().bytes, indexOffset: first, blocks };
  } finally {
    await r.close();
  }
}

async function checkBlocks(path: string, facts: Facts, bad: (b: Block) => boolean): Promise<void> {
  const r = await TsmReader.open(path, { blockCache: new BlockCache() });
  try {
    let failing = 0;
    for (const b of facts.blocks) {
      if (bad(b)) {
        failing++;
        for (let attempt = 0; attempt < 2; attempt++) {
          await assert.rejects(r.readBlock(b.key, b.entry), (err) => err instanceof CorruptionError && err.file === path && err.offset === b.entry.offset);
          assert.throws(() => r.readBlockSync(b.key, b.entry), CorruptionError);
        }
      } else {
        assert.deepEqual(await r.readBlock(b.key, b.entry), b.payload);
      }
    }
    assert.ok(failing > 0, 'the row damages at least one block');
  } finally {
    await r.close();
  }
}
