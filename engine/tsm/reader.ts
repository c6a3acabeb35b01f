/**
 * Read-only view of one published TSM file.
 *
 * `open` reads exactly three regions (header, footer, index) with positional reads and
 * validates them: magics, version, footer checksum, size equation, index checksum, index
 * structure. Anything wrong throws CorruptionError (the file set quarantines the file). Block
 * payloads are read one block at a time, or as a run of neighbouring blocks in one read
 * (`readBlocks`, for scans), and each is verified against its stored checksum before it is
 * returned or cached: a damaged block throws CorruptionError with the block's file offset and
 * never yields bytes. The reader never reads the whole file (see positional-file.ts).
 *
 * Returned payloads may come from the shared BlockCache: treat them as read-only.
 */
import { Buffer } from 'node:buffer';
import { CorruptionError, InvariantError } from '../errors.js';
import { checksum32, checksum64, initChecksum } from '../fs/checksum.js';
import type { FieldType } from '../point.js';
import { allocateFileId } from './block-cache.js';
import type { BlockCache } from './block-cache.js';
import { BlockIndex } from './block-index.js';
import type { BlockEntry } from './block-index.js';
import type { IndexTables } from './index-tables.js';
import { BLOCK_CHECKSUM_SIZE, FOOTER_SIZE, HEADER_SIZE } from './format.js';
import { openPositionalFile } from './positional-file.js';
import type { FileOpener, PositionalFile } from './positional-file.js';
import { checkMinimumSize, decodeFooter, decodeHeader } from './sections.js';
import { recentSpans } from './recent-spans.js';
import type { TsmFileInfo } from './writer.js';

export interface TsmReaderOptions {
  /** Shared cache of verified payloads; without one every readBlock goes to disk. */
  readonly blockCache?: BlockCache;
  /** I/O seam for tests (byte counting, fault injection); defaults to node:fs positional reads. */
  readonly openFile?: FileOpener;
  /**
   * The file's index as another reader of it decoded and validated it (the flush worker, which
   * wrote the file): not read, checked or parsed again here. Parsing a flushed file's index
   * held the event loop 45-85 ms per file of 10,000 series-fields (perf/README.md 27).
   */
  readonly index?: IndexTables;
  /** Told once per damaged block, the first time a read finds it (the file set logs it). */
  readonly onBlockDamage?: (err: CorruptionError) => void;
}

/** Result of `readBlocks`: payload(i) is the verified payload of entries[i] (throws CorruptionError). */
export interface BlockRun {
  readonly length: number;
  payload(i: number): Uint8Array;
}

export interface TsmStats {
  readonly keys: number;
  readonly blocks: number;
  /** File size in bytes. */
  readonly bytes: number;
  readonly values: number;
}

export class TsmReader {
  /** Process-unique id; the block cache key prefix. */
  readonly fileId = allocateFileId();
  private closed = false;
  /** Blocks found damaged so far, by file offset: scans skip them (query/tsm-run.ts). */
  private readonly damaged = new Set<number>();

  private constructor(
    readonly path: string,
    readonly level: number,
    /** The file's index; exposed for cursors and compaction that walk keys by position. */
    readonly index: BlockIndex,
    private readonly file: PositionalFile,
    private readonly indexOffset: number,
    private readonly cache: BlockCache | undefined,
    private readonly onBlockDamage: ((err: CorruptionError) => void) | undefined,
  ) {}

  static async open(path: string, options: TsmReaderOptions = {}): Promise<TsmReader> {
    await initChecksum();
    const file = await (options.openFile ?? openPositionalFile)(path);
    try {
      checkMinimumSize(path, file.size);
      const header = await readExactly(file, path, HEADER_SIZE, 0);
      const { version, level } = decodeHeader(path, header);
      const footerBytes = await readExactly(file, path, FOOTER_SIZE, file.size - FOOTER_SIZE);
      const footer = decodeFooter(path, header, footerBytes, file.size);
      if (options.index) {
        const index = BlockIndex.fromTables(options.index);
        if (index.keyCount !== footer.keyCount || index.blockCount !== footer.blockCount) throw new InvariantError(`index tables passed for ${path} do not match its footer`);
        return new TsmReader(path, level, index, file, footer.indexOffset, options.blockCache, options.onBlockDamage);
      }
      const indexBytes = await readExactly(file, path, footer.indexSize, footer.indexOffset);
      if (checksum64(indexBytes) !== footer.indexChecksum) {
        throw new CorruptionError(path, footer.indexOffset, 'index checksum mismatch');
      }
      const index = BlockIndex.parse(indexBytes, {
        file: path,
        indexOffset: footer.indexOffset,
        keyCount: footer.keyCount,
        blockCount: footer.blockCount,
      }, version);
      return new TsmReader(path, level, index, file, footer.indexOffset, options.blockCache, options.onBlockDamage);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** Keys in byte order. */
  keys(): IterableIterator<string> {
    return this.index.keys();
  }

  hasKey(key: string): boolean {
    return this.index.findKey(key) >= 0;
  }

  /** Block type of `key`, or undefined when the file does not hold it. */
  type(key: string): FieldType | undefined {
    const i = this.index.findKey(key);
    return i < 0 ? undefined : this.index.typeAt(i);
  }

  /** All blocks of `key` in time order ([] when absent). */
  entries(key: string): BlockEntry[] {
    const i = this.index.findKey(key);
    return i < 0 ? [] : this.index.entriesAt(i);
  }

  /** Blocks of `key` overlapping [minTime, maxTime] (inclusive), in time order. */
  entriesInRange(key: string, minTime: bigint, maxTime: bigint): BlockEntry[] {
    const i = this.index.findKey(key);
    if (i < 0) return [];
    const { start, end } = this.index.entryRangeAt(i, minTime, maxTime);
    const out: BlockEntry[] = [];
    for (let j = start; j < end; j++) out.push(this.index.entryAt(i, j));
    return out;
  }

  get keyRange(): { readonly min: string; readonly max: string } {
    return { min: this.index.keyAt(0), max: this.index.keyAt(this.index.keyCount - 1) };
  }

  get timeRange(): { readonly min: bigint; readonly max: bigint } {
    return { min: this.index.minTime, max: this.index.maxTime };
  }

  /** The verified payload of one block. `key` is used for error context only. */
  async readBlock(key: string, entry: BlockEntry): Promise<Uint8Array> {
    const cached = this.lookup(entry);
    if (cached) return cached;
    const record = new Uint8Array(BLOCK_CHECKSUM_SIZE + entry.size);
    return this.verify(key, entry, record, await this.file.read(record, entry.offset));
  }

  /**
   * The verified payload of a block when the block cache holds it, else undefined (no I/O).
   * A run checks this before reading a span, so a block kept from an earlier query is not
   * read again with neighbours that were read but never used (and so never cached).
   */
  cachedBlock(entry: BlockEntry): Uint8Array | undefined {
    return this.lookup(entry);
  }

  /**
   * Payloads of several blocks (usually consecutive blocks of one key, in either order) with one
   * read of the byte span they cover, minus blocks already in the block cache. Each payload is
   * verified when taken from the result, so a damaged block fails only when it is reached.
   *
   * `follow` (a key's first read): the read goes on to `follow.spanBytes` from its start (not
   * past the blocks), and the bytes are kept among a few recent spans; a later read that falls
   * inside one (the next keys' blocks come next in the file) takes its blocks from there. A scan
   * opens series-fields in key order, one run each: in a file no query has read yet (every file
   * a flush or compaction just published) each run otherwise paid a read of a few hundred bytes
   * and a round trip through the thread pool and the event loop, seconds in all behind busy
   * statements (perf/README.md 27). Kept as read, not verified or cached ahead: a scan of one
   * field in ten takes only its own blocks.
   */
  async readBlocks(key: string, entries: readonly BlockEntry[], follow?: { readonly spanBytes: number }): Promise<BlockRun> {
    const cached = entries.map((e) => this.lookup(e));
    let lo = Infinity;
    let hi = -Infinity;
    entries.forEach((e, i) => {
      if (cached[i]) return;
      lo = Math.min(lo, e.offset);
      hi = Math.max(hi, e.offset + BLOCK_CHECKSUM_SIZE + e.size);
    });
    if (lo === Infinity) return { length: entries.length, payload: (i) => cached[i]! };
    // Only beside a block cache (the engine's readers): one without keeps one read per call,
    // and callers that loop over reads without other turns (tests, tools) keep their turns.
    let from = this.cache && recentSpans.find(this, lo, hi);
    if (!from) {
      const end = follow && this.cache ? Math.max(hi, Math.min(this.indexOffset, lo + follow.spanBytes)) : hi;
      const span = new Uint8Array(end - lo);
      const got = await this.file.read(span, lo);
      from = { lo, bytes: span.subarray(0, got) };
      if (end > hi) recentSpans.keep(this, from);
    }
    const { lo: spanLo, bytes: span } = from;
    return {
      length: entries.length,
      payload: (i) => {
        const hit = cached[i];
        if (hit) return hit;
        const e = entries[i]!;
        const at = e.offset - spanLo;
        const record = span.subarray(at, at + BLOCK_CHECKSUM_SIZE + e.size);
        // Cached payloads are copied out so a cache entry does not pin the whole span.
        cached[i] = this.verify(key, e, record, Math.max(0, Math.min(record.length, span.length - at)), this.cache !== undefined);
        return cached[i];
      },
    };
  }

  /**
   * Synchronous `readBlock`. Trade-off: a cursor can pull blocks in a plain loop with no
   * promise per block (cheap when the page cache or block cache hits), but a cold read blocks
   * the event loop for a full disk access (milliseconds on an SD card), stalling every HTTP
   * request. Use it in worker threads (compaction, query workers), not on the main thread.
   */
  readBlockSync(key: string, entry: BlockEntry): Uint8Array {
    const cached = this.lookup(entry);
    if (cached) return cached;
    const record = new Uint8Array(BLOCK_CHECKSUM_SIZE + entry.size);
    return this.verify(key, entry, record, this.file.readSync(record, entry.offset));
  }

  stats(): TsmStats {
    return { keys: this.index.keyCount, blocks: this.index.blockCount, bytes: this.file.size, values: this.index.valueCount };
  }

  info(): TsmFileInfo {
    const { min: minKey, max: maxKey } = this.keyRange;
    return {
      path: this.path,
      level: this.level,
      size: this.file.size,
      keyCount: this.index.keyCount,
      blockCount: this.index.blockCount,
      valueCount: this.index.valueCount,
      minKey,
      maxKey,
      minTime: this.index.minTime,
      maxTime: this.index.maxTime,
    };
  }

  /** Closes the file and drops its cached blocks. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cache?.evictFile(this.fileId);
    recentSpans.drop(this);
    await this.file.close();
  }

  /** Blocks found damaged so far. */
  get damagedBlocks(): number {
    return this.damaged.size;
  }

  /** Whether a read of this block failed its checks (the block stays damaged: files are immutable). */
  isDamaged(entry: BlockEntry): boolean {
    return this.damaged.size > 0 && this.damaged.has(entry.offset);
  }

  private damage(entry: BlockEntry, err: CorruptionError): CorruptionError {
    if (!this.damaged.has(entry.offset)) {
      this.damaged.add(entry.offset);
      this.onBlockDamage?.(err);
    }
    return err;
  }

  private lookup(entry: BlockEntry): Uint8Array | undefined {
    if (this.closed) throw new InvariantError(`read from closed TSM reader ${this.path}`);
    if (entry.offset < HEADER_SIZE || entry.offset + BLOCK_CHECKSUM_SIZE + entry.size > this.indexOffset) {
      throw new InvariantError(`block entry at ${entry.offset} (+${entry.size}) is not a block of ${this.path}`);
    }
    return this.cache?.get(this.fileId, entry.offset);
  }

  private verify(key: string, entry: BlockEntry, record: Uint8Array, bytesRead: number, copy = false): Uint8Array {
    if (bytesRead < record.length) {
      throw this.damage(entry, new CorruptionError(this.path, entry.offset + bytesRead, `block of ${JSON.stringify(key)} cut short by end of file`));
    }
    const payload = record.subarray(BLOCK_CHECKSUM_SIZE);
    const stored = new DataView(record.buffer, record.byteOffset, BLOCK_CHECKSUM_SIZE).getUint32(0);
    if (checksum32(payload) !== stored) {
      throw this.damage(entry, new CorruptionError(this.path, entry.offset, `block checksum mismatch for ${JSON.stringify(key)}`));
    }
    const kept = copy ? payload.slice() : payload;
    this.cache?.set(this.fileId, entry.offset, kept);
    return kept;
  }
}

/** Reads `length` bytes at `position`; a short read means the file shrank under us. */
async function readExactly(file: PositionalFile, path: string, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const n = await file.read(buf, position);
  if (n < length) throw new CorruptionError(path, position + n, `expected ${length} bytes at ${position}, file ended`);
  return buf;
}
