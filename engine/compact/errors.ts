/**
 * Compaction errors. A compaction that fails or is cancelled changes nothing: its inputs keep
 * serving and its outputs are removed (compactor.ts), so none of these reach a client.
 */
import { StrataError } from '../errors.js';

/** The service was stopped while a compaction ran; its partial outputs were discarded. */
export class CompactionAbortedError extends StrataError {
  constructor(readonly shardDir: string) {
    super('compaction_aborted', 503, `compaction of ${shardDir} aborted: service stopping`);
  }
}

/** The plan no longer matches the shard's live files (another process changed them). */
export class StalePlanError extends StrataError {
  constructor(
    readonly shardDir: string,
    readonly file: string,
  ) {
    super('compaction_stale_plan', 500, `compaction plan for ${shardDir} names ${file}, which is no longer live`);
  }
}
