/**
 * sum(): float sum in point order (per series and shard first, then merged as 1.x does, when
 * the caller says which partial points belong to: partials.ts); integer/unsigned sums wrap
 * around like Go int64/uint64 (exact, so grouping does not matter). Under ORDER BY time DESC
 * 1.x reads each series newest first, so a partial's float points are added in that order
 * (`newestFirst`: kept as the ascending batches give them, added backwards when read).
 */
import { FieldType } from '../../../engine/index.js';
import type { ValueColumn } from '../../../engine/index.js';
import type { IntValue, ResultRow } from '../value.js';
import { IntSum } from './intsum.js';
import { Partials, type PartialClock } from './partials.js';
import type { BatchStats, StatsReducer } from './types.js';

/** Float values a newest-first partial keeps (8 MiB), as stream-sum.ts bounds a subquery's. */
export const PENDING_MAX = 1 << 20;

export class SumReducer implements StatsReducer {
  readonly name = 'sum';
  readonly outputType: FieldType;
  private fsum = 0;
  private readonly isum: IntSum | null;
  private n = 0;
  private readonly partials: Partials | null;
  /** Points of the running partial (float sums with partials only). */
  private partN = 0;
  /** newestFirst: the running partial's float values, in the order added (ascending). */
  private readonly pending: Float64Array[] | null;
  private pendingCount = 0;

  constructor(inputType: FieldType, clock?: PartialClock, newestFirst = false) {
    this.outputType = inputType;
    this.isum = inputType === FieldType.Float ? null : new IntSum(inputType === FieldType.Unsigned);
    this.partials = inputType === FieldType.Float && clock ? new Partials(clock, false) : null;
    this.pending = inputType === FieldType.Float && newestFirst ? [] : null;
  }

  /** The running partial's float sum: under newestFirst its kept values added last to first. */
  private running(): number {
    const pending = this.pending;
    if (pending === null || pending.length === 0) return this.fsum;
    let s = this.fsum;
    for (let c = pending.length - 1; c >= 0; c--) {
      const v = pending[c]!;
      for (let i = v.length - 1; i >= 0; i--) s += v[i]!;
    }
    this.fsum = s;
    pending.length = 0;
    this.pendingCount = 0;
    return s;
  }

  /** Close the running float partial when the points now come from another series or shard. */
  private sync(): void {
    const p = this.partials;
    if (!p) return;
    const shard = p.currentShard;
    if (!p.moved()) return;
    p.fold(this.running(), this.partN, shard);
    this.fsum = 0;
    this.partN = 0;
  }

  add(_base: bigint, _offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    if (to <= from) return;
    this.sync();
    this.n += to - from;
    this.partN += to - from;
    if (column.type === FieldType.Float && this.pending && this.pendingCount + (to - from) <= PENDING_MAX) {
      this.pending.push(column.values.slice(from, to));
      this.pendingCount += to - from;
    } else if (column.type === FieldType.Float) {
      // Past PENDING_MAX kept values the rest of the partial is added as it comes: memory stays
      // bounded whatever the range, and only the last bits of such a long series' sum can differ.
      let s = this.fsum;
      const v = column.values;
      for (let i = from; i < to; i++) s += v[i] as number;
      this.fsum = s;
    } else if (column.type === FieldType.Integer || column.type === FieldType.Unsigned) {
      this.isum?.addColumn(column.values, from, to);
    }
  }

  /** The batch's sum is added as one term (for floats the order of additions then differs). */
  addStats(stats: BatchStats): void {
    if (stats.count === 0) return;
    this.sync();
    this.n += stats.count;
    this.partN += stats.count;
    const s = stats.sum ?? 0;
    if (this.isum) this.isum.add(s);
    else this.fsum += Number(s);
  }

  /** Points added so far. */
  get count(): number {
    return this.n;
  }

  /** The running sum in the input's type (wrapped int64/uint64 for integers). */
  total(): IntValue {
    if (this.isum) return this.isum.value();
    const running = this.running();
    return this.partials ? (this.partials.result(running, this.partN) ?? 0) : running;
  }

  result(): ResultRow[] {
    if (this.n === 0) return [];
    return [{ value: this.total() }];
  }
}
