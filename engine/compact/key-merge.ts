/**
 * Merges the blocks of one key from several input files into the output, in time order:
 *
 * - Fast path: the next block of a lane is written unchanged (no decode, no encode) when it
 *   is full (`minCopyPoints` ≤ values ≤ `maxPoints`), no tombstone touches it, and no other
 *   lane has a row in its time range. Full blocks of older levels thus cost one read and one
 *   write; small level-0 blocks are always decoded and re-cut, so merged files carry full
 *   blocks (better compression, fewer index entries).
 * - Otherwise blocks are decoded as the merge reaches their minTime (hidden rows dropped right
 *   after decoding), and rows are taken in time order. A lane whose rows come strictly before
 *   every other lane's next row is copied in bulk; on equal timestamps the newest lane (the
 *   last one: lanes are in file order) wins and the others' rows are dropped.
 * - Rows go to one OutputBlock, written whenever it holds `maxPoints` values.
 *
 * Hiding happens per input before last-write-wins, as reads do: a tombstone hides rows of
 * older files, so an older hidden row must not shadow a newer visible one, nor the reverse.
 */
import { InvariantError } from '../errors.js';
import type { FieldType } from '../point.js';
import { OutputBlock } from './block-out.js';
import type { BlockSink } from './block-out.js';
import type { Lane } from './lane.js';
import type { MergeStats } from './merge-stats.js';
import type { Pacer } from './pacer.js';

export interface KeyMergeContext {
  readonly baseNs: bigint;
  readonly maxPoints: number;
  readonly minCopyPoints: number;
  readonly sink: BlockSink;
  readonly pacer: Pacer;
  readonly stats: MergeStats;
}

/** `lanes` in file order, oldest first, all of type `type`. */
export async function mergeKey(key: string, type: FieldType, lanes: readonly Lane[], ctx: KeyMergeContext): Promise<void> {
  const out = new OutputBlock(key, type, ctx.maxPoints, ctx.baseNs, ctx.sink, ctx.stats);
  for (;;) {
    let t = Infinity;
    for (const lane of lanes) t = Math.min(t, lane.nextTime());
    if (t === Infinity) break;

    const copy = copyable(lanes, t, ctx.minCopyPoints, ctx.maxPoints);
    if (copy) {
      await out.flush(); // its rows all precede t
      const taken = await copy.take(ctx.stats);
      if (!taken) continue;
      const { entry, payload } = taken;
      await ctx.sink.writeBlock(key, type, entry.minTime, entry.maxTime, entry.count, payload, entry.stats);
      ctx.stats.blocksCopied++;
      ctx.stats.valuesOut += entry.count;
      await ctx.pacer.tick();
      continue;
    }

    // Rows at t may sit in blocks not decoded yet: decode those, then look again (hidden
    // rows may have moved the lane's next time past t).
    let decoded = false;
    for (const lane of lanes) {
      if (!lane.hasRows && lane.nextTime() === t) {
        await lane.decode(ctx.stats);
        decoded = true;
      }
    }
    if (decoded) {
      await ctx.pacer.tick();
      continue;
    }

    takeRows(lanes, t, out, ctx.stats);
    if (out.room === 0) {
      await out.flush();
      await ctx.pacer.tick();
    }
  }
  await out.flush();
}

/** The lane whose next block may be copied unchanged, if any. */
function copyable(lanes: readonly Lane[], t: number, minCopyPoints: number, maxPoints: number): Lane | undefined {
  for (const lane of lanes) {
    if (lane.hasRows) continue;
    const e = lane.entries[lane.next];
    if (!e || e.count < minCopyPoints || e.count > maxPoints || lane.offsetOf(e.minTime) !== t) continue;
    const maxOff = lane.offsetOf(e.maxTime);
    if (lane.touches(t, maxOff)) continue;
    for (const other of lanes) if (other !== lane && other.nextTime() <= maxOff) return undefined;
    return lane;
  }
  return undefined;
}

/** Emits the row(s) at time t: a bulk run when one lane has it alone, else the newest row. */
function takeRows(lanes: readonly Lane[], t: number, out: OutputBlock, stats: MergeStats): void {
  let winner: Lane | undefined;
  let ties = 0;
  for (const lane of lanes) {
    if (lane.block && lane.block.offsets[lane.pos] === t) {
      winner = lane;
      ties++;
    }
  }
  const block = winner?.block;
  if (!winner || !block) throw new InvariantError(`merge of a key found no decoded row at offset ${t}`);
  if (ties === 1) {
    let bound = Infinity;
    for (const lane of lanes) if (lane !== winner) bound = Math.min(bound, lane.nextTime());
    const offs = block.offsets;
    const limit = Math.min(offs.length, winner.pos + out.room);
    let end = winner.pos + 1;
    while (end < limit && offs[end]! < bound) end++;
    out.append(offs, block.column, winner.pos, end);
    winner.advance(end - winner.pos);
    return;
  }
  out.append(block.offsets, block.column, winner.pos, winner.pos + 1);
  for (const lane of lanes) if (lane.block && lane.block.offsets[lane.pos] === t) lane.advance(1);
  stats.rowsOverwritten += ties - 1;
}
