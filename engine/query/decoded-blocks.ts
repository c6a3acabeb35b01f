/**
 * Decoded forms of the blocks that stick out of a query's range (tsm-run.ts decodeInRange) and
 * of whole blocks inside it whose timestamps were read (stats-block.ts), so a query repeated
 * over a moving or fixed window (a dashboard panel) does not decode its blocks in full on
 * every request (its two edge blocks to use a few rows of each, the ones between to spread
 * their rows over GROUP BY time windows).
 *
 * Keyed by the payload object the block cache hands out: while the block cache holds a block,
 * every read of it returns the same Uint8Array, and a block of a replaced or removed file is
 * never handed out again (its reader's entries are evicted, a new file has new payloads), so
 * an entry can only be found for the exact bytes it was decoded from. Entries of such files
 * are not found any more and age out under CLOCK eviction as in the block cache; a block is
 * kept only when it is decoded a second time while its payload is still remembered
 * (reuse-admitted-map.ts), so a query over more blocks than the budget keeps nothing of them
 * instead of flushing the reused ones. The bytes counted include the pinned payload.
 *
 * Bounded memory is a promise to edge users: the budget is a small fixed constant (no spec
 * key covers it), counted per entry as decoded arrays + payload + a fixed overhead. String
 * blocks are not kept (their size is not known cheaply).
 */
import { ClockMap } from '../clock-map.js';
import { FieldType, type ValueColumn } from '../point.js';
import { ReuseAdmittedMap } from './reuse-admitted-map.js';

/** Budget of one DecodedBlocks: ~250 blocks of 1000 numeric rows. */
export const DECODED_BLOCKS_MAX_BYTES = 4 * 1024 * 1024;
/** Estimated bytes of a Map entry, the entry object and two array wrappers. */
export const DECODED_BLOCK_OVERHEAD = 256;

export interface DecodedBlock {
  /** Offsets from `base`, ascending. */
  readonly offsets: Float64Array;
  readonly column: ValueColumn;
}

/** Budget of the last values kept apart from whole blocks (lastValue): ~2,500 blocks of 300 bytes. */
export const DECODED_LAST_VALUES_MAX_BYTES = 1024 * 1024;

export class DecodedBlocks {
  /** Kept on the second decode only (reuse-admitted-map.ts): a block kept briefly and evicted is old-space garbage. */
  private readonly map: ReuseAdmittedMap<Uint8Array, { readonly base: bigint; readonly block: DecodedBlock }>;
  /**
   * Blocks' last values alone (one-element columns), from descending reads that take a
   * block's newest row and nothing else (ORDER BY time DESC LIMIT 1 over every series: one
   * row per series-field). Kept apart: a whole block costs ~60 times as much, and a budget
   * shared with those made such reads evict each other's whole blocks.
   */
  private readonly lastValues: ClockMap<Uint8Array, ValueColumn>;

  constructor(
    readonly maxBytes = DECODED_BLOCKS_MAX_BYTES,
    lastValueBytes = DECODED_LAST_VALUES_MAX_BYTES,
  ) {
    this.map = new ReuseAdmittedMap(maxBytes);
    this.lastValues = new ClockMap(lastValueBytes);
  }

  /** The last value of `payload` (as a one-element column), if kept. Shared: read-only. */
  lastValue(payload: Uint8Array): ValueColumn | undefined {
    return this.lastValues.get(payload);
  }

  setLastValue(payload: Uint8Array, column: ValueColumn): void {
    if (column.type === FieldType.String) return;
    this.lastValues.set(payload, column, payload.byteLength + DECODED_BLOCK_OVERHEAD);
  }

  /** The decoded form of `payload` relative to `base`, if kept. Shared: read-only. */
  get(payload: Uint8Array, base: bigint): DecodedBlock | undefined {
    const e = this.map.get(payload);
    return e !== undefined && e.base === base ? e.block : undefined;
  }

  set(payload: Uint8Array, base: bigint, block: DecodedBlock): void {
    if (block.column.type === FieldType.String) {
      this.map.delete(payload);
      return;
    }
    const cost = block.offsets.byteLength + (block.column.values as ArrayBufferView).byteLength + payload.byteLength + DECODED_BLOCK_OVERHEAD;
    this.map.set(payload, { base, block }, cost);
  }

  get usedBytes(): number {
    return this.map.usedBytes;
  }

  get size(): number {
    return this.map.size;
  }
}
