/**
 * When did a shard last receive a flushed file? Flushes take a new, higher generation;
 * compactions never do (outputs reuse their newest input's generation), so the time the
 * highest generation last went up is the time of the last flush. On first sight of a shard
 * (e.g. after a restart) the newest file's mtime stands in for it.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Shard } from '../shard/shard.js';
import { parseTsmFileName } from '../tsm/format.js';
import type { TsmReader } from '../tsm/reader.js';

export class LastWriteTracker {
  private readonly seen = new WeakMap<Shard, { generation: number; atMs: number }>();

  async lastWriteMs(shard: Shard, readers: readonly TsmReader[], nowMs: number): Promise<number> {
    let generation = -1;
    let newest: TsmReader | undefined;
    for (const r of readers) {
      const id = parseTsmFileName(basename(r.path));
      if (id && id.generation > generation) {
        generation = id.generation;
        newest = r;
      }
    }
    const known = this.seen.get(shard);
    if (known && known.generation >= generation) return known.atMs;
    let atMs = nowMs;
    if (!known && newest) atMs = Math.min(nowMs, await stat(newest.path).then((s) => s.mtimeMs, () => nowMs));
    this.seen.set(shard, { generation, atMs });
    return atMs;
  }
}
