/**
 * Write notifications for derived data (materialized views): after a batch is in the WAL and
 * applied to the caches (so visible to queries), each listener learns, per measurement, the
 * time range of the points just written. Listeners run synchronously on the write path, so
 * they must be cheap (record the range, do the work later); an exception in one is swallowed.
 * With no listener registered the cost is one length check per write.
 */
import type { Point } from '../point.js';
import type { ColumnBatch } from '../lineprotocol/columns.js';
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

  notify(db: string, rp: string, points: readonly Point[]): void {
    if (this.list.length === 0 || points.length === 0) return;
    this.notifyEach(db, rp, points.length, (i) => points[i]!.measurement, (i) => points[i]!.sec, (i) => points[i]!.nsec);
  }

  /** notify for a columnar batch, without building Points. */
  notifyColumns(db: string, rp: string, b: ColumnBatch): void {
    if (this.list.length === 0 || b.pointSeries.length === 0) return;
    this.notifyEach(db, rp, b.pointSeries.length, (i) => b.series[b.pointSeries[i]!]!.measurement, (i) => b.sec[i]!, (i) => b.nsec[i]!);
  }

  private notifyEach(db: string, rp: string, n: number, measurementOf: (i: number) => string, secOf: (i: number) => number, nsecOf: (i: number) => number): void {
    const by = new Map<string, Acc>();
    for (let i = 0; i < n; i++) {
      const m = measurementOf(i);
      const sec = secOf(i);
      const nsec = nsecOf(i);
      const a = by.get(m);
      if (!a) {
        by.set(m, { minSec: sec, minNsec: nsec, maxSec: sec, maxNsec: nsec, n: 1 });
        continue;
      }
      a.n++;
      if (sec < a.minSec || (sec === a.minSec && nsec < a.minNsec)) [a.minSec, a.minNsec] = [sec, nsec];
      if (sec > a.maxSec || (sec === a.maxSec && nsec > a.maxNsec)) [a.maxSec, a.maxNsec] = [sec, nsec];
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
