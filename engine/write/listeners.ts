/**
 * Write notifications for derived data (materialized views): after a batch is in the WAL and
 * applied to the caches (so visible to queries), each listener learns, per measurement, the
 * time range of the points just written. Listeners run synchronously on the write path, so
 * they must be cheap (record the range, do the work later); an exception in one is swallowed.
 * With no listener interested in the database the cost is one check per listener per write.
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

interface Registered {
  readonly fn: WriteListener;
  readonly wants: (db: string) => boolean;
}

export class WriteListeners {
  private list: Registered[] = [];

  /**
   * Register a listener; returns its removal. `wants` says whether writes to a database
   * concern it at all: the ranges are computed (a pass over the batch) only when one does.
   */
  add(fn: WriteListener, wants: (db: string) => boolean = () => true): () => void {
    const entry = { fn, wants };
    this.list = [...this.list, entry];
    return () => {
      this.list = this.list.filter((e) => e !== entry);
    };
  }

  /** The listeners that want writes to `db`; undefined when none does (no array made). */
  private wanting(db: string): Registered[] | undefined {
    let to: Registered[] | undefined;
    for (const e of this.list) if (e.wants(db)) (to ??= []).push(e);
    return to;
  }

  notify(db: string, rp: string, points: readonly Point[]): void {
    const to = points.length === 0 ? undefined : this.wanting(db);
    if (!to) return;
    const by = new Map<string, Acc>();
    for (const p of points) widen(accFor(by, p.measurement), p.sec, p.nsec);
    emit(to, db, rp, by);
  }

  /** notify for a columnar batch, without building Points; one map lookup per series. */
  notifyColumns(db: string, rp: string, b: ColumnBatch): void {
    const to = b.pointSeries.length === 0 ? undefined : this.wanting(db);
    if (!to) return;
    const by = new Map<string, Acc>();
    const ofSeries: (Acc | undefined)[] = new Array<Acc | undefined>(b.series.length);
    for (let i = 0; i < b.pointSeries.length; i++) {
      const s = b.pointSeries[i]!;
      const a = ofSeries[s] ?? (ofSeries[s] = accFor(by, b.series[s]!.measurement));
      widen(a, b.sec[i]!, b.nsec[i]!);
    }
    emit(to, db, rp, by);
  }
}

/** Tell `to` the time range of each measurement in `by`. */
function emit(to: readonly Registered[], db: string, rp: string, by: Map<string, Acc>): void {
  const ns = (sec: number, nsec: number) => BigInt(sec) * NS_PER_SEC_BIG + BigInt(nsec);
  const ranges: WrittenRange[] = [];
  for (const [measurement, a] of by) {
    ranges.push({ db, rp, measurement, minNs: ns(a.minSec, a.minNsec), maxNs: ns(a.maxSec, a.maxNsec), points: a.n });
  }
  for (const { fn } of to) {
    try {
      fn(ranges);
    } catch {
      // A listener's failure must not fail a write that is already durable.
    }
  }
}

function accFor(by: Map<string, Acc>, measurement: string): Acc {
  let a = by.get(measurement);
  if (!a) by.set(measurement, (a = { minSec: Infinity, minNsec: 0, maxSec: -Infinity, maxNsec: 0, n: 0 }));
  return a;
}

function widen(a: Acc, sec: number, nsec: number): void {
  a.n++;
  if (sec < a.minSec || (sec === a.minSec && nsec < a.minNsec)) {
    a.minSec = sec;
    a.minNsec = nsec;
  }
  if (sec > a.maxSec || (sec === a.maxSec && nsec > a.maxNsec)) {
    a.maxSec = sec;
    a.maxNsec = nsec;
  }
}
