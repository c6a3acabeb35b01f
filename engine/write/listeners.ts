/**
 * Write notifications for derived data (materialized views): after a batch is in the WAL and
 * applied to the caches (so visible to queries), each listener learns, per measurement, the
 * time range of the points just written. Listeners run synchronously on the write path, so
 * they must be cheap (record the range, do the work later); an exception in one is swallowed.
 * With no listener registered the cost is one length check per write.
 */
import type { Point } from '../point.js';
import { NS_PER_SEC_BIG } from '../time.js';

export interface WrittenRange {
  readonly db: string;
  readonly rp: string;
  readonly measurement: string;
  /** Smallest and largest point time of the batch in this measurement, ns (inclusive). */
  readonly minNs: bigint;
  readonly maxNs: bigint;
  readonly points: number;
}

export type WriteListener = (ranges: readonly WrittenRange[]) => void;

interface Acc {
  minSec: number;
  minNsec: number;
  maxSec: number;
  maxNsec: number;
  n: number;
}

export class WriteListeners {
  private list: WriteListener[] = [];

  /** Register a listener; returns its removal. */
  add(fn: WriteListener): () => void {
    this.list = [...this.list, fn];
    return () => {
      this.list = this.list.filter((f) => f !== fn);
    };
  }

  /** False while nobody listens: the caller can skip building what notify needs. */
  get active(): boolean {
    return this.list.length > 0;
  }

  notify(db: string, rp: string, points: readonly Point[]): void {
    if (this.list.length === 0 || points.length === 0) return;
    const by = new Map<string, Acc>();
    for (const p of points) {
      const a = by.get(p.measurement);
      if (!a) {
        by.set(p.measurement, { minSec: p.sec, minNsec: p.nsec, maxSec: p.sec, maxNsec: p.nsec, n: 1 });
        continue;
      }
      a.n++;
      if (p.sec < a.minSec || (p.sec === a.minSec && p.nsec < a.minNsec)) [a.minSec, a.minNsec] = [p.sec, p.nsec];
      if (p.sec > a.maxSec || (p.sec === a.maxSec && p.nsec > a.maxNsec)) [a.maxSec, a.maxNsec] = [p.sec, p.nsec];
    }
    const ns = (sec: number, nsec: number) => BigInt(sec) * NS_PER_SEC_BIG + BigInt(nsec);
    const ranges: WrittenRange[] = [];
    for (const [measurement, a] of by) {
      ranges.push({ db, rp, measurement, minNs: ns(a.minSec, a.minNsec), maxNs: ns(a.maxSec, a.maxNsec), points: a.n });
    }
    for (const fn of this.list) {
      try {
        fn(ranges);
      } catch {
        // A listener's failure must not fail a write that is already durable.
      }
    }
  }
}
