/**
 * The shards of one retention policy, sorted by start time, with lookup by timestamp and
 * creation of the missing span. New spans align to the policy's shard group duration (as
 * 1.x shard groups do) and are clipped so they never overlap an existing shard.
 */
import { join } from 'node:path';
import { MAX_SHARD_SPAN_SEC, shardStartSec } from '../time.js';
import { Shard } from './shard.js';
import { schemaChanged } from '../meta/schema-version.js';

export function shardDirName(startSec: number, spanSec: number): string {
  return `${startSec}_${spanSec}`;
}

export function parseShardDirName(name: string): { startSec: number; spanSec: number } | undefined {
  const m = /^(-?\d+)_(\d+)$/.exec(name);
  if (!m) return undefined;
  return { startSec: Number(m[1]), spanSec: Number(m[2]) };
}

export class ShardSet {
  /** Sorted by startSec, non-overlapping. */
  readonly shards: Shard[] = [];
  private last: Shard | undefined;

  constructor(
    readonly db: string,
    readonly rp: string,
    readonly dir: string,
  ) {}

  add(shard: Shard): void {
    this.shards.push(shard);
    this.shards.sort((a, b) => a.startSec - b.startSec);
    schemaChanged();
  }

  remove(shard: Shard): void {
    const i = this.shards.indexOf(shard);
    if (i >= 0) this.shards.splice(i, 1);
    schemaChanged();
    if (this.last === shard) this.last = undefined;
  }

  find(sec: number): Shard | undefined {
    const last = this.last;
    if (last && last.containsSec(sec)) return last;
    let lo = 0;
    let hi = this.shards.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.shards[mid]!;
      if (sec < s.startSec) hi = mid - 1;
      else if (sec >= s.endSec) lo = mid + 1;
      else return (this.last = s);
    }
    return undefined;
  }

  /** The shard holding `sec`, created (in memory; its directory appears at first flush) when missing. */
  findOrCreate(sec: number, shardGroupDurationSec: number): Shard {
    const found = this.find(sec);
    if (found) return found;
    const { start, end } = this.missingSpan(sec, shardGroupDurationSec);
    const shard = new Shard(this.db, this.rp, start, end - start, join(this.dir, shardDirName(start, end - start)));
    this.add(shard);
    return (this.last = shard);
  }

  /**
   * The start of the shard a write at `sec` would create, or undefined when a shard holds
   * `sec` already: what tells a batch's new shards apart (1.x checks their fields differently).
   */
  newShardStart(sec: number, shardGroupDurationSec: number): number | undefined {
    return this.find(sec) ? undefined : this.missingSpan(sec, shardGroupDurationSec).start;
  }

  /** The span a new shard holding `sec` gets: the aligned group span, clipped by its neighbours. */
  private missingSpan(sec: number, shardGroupDurationSec: number): { start: number; end: number } {
    const span = Math.min(shardGroupDurationSec, MAX_SHARD_SPAN_SEC);
    let start = shardStartSec(sec, span);
    let end = start + span;
    for (const s of this.shards) {
      if (s.endSec <= sec && s.endSec > start) start = s.endSec;
      if (s.startSec > sec && s.startSec < end) end = s.startSec;
    }
    return { start, end };
  }

  /** Shards overlapping [minSec, maxSec] (inclusive). */
  overlapping(minSec: number, maxSec: number): Shard[] {
    return this.shards.filter((s) => s.endSec > minSec && s.startSec <= maxSec);
  }
}
