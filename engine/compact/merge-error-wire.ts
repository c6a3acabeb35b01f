/**
 * A merge that failed in the flush worker comes back as a message; this pair keeps its type
 * across the thread boundary, so the compactor and the service treat it exactly as the same
 * failure of an in-process merge (abort on stop, corruption located in its file, I/O errors).
 */
import { CorruptionError, InvariantError, StorageIoError } from '../errors.js';
import { CompactionAbortedError } from './errors.js';

export type MergeErrorWire =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'corruption'; readonly file: string; readonly offset: number; readonly reason: string }
  | { readonly kind: 'io' | 'invariant' | 'other'; readonly message: string };

export function mergeErrorToWire(err: unknown): MergeErrorWire {
  if (err instanceof CompactionAbortedError) return { kind: 'aborted' };
  if (err instanceof CorruptionError) {
    const prefix = `corruption in ${err.file} at offset ${err.offset}: `;
    return { kind: 'corruption', file: err.file, offset: err.offset, reason: err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message };
  }
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof StorageIoError) return { kind: 'io', message };
  if (err instanceof InvariantError) return { kind: 'invariant', message: message.replace(/^BUG: /, '') };
  return { kind: 'other', message };
}

export function mergeErrorFromWire(w: MergeErrorWire, shardDir: string): Error {
  switch (w.kind) {
    case 'aborted':
      return new CompactionAbortedError(shardDir);
    case 'corruption':
      return new CorruptionError(w.file, w.offset, w.reason);
    case 'io':
      return new StorageIoError(w.message);
    case 'invariant':
      return new InvariantError(w.message);
    case 'other':
      return new Error(`compaction worker: ${w.message}`);
  }
}
