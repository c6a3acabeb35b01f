import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { join } from 'node:path';
import { fieldKey } from '../cache/cache.js';
import { CorruptionError } from '../errors.js';
import { FieldType } from '../point.js';
import { openPositionalFile } from '../tsm/positional-file.js';
import type { FileOpener } from '../tsm/positional-file.js';
import { TsmReader } from '../tsm/reader.js';
import { tempDir } from '../tsm/test-support.js';
import { chunkBytesFor, readAheadOpener } from './read-ahead.js';
import { writeRows } from './test-support.js';
import type { KeyRows } from './test-support.js';

const BASE = 1_600_000_000_000_000_000n;

function counting(): { opener: FileOpener; reads: number[] } {
  const reads: number[] = [];
  const opener: FileOpener = async (path) => {
    const f = await openPositionalFile(path);
    return {
      size: f.size,
      read: (buf, pos) => {
        reads.push(buf.length);
        return f.read(buf, pos);
      },
      readSync: (buf, pos) => f.readSync(buf, pos),
      close: () => f.close(),
    };
  };
  return { opener, reads };
}

async function sampleFile(dir: string): Promise<string> {
  const keys: KeyRows[] = Array.from({ length: 30 }, (_, k) => ({
    key: fieldKey(`m,k=${String(k).padStart(2, '0')}`, 'v'),
    type: FieldType.Float,
    rows: Array.from({ length: 500 }, (_, i) => [i * 1000, Math.sin(i + k)] as const),
  }));
  const path = join(dir, 'a.tsm');
  await writeRows(path, BASE, keys, 10);
  return path;
}

test('read-ahead serves every block as a plain reader does, with far fewer reads', async (t) => {
  const dir = await tempDir(t, 'compact-readahead');
  const path = await sampleFile(dir);
  const plain = await TsmReader.open(path);
  const { opener, reads } = counting();
  const ahead = await TsmReader.open(path, { openFile: readAheadOpener(16 * 1024, opener) });
  let blocks = 0;
  for (const key of plain.keys()) {
    for (const e of plain.entries(key)) {
      assert.deepEqual(await ahead.readBlock(key, e), await plain.readBlock(key, e));
      blocks++;
    }
  }
  assert.equal(blocks, 1500);
  assert.ok(reads.length < blocks / 20, `${reads.length} reads for ${blocks} blocks`);
  await Promise.all([plain.close(), ahead.close()]);
  await rm(dir, { recursive: true, force: true });
});

test('read-ahead: a damaged block is still reported as corruption', async (t) => {
  const dir = await tempDir(t, 'compact-readahead-bad');
  const path = await sampleFile(dir);
  const reader = await TsmReader.open(path, { openFile: readAheadOpener(4096) });
  const key = [...reader.keys()][7]!;
  const victim = reader.entries(key)[3]!;
  const fh = await open(path, 'r+');
  await fh.write(Uint8Array.of(0xff ^ (await fh.read(Buffer.alloc(1), 0, 1, victim.offset + 6)).buffer[0]!), 0, 1, victim.offset + 6);
  await fh.close();
  let damaged = 0;
  for (const k of reader.keys()) {
    for (const e of reader.entries(k)) {
      try {
        await reader.readBlock(k, e);
      } catch (err) {
        assert.ok(err instanceof CorruptionError);
        assert.equal(err.offset, victim.offset);
        damaged++;
      }
    }
  }
  assert.equal(damaged, 1);
  await reader.close();
  await rm(dir, { recursive: true, force: true });
});

test('read-ahead chunks shrink with the number of inputs, within bounds', () => {
  assert.equal(chunkBytesFor(1), 256 * 1024);
  assert.equal(chunkBytesFor(32), 256 * 1024);
  assert.equal(chunkBytesFor(64), 128 * 1024);
  assert.equal(chunkBytesFor(10_000), 16 * 1024);
});

test('read-ahead returns the file bytes for any mix of forward reads, jumps back and reads past the end', async (t) => {
  const dir = await tempDir(t, 'compact-readahead-prop');
  const path = join(dir, 'blob');
  const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
  await writeFile(path, bytes);
  const expect = await readFile(path);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 16, max: 700 }),
      fc.array(fc.record({ jump: fc.integer({ min: -300, max: 900 }), len: fc.integer({ min: 1, max: 800 }) }), { maxLength: 60 }),
      async (chunk, reads) => {
        const f = await readAheadOpener(chunk)(path);
        let pos = 0;
        try {
          for (const { jump, len } of reads) {
            pos = Math.max(0, pos + jump);
            const buf = new Uint8Array(len);
            const n = await f.read(buf, pos);
            assert.equal(n, Math.max(0, Math.min(len, expect.length - pos)));
            assert.deepEqual(buf.subarray(0, n), new Uint8Array(expect.subarray(pos, pos + n)));
          }
        } finally {
          await f.close();
        }
      },
    ),
    { numRuns: 150 },
  );
  await rm(dir, { recursive: true, force: true });
});
