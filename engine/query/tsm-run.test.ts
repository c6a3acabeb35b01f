/**
 * TsmRun over a real TSM file: what it returns equals the key's decoded blocks (both directions,
 * clipped to a range, stopped early), and a block kept in the block cache is never read from the
 * file again, even when a run read it together with neighbours it did not use.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { encodeBlock } from '../encoding/block.js';
import { FieldType } from '../point.js';
import { BlockCache } from '../tsm/block-cache.js';
import { openPositionalFile, type FileOpener } from '../tsm/positional-file.js';
import { TsmReader } from '../tsm/reader.js';
import { tempDir, writeTsm } from '../tsm/test-support.js';
import type { CleanupScope } from '../testing/temp-dir.js';
import { rowCount } from './run.js';
import { gridRange, TsmRun } from './tsm-run.js';
import { lowerBound } from './run.js';

const BASE = 1_000_000_000_000n;
const KEY = 'cpu,host=a#!~#v';

/** Key KEY with `blocks` blocks of 10 integer points each, 10 ns apart; block j starts at j * 1000; values j * 100 + i + `shift`. */
async function file(scope: CleanupScope, blocks: number, shift = 0): Promise<string> {
  const dir = await tempDir(scope, 'tsm-run');
  const path = join(dir, '000000001-000000001.tsm');
  const spec = Array.from({ length: blocks }, (_, j) => {
    const offsets = Float64Array.from({ length: 10 }, (_, i) => j * 1000 + i * 10);
    const values = Float64Array.from({ length: 10 }, (_, i) => j * 100 + i + shift);
    return { minTime: BASE + BigInt(offsets[0]!), maxTime: BASE + BigInt(offsets[9]!), count: 10, payload: encodeBlock(BASE, offsets, { type: FieldType.Integer, values }, 0, 10) };
  });
  await writeTsm(path, [{ key: KEY, type: FieldType.Integer, blocks: spec }]);
  return path;
}

function run(r: TsmReader, minOff: number, maxOff: number, ascending: boolean): TsmRun {
  const k = r.index.findKey(KEY);
  const { start, end } = r.index.entryRangeAt(k, BASE + BigInt(minOff), BASE + BigInt(maxOff));
  return new TsmRun(r, KEY, { key: k, start, end }, BASE, minOff, maxOff, ascending, 0);
}

/** `columnFirst`: touch a whole block's values before its times (StatsBlock decodes either first). */
async function rows(r: TsmRun, limit = Infinity, columnFirst = false): Promise<[number, unknown][]> {
  const out: [number, unknown][] = [];
  for (let b = await r.next(); b && out.length < limit; b = await r.next()) {
    const values = columnFirst ? b.column.values : undefined;
    for (let i = 0; i < rowCount(b); i++) out.push([b.offsets[i]!, (values ?? b.column.values)[i]]);
  }
  r.close();
  return out.slice(0, limit);
}

test('a run returns the points of its range in order, both directions, stopped early or not', async (t) => {
  const path = await file(t, 6);
  const r = await TsmReader.open(path, { blockCache: new BlockCache() });
  try {
    const all: [number, number][] = [];
    for (let j = 0; j < 6; j++) for (let i = 0; i < 10; i++) all.push([j * 1000 + i * 10, j * 100 + i]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -100, max: 6000 }), fc.integer({ min: -100, max: 6000 }), fc.boolean(), fc.integer({ min: 1, max: 70 }), fc.boolean(), async (a, b, ascending, limit, columnFirst) => {
        const [lo, hi] = [Math.max(0, Math.min(a, b)), Math.max(a, b)];
        const want = all.filter(([t]) => t >= lo && t <= hi);
        if (!ascending) want.reverse();
        if (hi < 0 || want.length === 0) return;
        assert.deepEqual(await rows(run(r, lo, hi, ascending)), want);
        assert.deepEqual(await rows(run(r, lo, hi, ascending), limit, columnFirst), want.slice(0, limit));
      }),
      { numRuns: 150 },
    );
  } finally {
    await r.close();
  }
});

test('a cached block is not read again, though its run first read it with neighbours it did not use', async (t) => {
  const path = await file(t, 4);
  const reads: number[] = [];
  const counting: FileOpener = async (p) => {
    const f = await openPositionalFile(p);
    return { size: f.size, read: (buf, position) => (reads.push(position), f.read(buf, position)), readSync: f.readSync.bind(f), close: () => f.close() };
  };
  const r = await TsmReader.open(path, { openFile: counting, blockCache: new BlockCache() });
  try {
    reads.splice(0);
    // ORDER BY time DESC LIMIT 1: the first read covers all four blocks, only the last is used.
    assert.deepEqual(await rows(run(r, 0, 10_000, false), 1), [[3090, 309]]);
    assert.equal(reads.length, 1);
    reads.splice(0);
    assert.deepEqual(await rows(run(r, 0, 10_000, false), 1), [[3090, 309]]);
    assert.deepEqual(reads, [], 'the second query is served from the block cache');
  } finally {
    await r.close();
  }
});

test('an edge block kept decoded is never served for another file: a replacing file answers its own rows', async (t) => {
  const cache = new BlockCache();
  const edges = (shift: number) => [[1050, 100 + 5 + shift], [1060, 100 + 6 + shift], [1070, 100 + 7 + shift]];
  for (const shift of [0, 7, 0]) {
    // A new file each time (a compaction's output, or the same data rewritten), read through one block cache.
    const r = await TsmReader.open(await file(t, 3, shift), { blockCache: cache });
    try {
      for (let k = 0; k < 3; k++) {
        assert.deepEqual(await rows(run(r, 1050, 1075, true)), edges(shift));
        assert.deepEqual(await rows(run(r, 1050, 1075, false)), edges(shift).reverse());
      }
    } finally {
      await r.close();
    }
  }
});

test('gridRange finds the rows lowerBound finds on the materialised grid', () => {
  fc.assert(
    fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1200 }), fc.integer({ min: -2e12, max: 3e12 }), fc.integer({ min: 0, max: 2e12 }), (first, step, count, minOff, span) => {
      const grid = Float64Array.from({ length: count }, (_, i) => first + i * step);
      const maxOff = minOff + span;
      const from = lowerBound(grid, minOff);
      const to = Math.max(from, lowerBound(grid, maxOff + 1, from));
      const got = gridRange(first, step, count, minOff, maxOff);
      assert.deepEqual(got.from < got.to ? got : { from: 0, to: 0 }, from < to ? { from, to } : { from: 0, to: 0 });
    }),
    { numRuns: 3000 },
  );
});
