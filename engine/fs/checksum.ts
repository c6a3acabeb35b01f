/**
 * xxhash64 checksums (xxhash-wasm). The WASM module loads asynchronously once; every engine
 * entry point awaits `initChecksum()` before touching files.
 */
import xxhash from 'xxhash-wasm';
import { InvariantError } from '../errors.js';

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Hasher | undefined;

export async function initChecksum(): Promise<void> {
  hasher ??= await xxhash();
}

/** xxhash64 (seed 0) of `bytes` as an unsigned bigint. One call per block or record, never per value. */
export function checksum64(bytes: Uint8Array): bigint {
  if (!hasher) throw new InvariantError('checksum64 called before initChecksum()');
  return hasher.h64Raw(bytes);
}

/** Low 32 bits of xxhash64, for formats that keep a 4-byte checksum. */
export function checksum32(bytes: Uint8Array): number {
  return Number(checksum64(bytes) & 0xffffffffn);
}
