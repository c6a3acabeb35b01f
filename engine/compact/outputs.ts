/**
 * The output files of one compaction: `<gen>-<seq>.tsm`, `<gen>-<seq+1>.tsm`, … A new file is
 * started between keys once the current one reaches `maxFileBytes`, so a key never spans two
 * outputs and every output is a complete, independent TSM file. Each output is published by its
 * TsmWriter (tmp → fsync → rename) but is not live until the compactor swaps it into the file
 * set; `abort()` deletes published outputs too, so a failed compaction leaves nothing behind.
 *
 * A crash between publishing and the swap leaves outputs next to the inputs: harmless, since an
 * output holds exactly the merged rows of its keys and sorts after the inputs (file-set.ts).
 */
import { rm } from 'node:fs/promises';
import { InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import { BLOCK_CHECKSUM_SIZE, ENTRY_SIZE, KEY_LENGTH_SIZE, KEY_TRAILER_SIZE } from '../tsm/format.js';
import type { TsmFileId } from '../tsm/format.js';
import type { BlockStats } from '../tsm/block-stats.js';
import { TsmWriter } from '../tsm/writer.js';
import type { TsmFileInfo } from '../tsm/writer.js';
import type { BlockSink } from './block-out.js';
import type { KeySink } from './merge.js';

/** InfluxDB's maxTSMFileSize. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** What the compactor needs from a TsmWriter (a seam for fault-injection tests). */
export interface OutputWriter extends BlockSink {
  readonly path: string;
  readonly blockCount: number;
  finish(): Promise<TsmFileInfo>;
  abort(): Promise<void>;
}

export type WriterFactory = (path: string, level: number) => Promise<OutputWriter>;

export const createTsmWriter: WriterFactory = (path, level) => TsmWriter.create(path, { level });

export class OutputFiles implements KeySink {
  private current: OutputWriter | undefined;
  /** Estimated size of `current`: blocks plus their index records. */
  private bytes = 0;
  private keyBytes = 0;
  private sequence: number;
  private readonly done: TsmFileInfo[] = [];

  constructor(
    private readonly pathFor: (id: TsmFileId) => string,
    private readonly first: TsmFileId,
    private readonly level: number,
    private readonly maxFileBytes: number,
    private readonly create: WriterFactory = createTsmWriter,
  ) {
    this.sequence = first.sequence;
  }

  async beginKey(key: string): Promise<void> {
    if (this.current && this.bytes >= this.maxFileBytes) await this.close();
    this.keyBytes = KEY_LENGTH_SIZE + Buffer.byteLength(key) + KEY_TRAILER_SIZE;
  }

  async writeBlock(key: string, type: FieldType, minTime: bigint, maxTime: bigint, count: number, payload: Uint8Array, stats?: BlockStats): Promise<void> {
    if (!this.current) {
      this.current = await this.create(this.pathFor({ generation: this.first.generation, sequence: this.sequence++ }), this.level);
      this.bytes = 0;
    }
    await this.current.writeBlock(key, type, minTime, maxTime, count, payload, stats);
    this.bytes += BLOCK_CHECKSUM_SIZE + payload.length + ENTRY_SIZE + this.keyBytes;
    this.keyBytes = 0;
  }

  /** Publishes the last output; returns every output (none when all input rows were purged). */
  async finish(): Promise<TsmFileInfo[]> {
    await this.close();
    return [...this.done];
  }

  /** Drops the open output and deletes the published ones. Safe to call more than once. */
  async abort(): Promise<void> {
    const open = this.current;
    this.current = undefined;
    await open?.abort();
    const published = this.done.splice(0);
    await Promise.all(published.map((f) => rm(f.path, { force: true })));
  }

  private async close(): Promise<void> {
    const w = this.current;
    if (!w) return;
    this.current = undefined;
    if (w.blockCount === 0) {
      await w.abort();
      return;
    }
    try {
      this.done.push(await w.finish());
    } catch (err) {
      await w.abort().catch(() => undefined);
      // An I/O failure may come after the rename (directory fsync): remove the file by name.
      // Not on InvariantError: that is the writer refusing to overwrite a live file of that name.
      if (!(err instanceof InvariantError)) await rm(w.path, { force: true }).catch(() => undefined);
      throw err;
    }
  }
}
