/**
 * percentile(x, N): nearest rank, a selector keeping the point's time and the input type.
 * Index = floor(len * N / 100 + 0.5) - 1 over the values sorted ascending; an index outside
 * the group (e.g. N = 0) gives no row, which 1.x prints as null. Equal values are ordered as
 * Go's (unstable) sort leaves them, so the returned point's time matches 1.x.
 */
import type { FieldType, ValueColumn } from '../../../engine/index.js';
import type { ResultRow } from '../value.js';
import { Collected } from './collect.js';
import type { PartialClock } from './partials.js';
import type { Reducer } from './types.js';

/** The 1.x nearest-rank index (may be out of range). */
export function percentileIndex(length: number, percentile: number): number {
  return Math.floor((length * percentile) / 100 + 0.5) - 1;
}

export class PercentileReducer implements Reducer {
  readonly name = 'percentile';
  readonly outputType: FieldType;
  private readonly pts: Collected;

  /** `clock`: which series points come from, so ties follow 1.x's merge order (merge-order.ts). */
  constructor(
    inputType: FieldType,
    private readonly percentile: number,
    private readonly descending = false,
    clock?: PartialClock,
  ) {
    this.pts = new Collected(clock);
    this.outputType = inputType;
  }

  add(base: bigint, offsets: Float64Array, column: ValueColumn, from: number, to: number): void {
    this.pts.add(base, offsets, column, from, to);
  }

  /** The points added (a window with points but too few for the rank answers nothing: percentile-lead-replay.ts). */
  get points(): number {
    return this.pts.length;
  }

  /** The point at the rank when no tie needs Go's sort order (Collected.uniqueRankIndex); -1: ties. */
  #unique: number | undefined;

  async prepare(pause: () => Promise<void> | undefined): Promise<void> {
    const i = percentileIndex(this.pts.length, this.percentile);
    if (i < 0 || i >= this.pts.length) return;
    this.#unique ??= (await this.pts.prepareUniqueRankIndex(i, pause)) ?? -1;
    if (this.#unique < 0) await this.pts.prepareSortedByValue(this.descending, pause);
  }

  result(): ResultRow[] {
    const n = this.pts.length;
    const i = percentileIndex(n, this.percentile);
    if (i < 0 || i >= n) return [];
    const unique = this.#uniqueAt(i);
    const k = unique >= 0 ? unique : (this.pts.goSortedByValue(this.descending)[i] as number);
    return [{ time: this.pts.time(k), value: this.pts.value(k) }];
  }

  #uniqueAt(rank: number): number {
    return (this.#unique ??= this.pts.uniqueRankIndex(rank) ?? -1);
  }
}
