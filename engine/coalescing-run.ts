/**
 * "Run now; calls during a run coalesce into at most one more run": the shape of every
 * background pass that must not overlap itself (flush, view maintenance). All callers during a
 * run share its promise; if any arrived, the pass repeats once it finishes.
 */
export class CoalescingRun {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly pass: () => Promise<void>) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Settles when no pass is running (without asking for one); never rejects. */
  idle(): Promise<void> {
    return this.running ? this.running.catch(() => undefined) : Promise.resolve();
  }

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }
}
