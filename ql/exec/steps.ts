/**
 * Long computations over a whole group (sorts, selections over millions of points) are written
 * once, as generators that yield between steps, and run either to the end in one go or with a
 * pause between steps (a query checkpoint: the event loop turns, a timeout or KILL QUERY stops it).
 */
export type Steps<R> = Generator<void, R, undefined>;

export function runSteps<R>(steps: Steps<R>): R {
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

export async function runStepsPausing<R>(steps: Steps<R>, pause: () => Promise<void> | undefined): Promise<R> {
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
    const wait = pause();
    if (wait) await wait;
  }
}
