/**
 * Whole-file xxhash64 for backup manifests, streamed in chunks so a 256 MiB TSM file is never
 * held in memory. Same hash family (xxhash64, seed 0) as engine/fs/checksum.ts; it lives here
 * because checksum.ts only offers one-shot hashing of a buffer.
 */
import { open } from 'node:fs/promises';
import xxhash from 'xxhash-wasm';

type Api = Awaited<ReturnType<typeof xxhash>>;
let api: Api | undefined;

const CHUNK = 1 << 20;

export interface FileDigest {
  readonly size: number;
  /** xxhash64 (seed 0) of the whole file, 16 lowercase hex digits. */
  readonly xxhash64: string;
}

/** Digest of the first `limit` bytes of `path` (the whole file when limit is undefined). */
export async function hashFile(path: string, limit?: number): Promise<FileDigest> {
  api ??= await xxhash();
  const h = api.create64(0n);
  const fh = await open(path, 'r');
  try {
    const end = limit ?? (await fh.stat()).size;
    const buf = Buffer.allocUnsafe(CHUNK);
    let pos = 0;
    while (pos < end) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, end - pos), pos);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    return { size: pos, xxhash64: hex64(h.digest()) };
  } finally {
    await fh.close();
  }
}

/** xxhash64 of an in-memory buffer, in manifest form. */
export async function hashBytes(bytes: Uint8Array): Promise<FileDigest> {
  api ??= await xxhash();
  return { size: bytes.length, xxhash64: hex64(api.h64Raw(bytes)) };
}

function hex64(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}
