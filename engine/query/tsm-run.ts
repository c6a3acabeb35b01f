/**
 * A SortedRun over one key of one TSM file: reads the blocks overlapping the range lazily
 * (verified by checksum in the reader, cached in the block cache), decodes them relative to
 * the shard base and clips them. Blocks are read in chunks of neighbours with one read each:
 * the first chunk up to FIRST_READ_BYTES (a series-field of a few blocks, or the first()/last()
 * of one, costs one small read: a read's cost is mostly its fixed latency), later ones up to
 * READ_AHEAD_BYTES, each already being read while the previous one is decoded. A damaged block
 * (checksum, or cut short) is skipped: the reader reports it once (tsm/file-set.ts logs it) and
 * it is never served as data, while the rest of the key is. A block lying wholly inside the range and untouched by tombstones is
 * returned undecoded as a StatsBlock (its index stats, lazy decode); RunMerger decides
 * whether it can pass through whole.
 */
import { blockCount, decodeBlock, decodeBlockTimeGrid, decodeBlockTimes, decodeBlockValues, type DecodeBuffers } from '../encoding/block.js';
import { CorruptionError } from '../errors.js';
import type { BlockEntry } from '../tsm/block-index.js';
import type { BlockRun, TsmReader } from '../tsm/reader.js';
import { clipOwnedBlock, lowerBound, type RunBlock, type SortedRun } from './run.js';
import { ColumnBuilder, copyColumn, sliceColumn } from './column-builder.js';
import { BATCH_SIZE } from './cursor.js';
import { StatsBlock } from './stats-block.js';
import { DecodedBlocks } from './decoded-blocks.js';

/** Rows of `block` outside every hidden range. */
function dropHidden(block: RunBlock, hidden: readonly (readonly [number, number])[]): RunBlock {
  const offs = block.offsets;
  const keep: number[] = [];
  for (let i = 0; i < offs.length; i++) {
    const t = offs[i]!;
    let hit = false;
    for (const [lo, hi] of hidden) if (t >= lo && t <= hi) hit = true;
    if (!hit) keep.push(i);
  }
  if (keep.length === offs.length) return block;
  const b = new ColumnBuilder(block.column.type, Math.max(1, keep.length));
  const offsets = new Float64Array(keep.length);
  keep.forEach((i, k) => {
    offsets[k] = offs[i]!;
    b.appendRange(block.column, i, i + 1);
  });
  return { offsets, column: b.column() };
}

/**
 * Decode buffers of blocks that stick out of the range: such a block is decoded here (decoding
 * is synchronous, so one set serves every run) and only its rows in range are copied out.
 */
const scratch: { offsets: Float64Array } & DecodeBuffers = { offsets: new Float64Array(1024), numbers: new Float64Array(1024), booleans: new Uint8Array(1024) };

function scratchFor(n: number): typeof scratch {
  if (scratch.offsets.length < n) {
    scratch.offsets = new Float64Array(n);
    scratch.numbers = new Float64Array(n);
    scratch.booleans = new Uint8Array(n);
  }
  return scratch;
}

/**
 * Decoded edge blocks of every run of the process, and whole blocks whose timestamps a
 * consumer read (stats-block.ts) (decoded-blocks.ts: keyed by the block cache's payloads, so
 * shared safely between engines; a small fixed budget).
 */
const edgeBlocks = new DecodedBlocks();

const FIRST_READ_BYTES = 64 * 1024;
/** Largest span read at once; bounds a run's buffered bytes to two such spans. */
const READ_AHEAD_BYTES = 256 * 1024;

interface Chunk {
  readonly from: number;
  readonly len: number;
  readonly run: Promise<BlockRun>;
  /** The read's result once it has arrived (so later blocks of the chunk are taken without awaiting). */
  done?: BlockRun;
}

/** Entry positions [start, end) of the key at position `key` of a file's index (file-runs finds them). */
export interface KeyBlocks {
  readonly key: number;
  readonly start: number;
  readonly end: number;
}

export class TsmRun implements SortedRun {
  /** Entries in run order, made from the index only when the run reaches them (most runs of a LIMIT query stop at the first). */
  private readonly entries: (BlockEntry | undefined)[] = [];
  private readonly count: number;
  private i = 0;
  private current: Chunk | undefined;
  private ahead: Chunk | undefined;
  private limit = FIRST_READ_BYTES;

  constructor(
    private readonly reader: TsmReader,
    private readonly key: string,
    /** The key's blocks overlapping the range. */
    private readonly blocks: KeyBlocks,
    private readonly baseNs: bigint,
    private readonly minOff: number,
    private readonly maxOff: number,
    private readonly ascending: boolean,
    readonly priority: number,
    /** Hidden [min, max] offset ranges (tombstones), relative to baseNs. */
    private readonly hidden: readonly (readonly [number, number])[] = [],
  ) {
    this.count = Math.max(0, blocks.end - blocks.start);
    this.startBound = this.count > 0 ? startBoundOf(this.entry(0), baseNs, minOff, maxOff, ascending) : undefined;
  }

  /** From the block index: the first block's min (ascending) or max (descending) time. */
  readonly startBound: number | undefined;

  /** The i-th block in run order (time order, reversed when descending). */
  private entry(i: number): BlockEntry {
    let e = this.entries[i];
    if (e === undefined) {
      const { key, start, end } = this.blocks;
      e = this.entries[i] = this.reader.index.entryAt(key, this.ascending ? start + i : end - 1 - i);
    }
    return e;
  }

  async next(): Promise<RunBlock | null> {
    for (;;) {
      const b = this.nextNow();
      if (b !== undefined) return b;
      await this.load(this.i);
    }
  }

  nextNow(): RunBlock | null | undefined {
    while (this.i < this.count) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = this.payloadNow(this.i);
      } catch (err) {
        // Logged by the reader's file set the first time; the key's other blocks are served.
        if (!(err instanceof CorruptionError) || !this.reader.isDamaged(this.entry(this.i))) throw err;
        this.i++;
        continue;
      }
      if (bytes === undefined) return undefined;
      const entry = this.entry(this.i++);
      if (this.isWhole(entry)) {
        const kept = this.reader.cachedBlock(entry) === bytes ? edgeBlocks : undefined;
        return new StatsBlock(this.baseNs, bytes, this.ascending, StatsBlock.statsOf(entry, this.baseNs, this.ascending), this.reader.path, kept);
      }
      const clipped = this.overhangs(entry) ? this.decodeInRange(bytes, entry) : clipOwnedBlock(decodeBlock(bytes, this.baseNs), this.minOff, this.maxOff, this.ascending);
      const visible = clipped && this.hidden.length > 0 ? dropHidden(clipped, this.hidden) : clipped;
      if (visible && visible.offsets.length > 0) return visible;
    }
    return null;
  }

  close(): void {
    this.i = this.count;
    this.current = undefined;
    this.ahead = undefined;
  }

  /** Block j's payload when it is in memory (block cache, or a chunk already read), else undefined. */
  private payloadNow(j: number): Uint8Array | undefined {
    const hit = this.reader.cachedBlock(this.entry(j));
    if (hit) return hit;
    const c = this.current;
    if (!c?.done || j < c.from || j >= c.from + c.len) return undefined;
    const next = c.from + c.len;
    // Not after the first chunk: a first()/last() stops there, and most keys fit in it.
    if (!this.ahead && c.from > 0 && next < this.count) this.ahead = this.read(next);
    return c.done.payload(j - c.from);
  }

  /** Reads the chunk holding block j (or takes the one read ahead) until payloadNow(j) answers. */
  private async load(j: number): Promise<void> {
    let c = this.current;
    if (!c || j < c.from || j >= c.from + c.len) {
      c = this.ahead?.from === j ? this.ahead : this.read(j);
      this.current = c;
      this.ahead = undefined;
    }
    await c.run;
  }

  /** Starts reading the chunk of blocks from entry `from`. */
  private read(from: number): Chunk {
    const chunk: BlockEntry[] = [];
    let bytes = 0;
    while (from + chunk.length < this.count) {
      const e = this.entry(from + chunk.length);
      if (chunk.length > 0 && bytes + e.size > this.limit) break;
      bytes += e.size;
      chunk.push(e);
    }
    const len = chunk.length;
    // The first read goes on into the next keys' blocks: the scan's next series-fields then
    // start without a read of their own (TsmReader.readBlocks).
    const follow = this.limit === FIRST_READ_BYTES ? { spanBytes: FIRST_READ_BYTES } : undefined;
    this.limit = READ_AHEAD_BYTES;
    const run = this.reader.readBlocks(this.key, chunk, follow);
    const c: Chunk = { from, len, run };
    // A read ahead of a closed run may fail unobserved; load() awaits `run` and sees the error.
    run.then((r) => (c.done = r), () => undefined);
    return c;
  }

  /** Whether the block has rows outside the range (so decoding all of it into fresh arrays would be wasted). */
  private overhangs(entry: BlockEntry): boolean {
    return Number(entry.minTime - this.baseNs) < this.minOff || Number(entry.maxTime - this.baseNs) > this.maxOff;
  }

  /**
   * The block's rows in range, in cursor order, out of its decoded form: kept in
   * `edgeBlocks` when the payload is the block cache's (so the next query over the same edge
   * decodes nothing), else decoded into the shared scratch, values only up to the last row in
   * range (integer blocks stop there).
   */
  private decodeInRange(bytes: Uint8Array, entry: BlockEntry): RunBlock | null {
    let whole = edgeBlocks.get(bytes, this.baseNs);
    if (!whole && this.reader.cachedBlock(entry) === bytes) {
      whole = decodeBlock(bytes, this.baseNs);
      edgeBlocks.set(bytes, this.baseNs, whole);
    }
    if (!whole) return this.decodePartInRange(bytes);
    const from = lowerBound(whole.offsets, this.minOff);
    const to = lowerBound(whole.offsets, this.maxOff + 1, from);
    if (from >= to) return null;
    // Ascending: views of the kept block (batches are read-only to consumers; no copy, no
    // off-heap allocation per query). Descending reverses, so into arrays of its own.
    if (this.ascending) return { offsets: whole.offsets.subarray(from, to), column: sliceColumn(whole.column, from, to) };
    return this.inCursorOrder({ offsets: whole.offsets.slice(from, to), column: copyColumn(whole.column, from, to) });
  }

  /** decodeInRange without keeping the decoded block: into the scratch, and no further than needed. */
  private decodePartInRange(bytes: Uint8Array): RunBlock | null {
    const count = blockCount(bytes);
    const buffers = scratchFor(count);
    const grid = decodeBlockTimeGrid(bytes, this.baseNs);
    let from: number;
    let to: number;
    let offsets: Float64Array;
    if (grid) {
      // Regular timestamps: the rows in range by arithmetic, only those materialised.
      ({ from, to } = gridRange(grid.first, grid.step, count, this.minOff, this.maxOff));
      if (from >= to) return null;
      offsets = new Float64Array(to - from);
      for (let i = from; i < to; i++) offsets[i - from] = grid.first + i * grid.step;
    } else {
      const all = decodeBlockTimes(bytes, this.baseNs, buffers.offsets);
      from = lowerBound(all, this.minOff);
      to = lowerBound(all, this.maxOff + 1, from);
      if (from >= to) return null;
      offsets = all.slice(from, to);
    }
    const column = decodeBlockValues(bytes, count, buffers, to);
    return this.inCursorOrder({ offsets, column: copyColumn(column, from, to) });
  }

  /** An ascending block of rows in range, owned by the caller, in cursor order. */
  private inCursorOrder(block: RunBlock): RunBlock | null {
    return this.ascending ? block : clipOwnedBlock(block, this.minOff, this.maxOff, false);
  }

  /** Inside the range, no hidden row in its time span, and small enough for one batch. */
  private isWhole(entry: BlockEntry): boolean {
    if (entry.count > BATCH_SIZE) return false;
    const first = Number(entry.minTime - this.baseNs);
    const last = Number(entry.maxTime - this.baseNs);
    if (first < this.minOff || last > this.maxOff) return false;
    for (const [lo, hi] of this.hidden) if (lo <= last && hi >= first) return false;
    return true;
  }
}

/** Rows [from, to) of the grid first + i * step (i < count) within [minOff, maxOff]. */
export function gridRange(first: number, step: number, count: number, minOff: number, maxOff: number): { from: number; to: number } {
  const at = (i: number) => first + i * step;
  // Estimates by division, then made exact by comparing the (exact, below 2^53) grid points.
  let from = Math.min(count, Math.max(0, Math.ceil((minOff - first) / step)));
  while (from > 0 && at(from - 1) >= minOff) from--;
  while (from < count && at(from) < minOff) from++;
  let to = Math.min(count, Math.max(from, Math.floor((maxOff - first) / step) + 1));
  while (to > from && at(to - 1) > maxOff) to--;
  while (to < count && at(to) <= maxOff) to++;
  return { from, to };
}

function startBoundOf(first: BlockEntry | undefined, baseNs: bigint, minOff: number, maxOff: number, ascending: boolean): number | undefined {
  if (!first) return undefined;
  return ascending ? Math.max(minOff, Number(first.minTime - baseNs)) : Math.min(maxOff, Number(first.maxTime - baseNs));
}
