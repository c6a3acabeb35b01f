/**
 * One worker thread answering requests by id: the plumbing shared by the parse pool
 * (lineprotocol/parse-pool.ts) and the flush worker (flush/flush-worker-pool.ts).
 *
 * A request never fails because of the thread: it resolves with the worker's reply, or with
 * undefined when the worker cannot answer (it failed to start, died or was terminated), and the
 * caller then does the work itself on the event loop. The worker is started on the first
 * request and again after it died; after repeated start failures (e.g. a bundled binary without
 * the worker file) the client turns itself off. The thread keeps the process alive only while
 * a request or a whenLoaded() waits on it (see holdWhileBusy). The worker answers each `{ id, ... }` message with `{ id, ... }`; the
 * optional `init` message (no id) comes first on every thread started. Once its modules are
 * loaded the worker posts WORKER_LOADED (see whenLoaded).
 */
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

const MAX_START_FAILURES = 3;

/** Posted by a worker module's top level, i.e. after everything it imports is loaded. */
export const WORKER_LOADED = 'strata-worker-loaded';

export class WorkerClient<Reply extends { id: number }> {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (r: Reply | undefined) => void>();
  private nextId = 1;
  private startFailures = 0;
  private closed = false;
  private loaded = false;
  private loadWaiters: (() => void)[] = [];
  /** Whether the running thread is ref'd (holds the process open). */
  private held = false;

  constructor(
    private readonly url: URL,
    private readonly limits: ResourceLimits,
    /** Told each time a thread came up (operators see that the workers run, e.g. in a bundle). */
    private readonly onOnline: (threadId: number) => void = () => {},
    /** Posted to every thread it starts before any request (e.g. memory shared with it). */
    private readonly init?: object,
  ) {}

  get available(): boolean {
    return !this.closed && this.startFailures < MAX_START_FAILURES;
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Start the thread ahead of the first request (a no-op when running or turned off). */
  warm(): void {
    if (this.available && !this.worker) this.start();
  }

  /**
   * Resolves once the running thread has loaded its modules, or at once when no thread runs;
   * also when the thread is lost first (the caller never waits for a thread that will not come).
   * A worker thread boots Node and compiles its module graph (~60-100 ms); a server that waits
   * for this before it listens does not make its first requests wait for it instead.
   */
  whenLoaded(): Promise<void> {
    if (!this.worker || this.loaded) return Promise.resolve();
    return new Promise((resolve) => {
      this.loadWaiters.push(resolve);
      this.holdWhileBusy();
    });
  }

  private settleLoad(loaded: boolean): void {
    this.loaded = loaded;
    for (const f of this.loadWaiters.splice(0)) f();
    this.holdWhileBusy();
  }

  /**
   * An idle thread must not keep the process alive (a test or tool that leaves an engine open
   * would never exit), but a busy one must: a caller awaiting a reply (the final flush of a
   * stopping server, a CLI command) may have nothing else holding the event loop, and Node
   * would exit under it. Node's Worker re-refs itself when a 'message' listener is added, so
   * this runs after the listeners are set up, and on every change of busy/idle.
   */
  private holdWhileBusy(): void {
    const w = this.worker;
    const busy = this.pending.size > 0 || this.loadWaiters.length > 0;
    if (!w || busy === this.held) return;
    this.held = busy;
    if (busy) w.ref();
    else w.unref();
  }

  request(message: object, transfer: readonly TransferListItem[] = []): Promise<Reply | undefined> {
    if (!this.available) return Promise.resolve(undefined);
    const worker = this.worker ?? this.start();
    if (!worker) return Promise.resolve(undefined);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.holdWhileBusy();
      worker.postMessage({ ...message, id }, [...transfer]);
    });
  }

  private start(): Worker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(this.url, { resourceLimits: this.limits });
    } catch {
      this.startFailures++;
      return undefined;
    }
    this.worker = worker;
    if (this.init) worker.postMessage(this.init);
    worker.on('message', (r: Reply | typeof WORKER_LOADED) => {
      if (r === WORKER_LOADED) {
        if (this.worker === worker) this.settleLoad(true);
        return;
      }
      const done = this.pending.get(r.id);
      this.pending.delete(r.id);
      this.holdWhileBusy();
      done?.(r);
    });
    worker.on('online', () => {
      this.startFailures = 0;
      this.onOnline(worker.threadId);
    });
    const lost = (): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settleLoad(false);
      // An 'error' before 'online' is a start failure (missing file, bad bundle).
      for (const done of this.pending.values()) done(undefined);
      this.pending.clear();
      this.held = false;
    };
    worker.on('error', () => {
      this.startFailures++;
      lost();
    });
    worker.on('exit', lost);
    this.held = true; // a new Worker is ref'd, and the listeners above ref'd it again
    this.holdWhileBusy();
    return worker;
  }

  /** Stops the worker; requests in flight resolve undefined. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    if (w) await w.terminate();
  }
}
