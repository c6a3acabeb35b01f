/**
 * Writes reach the caches in WAL order, while their WAL records are written as early as
 * possible.
 *
 * A client's body is logged as it arrives, while a worker parses it: the fdatasync of its
 * group overlaps the parse instead of following it. So a write holds a *slot* from the start:
 * its WAL seq (the append is already under way) and its *turn*, which comes once every
 * earlier slot is done. Everything that depends on order happens in the turn: admission into
 * the index (field types, series), the cache apply, the applied-seq watermark. That keeps
 * two things true:
 *   - replay sees the same order as the live caches did (same series and time written by two
 *     requests: the later seq wins in both);
 *   - the applied watermark is contiguous (every seq at or below it is applied or dead), so
 *     truncating the WAL up to it never drops a record whose points are not in a cache yet.
 *
 * A slot whose record is not applied as logged (a refused line, a failed batch, an error) is
 * cancelled: a cancel record tells replay to skip it. Points kept from a refused body are
 * logged again under a slot of their own, taken after the cancelled one is done, so they too
 * apply in the order replay will see them.
 */
import type { WalAppend, WalWriteAppend } from '../wal/record.js';

export class OrderedLog {
  private tail: Promise<void> = Promise.resolve();
  private open = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly append: (entry: WalAppend) => Promise<bigint>,
    /** Write the cancel of `seq` before the next append (Wal.cancelLater), for a cancel whose own append failed. */
    private readonly cancelLater: (seq: bigint) => void,
  ) {}

  /** Start logging `entry` and take the next turn, in one step so turns follow seqs. */
  reserve(entry: WalWriteAppend): LogSlot {
    const turn = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    this.open++;
    return new LogSlot(this.append(entry), turn, () => {
      // A slot given up before its turn (its parse failed) must not let the next one pass
      // the slots still ahead of it.
      void turn.then(release);
      if (--this.open === 0) for (const f of this.idle.splice(0)) f();
    });
  }

  /**
   * Tell replay to skip the slot's record, once it is in the WAL. Resolves when the cancel is
   * durable (or at once when the record itself never was). When the cancel cannot be appended
   * (the disk failed), it rejects, and the cancel is handed to the WAL to go ahead of the next
   * append, in the same group: the record it names was left uncancelled before, and a restart
   * replayed a body whose client was told it failed, and that was never served while running.
   */
  async cancel(slot: LogSlot): Promise<void> {
    const seq = await slot.seq.catch(() => undefined);
    if (seq === undefined) return;
    try {
      await this.append({ cancels: seq });
    } catch (err) {
      this.cancelLater(seq);
      throw err;
    }
  }

  /** Resolves when no slot is open: every reserved record is applied or cancelled. */
  whenIdle(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

export class LogSlot {
  private released = false;

  constructor(
    /** The record's seq, once it is written and fdatasynced. */
    readonly seq: Promise<bigint>,
    /** Resolves when every earlier slot is done. */
    readonly turn: Promise<void>,
    private readonly release: () => void,
  ) {
    // Every path awaits seq; until it does, a failed append must not count as unhandled.
    seq.catch(() => undefined);
  }

  /** Let the next slot have its turn. Idempotent. */
  done(): void {
    if (this.released) return;
    this.released = true;
    this.release();
  }
}
