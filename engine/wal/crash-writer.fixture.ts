/**
 * Test fixture, not a test: the process that crash.test.ts SIGKILLs. Run as
 *   node build/engine/wal/crash-writer.fixture.js <dir> <seed> <segmentSizeBytes>
 * it opens the WAL and appends from several concurrent loops as fast as it can, printing
 * `<seq> <nonce> <size>` for every acknowledged append. stdout is a pipe, and pipe writes
 * are synchronous in Node on Linux, so a printed line means the ack happened before the kill.
 * `fixtureEntry(nonce, size)` rebuilds the exact entry, which the test compares byte for byte.
 */
import { argv, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import type { WalWriteAppend } from './record.js';
import { Wal } from './wal.js';
import { mulberry32 } from '../random.js';

const PRECISIONS = ['ns', 'ms', 's'] as const;
const CONCURRENT_APPENDERS = 16;

/** A deterministic entry of `size` line bytes whose content depends on `nonce`. */
export function fixtureEntry(nonce: number, size: number): WalWriteAppend {
  const line = Buffer.from(`m${nonce % 97},host=h${nonce} v=${nonce}i ${nonce}\n`);
  const lines = Buffer.allocUnsafe(size);
  for (let at = 0; at < size; at += line.length) lines.set(line.subarray(0, Math.min(line.length, size - at)), at);
  return {
    db: `db${nonce % 3}`,
    rp: nonce % 2 === 0 ? 'autogen' : 'week',
    precision: PRECISIONS[nonce % PRECISIONS.length] ?? 'ns',
    defaultSec: 1_700_000_000 + (nonce % 100_000),
    defaultNsec: nonce % 1_000_000_000,
    lines,
  };
}

async function main(dir: string, seed: number, segmentSizeBytes: number): Promise<void> {
  const wal = await Wal.open(dir, { segmentSizeBytes });
  stdout.write('ready\n');
  const random = mulberry32(seed);
  const appender = async (): Promise<void> => {
    for (;;) {
      const nonce = Math.floor(random() * 1e9);
      // Mostly small entries, some up to 512 KiB, so kills also land inside large writes.
      const r = random();
      const size = Math.floor(random() * (r < 0.8 ? 2048 : r < 0.95 ? 65536 : 524288));
      const seq = await wal.append(fixtureEntry(nonce, size));
      stdout.write(`${seq} ${nonce} ${size}\n`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_APPENDERS }, appender));
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, seed, segmentSize] = argv.slice(2);
  if (dir === undefined) {
    stdout.write('usage: crash-writer.fixture.js <dir> <seed> <segmentSizeBytes>\n');
    process.exitCode = 2;
  } else {
    await main(dir, Number(seed ?? 1), Number(segmentSize ?? 65536));
  }
}
