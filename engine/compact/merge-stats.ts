/** What one merge did; the service sums these into its counters. */
export interface MergeStats {
  /** Distinct keys in the inputs. */
  keys: number;
  /** Input blocks, and how they were handled: copied unchanged (fast path) or decoded. */
  blocksIn: number;
  blocksCopied: number;
  blocksDecoded: number;
  /** Output blocks encoded from merged rows (copied blocks are not counted here). */
  blocksEncoded: number;
  valuesIn: number;
  valuesOut: number;
  /** Rows dropped because a tombstone hid them. */
  rowsPurged: number;
  /** Rows dropped because a newer input had the same timestamp. */
  rowsOverwritten: number;
  /** Blocks skipped because their key had another type in a newer input. */
  blocksTypeConflict: number;
  /** Blocks left out because they failed their checksum (their inputs go to quarantine, not away). */
  blocksDamaged: number;
}

export function emptyMergeStats(): MergeStats {
  return {
    keys: 0,
    blocksIn: 0,
    blocksCopied: 0,
    blocksDecoded: 0,
    blocksEncoded: 0,
    valuesIn: 0,
    valuesOut: 0,
    rowsPurged: 0,
    rowsOverwritten: 0,
    blocksTypeConflict: 0,
    blocksDamaged: 0,
  };
}

/** Adds `b` into `a`. */
export function addMergeStats(a: MergeStats, b: MergeStats): void {
  for (const k of Object.keys(a) as (keyof MergeStats)[]) a[k] += b[k];
}
