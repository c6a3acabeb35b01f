/**
 * Which statement runs next on the one event-loop thread: least attained service.
 *
 * Every statement runs on the loop; at its checkpoints one whose slice is used up parks here
 * and a single dispatcher (one setImmediate at a time) resumes the parked statement that has
 * run least so far. A request's statements are charged together, keyed by its stop signal:
 * a batch is one client's work, as KILL QUERY and SHOW QUERIES see it.
 *
 * - A new statement starts at once in the request's handler, with 0 ms attained: before any
 *   parked statement's next slice. Its first slice is short (MIN_SLICE_MS), so a light panel
 *   that arrives in the same loop turn as three heavy ones waits for three short slices, not
 *   three full ones (perf/README.md section 24). Not shorter: statements that arrive together
 *   all start at 0 ms, and with 2 ms slices a one-host panel (about 4 ms) was shared round
 *   robin with the heavy panels sent beside it instead of finishing in its first slice (25b).
 * - A slice lasts as long as the statement has run so far, between MIN_SLICE_MS and
 *   MAX_SLICE_MS: a long statement soon runs full slices, so it pays few hops (about 5 us
 *   each), and one that needs a little more than its first slice still ranks below the heavy
 *   ones when it parks (section 24's 2 ms first slice lost that: it then queued FIFO behind them).
 * - One slice per loop iteration: timers (the query timeout), KILL QUERY, /ping and writes
 *   on other connections get the poll phase between any two slices; a heavy statement is
 *   resumed whenever nothing lighter is parked, so it never waits on an idle loop.
 * Time is counted from the performance.now() read each checkpoint already makes; a statement
 * that finishes within its first slice pays nothing new. A statement that awaits I/O (a TSM
 * block read) is resumed by the loop, not the dispatcher: at its next checkpoint it is charged
 * the time since the last checkpoint any statement made, and parks at once if a statement that
 * has run less is parked; otherwise it takes over the running slice. Not covered: while a light
 * statement awaits its own read, a heavier one resumed by its read runs until its checkpoint.
 * Wall time stands for CPU time: on a loaded machine every statement's slices stretch alike.
 */
const MIN_SLICE_MS = 5;
const MAX_SLICE_MS = 20;

interface Parked {
  readonly owner: object;
  readonly attained: number;
  readonly seq: number;
  readonly resume: () => void;
}

/** Stands for a request handler's new statement until its first checkpoint names its owner. */
const NEW_STATEMENT = {};
/**
 * Whose slice is running (undefined: none, its owner parked), since when (the dispatch or the
 * handler: the last certain loop turn), for how long, and since when its owner is charged.
 */
let running: object | undefined;
let sliceStart = 0;
let chargeStart = 0;
/** The last checkpoint or park: the running owner is charged up to it when the loop switches to another. */
let lastSeen = 0;
let sliceMs = MIN_SLICE_MS;
/** ms each owner has run before its last park. */
const attainedBy = new WeakMap<object, number>();
/** Min-heap on (attained, seq): ties resume in the order they parked. */
const parked: Parked[] = [];
let parkedSeq = 0;
let dispatchPending = false;

/** A request handler is about to run a new statement: it starts a fresh first slice. */
export function sliceStarts(): void {
  running = NEW_STATEMENT;
  sliceStart = chargeStart = lastSeen = performance.now();
  sliceMs = MIN_SLICE_MS;
}

/**
 * Whether `owner` (a request's stop signal, or its context) should park now: its slice is
 * used up, or the loop resumed it outside the dispatcher (I/O it awaited) while a statement
 * that has run less is parked.
 */
export function sliceUsedUp(owner: object): boolean {
  const now = performance.now();
  if (owner === running) {
    lastSeen = now;
    return now - sliceStart >= sliceMs;
  }
  const fresh = running === NEW_STATEMENT;
  // The running owner awaited I/O after its last checkpoint: charge it up to there.
  if (!fresh && running !== undefined) attainedBy.set(running, (attainedBy.get(running) ?? 0) + (lastSeen - chargeStart));
  // Charged from the last checkpoint seen: the work since its I/O resumed it is in there. The
  // slice keeps its start: statements resumed in one microtask run must not restart it for
  // each other, or the loop would not turn.
  running = owner;
  const attained = attainedBy.get(owner) ?? 0;
  if (!fresh) {
    chargeStart = lastSeen;
    sliceMs = sliceFor(attained);
  }
  lastSeen = now;
  return (parked.length > 0 && parked[0]!.attained < attained) || now - sliceStart >= sliceMs;
}

/** Charge the running slice to `owner` and wait until the dispatcher picks it again. */
export function park(owner: object): Promise<void> {
  const now = performance.now();
  const attained = (attainedBy.get(owner) ?? 0) + (owner === running ? now - chargeStart : 0);
  attainedBy.set(owner, attained);
  if (owner === running) running = undefined;
  lastSeen = now;
  return new Promise<void>((resolve) => {
    push({ owner, attained, seq: parkedSeq++, resume: resolve });
    if (!dispatchPending) {
      dispatchPending = true;
      setImmediate(dispatch);
    }
  });
}

function sliceFor(attained: number): number {
  return Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, attained));
}

function dispatch(): void {
  dispatchPending = false;
  const next = pop();
  if (!next) return;
  // The next turn's dispatch is queued before this one resumes: whatever the resumed statement
  // does next (park again, await I/O, finish), the others are not left waiting for it.
  if (parked.length > 0) {
    dispatchPending = true;
    setImmediate(dispatch);
  }
  running = next.owner;
  sliceStart = chargeStart = lastSeen = performance.now();
  sliceMs = sliceFor(next.attained);
  next.resume();
}

function before(a: Parked, b: Parked): boolean {
  return a.attained < b.attained || (a.attained === b.attained && a.seq < b.seq);
}

function push(p: Parked): void {
  let i = parked.length;
  parked.push(p);
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (!before(p, parked[up]!)) break;
    parked[i] = parked[up]!;
    i = up;
  }
  parked[i] = p;
}

function pop(): Parked | undefined {
  const top = parked[0];
  const last = parked.pop();
  if (top === undefined || last === undefined || parked.length === 0) return top;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= parked.length) break;
    const c = l + 1 < parked.length && before(parked[l + 1]!, parked[l]!) ? l + 1 : l;
    if (!before(parked[c]!, last)) break;
    parked[i] = parked[c]!;
    i = c;
  }
  parked[i] = last;
  return top;
}
