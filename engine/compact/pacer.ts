/**
 * Keeps compaction (and snapshot encoding, flush/snapshot-file.ts) off the request path on the
 * main thread. The merge calls `tick()` after each block; once `sliceMs` of work has passed
 * since the last yield, `tick()` waits one `setImmediate` turn, so pending I/O callbacks (WAL
 * completions, HTTP bodies and answers, queries) run between slices. With the default 1 ms
 * slice a request waits at most ~1 ms plus one block's decode/encode (≈ 0.1 ms for 1000
 * values) behind a compaction of any size. 1 ms rather than 4: under steady ingest every WAL
 * group's write and fdatasync completion waits for the slice in progress, and a /write is
 * acknowledged only after both (sensor A/B in perf/README.md, session 7).
 *
 * When the engine has a flush worker, a compaction's merge runs there instead (merge-job.ts:
 * it reopens the pinned inputs by path and hands the outputs back for the swap), with a long
 * slice, as only the worker's other requests wait for its turns; the event loop keeps this
 * pacing for shards with tombstones and engines without the worker.
 *
 * `tick()` is also the cancellation point: when `shouldStop()` turns true it throws
 * CompactionAbortedError and the compactor discards its outputs.
 */
import { performance } from 'node:perf_hooks';
import { CompactionAbortedError } from './errors.js';

export const DEFAULT_SLICE_MS = 1;

export class Pacer {
  private last = performance.now();
  /** setImmediate turns taken (for tests and stats). */
  yields = 0;

  constructor(
    private readonly label: string,
    private readonly sliceMs = DEFAULT_SLICE_MS,
    private readonly shouldStop: () => boolean = () => false,
  ) {}

  async tick(): Promise<void> {
    if (performance.now() - this.last < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.yields++;
    this.last = performance.now();
    if (this.shouldStop()) throw new CompactionAbortedError(this.label);
  }
}
