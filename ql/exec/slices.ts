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
 * - While a statement that has run less than the one resumed awaits I/O (a TSM block read),
 *   the resumed one gets a YIELD_SLICE_MS slice, so the read's answer is taken up in the next
 *   poll phase instead of after a full heavy slice. A light statement reading a file no block
 *   cache held yet (a file a flush just wrote: then one read per series-field) paid a slice of
 *   each heavy statement per read, seconds in all (perf/README.md 27).
 * - A slice is charged at most MAX_CHARGE_MS (see charged()): a GC pause is not its work.
 * Time is counted from the performance.now() read each checkpoint already makes; a statement
 * that finishes within its first slice pays nothing new. A statement that awaits I/O is
 * resumed by the loop, not the dispatcher: at its next checkpoint it is charged the time since
 * the last checkpoint any statement made, and parks at once if a statement that has run less
 * is parked; otherwise it takes over the running slice. A statement counts as awaiting from
 * when another one took the loop without it parking until its next checkpoint or its end
 * (sliceEnds); one that has not reached its first checkpoint is not known yet.
 * Wall time stands for CPU time: on a loaded machine every statement's slices stretch alike.
 */
const MIN_SLICE_MS = 5;
const MAX_SLICE_MS = 20;
/** The most one slice is charged (see charged()). */
const MAX_CHARGE_MS = MAX_SLICE_MS;
/**
 * A slice while a lighter statement awaits I/O: a read from the page cache answers in well
 * under 1 ms, and a hop back through the dispatcher costs about 5 us, so heavy statements keep
 * 99% of the loop while the light one waits at most about this long per read.
 */
const YIELD_SLICE_MS = 1;

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
/** Owners neither running nor parked nor ended: awaiting I/O. Attained at their last charge. */
const awaiting = new Map<object, number>();
/** Min-heap on (attained, seq): ties resume in the order they parked. */
const parked: Parked[] = [];
let parkedSeq = 0;
let dispatchPending = false;

/** A request handler is about to run a new statement: it starts a fresh first slice. */
export function sliceStarts(): void {
  leftWithoutParking();
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
  if (!fresh) leftWithoutParking();
  awaiting.delete(owner);
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
  const attained = (attainedBy.get(owner) ?? 0) + (owner === running ? charged(now - chargeStart) : 0);
  attainedBy.set(owner, attained);
  if (owner === running) running = undefined;
  awaiting.delete(owner);
  lastSeen = now;
  return new Promise<void>((resolve) => {
    push({ owner, attained, seq: parkedSeq++, resume: resolve });
    if (!dispatchPending) {
      dispatchPending = true;
      setImmediate(dispatch);
    }
  });
}

/** A request's statements are done (or failed): it no longer awaits anything here. */
export function sliceEnds(owner: object): void {
  awaiting.delete(owner);
  if (running === owner) running = undefined;
}

/**
 * What one slice adds to its owner's attained service. A stretch far beyond the longest slice
 * is mostly a pause no statement can yield through (a major GC of the heavy statements'
 * garbage: 200-400 ms beside heavy scans), not the owner's work: charged in full it ranked a
 * light statement that happened to run then behind the heavy ones, to be served round robin
 * with them for seconds (perf/README.md 27).
 */
function charged(ms: number): number {
  return Math.min(ms, MAX_CHARGE_MS);
}

function sliceFor(attained: number): number {
  if (lighterAwaits(attained)) return YIELD_SLICE_MS;
  return Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, attained));
}

/** Whether a statement that has run less than `attained` awaits I/O (a handful are running: a scan is cheap). */
function lighterAwaits(attained: number): boolean {
  for (const a of awaiting.values()) if (a < attained) return true;
  return false;
}

/** The running owner gave up the loop without parking (it awaits I/O): charge it up to its last checkpoint. */
function leftWithoutParking(): void {
  if (running === undefined || running === NEW_STATEMENT) return;
  const attained = (attainedBy.get(running) ?? 0) + charged(lastSeen - chargeStart);
  attainedBy.set(running, attained);
  awaiting.set(running, attained);
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
  if (running !== next.owner) leftWithoutParking();
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
