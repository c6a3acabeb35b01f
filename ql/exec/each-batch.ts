/**
 * The batch loop of the aggregate readers: every batch of a cursor to a callback, with a
 * checkpoint per batch. It waits only when a cursor has to read a block or a turn of the
 * event loop is due (cursor.ts `nextNow`, context.ts `checkpoint`): a small query over cached
 * blocks then runs its whole scan without a microtask hop per batch, and without a promise at
 * all (the answer is a boolean when nothing had to wait; an await of it would be a hop too).
 */
import { nextBatch, type Batch, type Cursor } from '../../engine/index.js';
import { checkpoint, type QueryContext } from './context.js';

type Each = (b: Batch) => boolean | void;

/** Calls `each` for every batch until the cursor ends (true) or `each` answers false (false). Does not close the cursor. */
export function eachBatch(cursor: Cursor, ctx: QueryContext, each: Each): boolean | Promise<boolean> {
  for (;;) {
    const b = nextBatch(cursor);
    if (b instanceof Promise) return b.then((x) => rest(cursor, ctx, each, x));
    if (!b) return true;
    const turn = checkpoint(ctx);
    if (turn) return turn.then(() => (each(b) === false ? false : rest(cursor, ctx, each, undefined)));
    if (each(b) === false) return false;
  }
}

/** The loop from a batch that had to be waited for (`first`; undefined: read the next one). */
async function rest(cursor: Cursor, ctx: QueryContext, each: Each, first: Batch | null | undefined): Promise<boolean> {
  let b: Batch | null | undefined = first;
  for (;;) {
    if (b === undefined) {
      const next = nextBatch(cursor);
      b = next instanceof Promise ? await next : next;
    }
    if (!b) return true;
    const turn = checkpoint(ctx);
    if (turn) await turn;
    if (each(b) === false) return false;
    b = undefined;
  }
}
