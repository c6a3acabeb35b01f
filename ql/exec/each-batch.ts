/**
 * The batch loop of the aggregate readers: every batch of a cursor to a callback, with a
 * checkpoint per batch. It awaits only when a cursor has to read a block or a turn of the
 * event loop is due (cursor.ts `nextNow`, context.ts `checkpoint`): a small query over cached
 * blocks then runs its whole scan without a microtask hop per batch.
 */
import { nextBatch, type Batch, type Cursor } from '../../engine/index.js';
import { checkpoint, type QueryContext } from './context.js';

/** Calls `each` for every batch until the cursor ends (true) or `each` answers false (false). Does not close the cursor. */
export async function eachBatch(cursor: Cursor, ctx: QueryContext, each: (b: Batch) => boolean | void): Promise<boolean> {
  for (;;) {
    let b = nextBatch(cursor);
    if (b instanceof Promise) b = await b;
    if (!b) return true;
    const turn = checkpoint(ctx);
    if (turn) await turn;
    if (each(b) === false) return false;
  }
}
