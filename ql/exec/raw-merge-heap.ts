/**
 * The heap a raw SELECT's group merges its series' rows with. One source: a Go heap over its
 * series in the order its rows reach 1.x's outer query (raw-merge-order.ts). Several sources of
 * one name with a subquery among them (`SELECT g FROM (...), (...)`): 1.x builds an input per
 * source (select.go buildAuxIterator) and merges the inputs with its sorted merge, which sees
 * only each input's next row: the time, then the auxiliary strings (rawRowLess), ties in the Go
 * heap's order, the inputs in FROM order. An input whose rows go back in time (an inner GROUP
 * BY tag emits series after series) is therefore interleaved by its head, not sorted into the
 * others. Each input keeps its own order inside (its own heap over its series). A raw transform
 * reads the inputs one after the other instead (InputMerge without `less`).
 */
import type { Expr } from '../ast/nodes.js';
import { TRANSFORMS } from '../plan/functions.js';
import { callsIn } from '../plan/projection.js';
import { GoHeap } from './go-heap.js';
import { lanesInInnerOrder, rawRowLess, seriesRankLess, timeThenSeriesLess, type MergeItem } from './raw-merge-order.js';
import type { SelectPlan } from './select-plan.js';
import type { MeasurementSource, SeriesRef } from './source.js';
import { UnionSource } from './union-source.js';

export interface MergeHeap<T> {
  pop(): T | undefined;
  /** Put back the item pop() gave, with its next row. */
  push(item: T): void;
}

/** `live`: the items with a row, in series order (reversed here for ORDER BY time DESC, as 1.x reverses its tag sets). */
export function rawMergeHeap<T extends MergeItem>(source: MeasurementSource, series: readonly SeriesRef[], live: T[], plan: SelectPlan, fieldIndex: ReadonlyMap<string, number>): MergeHeap<T> {
  const ordered = plan.ascending ? live : live.reverse();
  const columns = plan.projection.columns.map((c) => c.expr);
  // A transform reads its field through a merge iterator (select.go buildVarRefIterator), which
  // drains one input before the next: without an interval every row is in one window.
  const drains = columns.some((e) => callsIn(e).some((c) => TRANSFORMS.has(c.name.toLowerCase())));
  if (!(source instanceof UnionSource) || !(source.hasSubquery || drains)) return seriesHeap(source, series, ordered, columns, plan, fieldIndex);
  const byPart = new Map<number, T[]>();
  for (const item of ordered) {
    const part = source.partOf(item.ref);
    byPart.set(part, [...(byPart.get(part) ?? []), item]);
  }
  const inputs = [...byPart]
    .sort(([a], [b]) => a - b)
    .map(([part, items]) => seriesHeap(source.parts[part]!, series.filter((s) => source.partOf(s) === part), items, columns, plan, fieldIndex));
  return new InputMerge(inputs, drains ? undefined : rawRowLess(columns, plan.schema, fieldIndex, plan.ascending));
}

function seriesHeap<T extends MergeItem>(source: MeasurementSource, series: readonly SeriesRef[], items: T[], columns: readonly Expr[], plan: SelectPlan, fieldIndex: ReadonlyMap<string, number>): GoHeap<T> {
  // A heap of one series never compares (GROUP BY every tag: lastpoint's 100 groups).
  if (items.length <= 1) return new GoHeap(items, () => false);
  const less = source.rowsInSeriesOrder
    ? seriesRankLess(series)
    : source.tiesInSeriesOrder
      ? timeThenSeriesLess(series, plan.ascending, source.seriesWindows)
      : rawRowLess(columns, plan.schema, fieldIndex, plan.ascending);
  return new GoHeap(items, lanesInInnerOrder(less, plan.ascending, source.seriesWindows));
}

/**
 * 1.x's sorted merge over inputs, each a heap of its own series; an input's head is its heap's
 * root. Without `less`, 1.x's merge iterator instead: the inputs tie, so the Go heap picks one
 * and it is read to its end before the heap picks the next (not FROM order past two inputs).
 */
class InputMerge<T extends MergeItem> implements MergeHeap<T> {
  private readonly heap: GoHeap<GoHeap<T>>;
  /** The input the last pop() read: back in the heap once its next row is known (the next pop). */
  private current: GoHeap<T> | undefined;

  constructor(
    inputs: readonly GoHeap<T>[],
    private readonly less: ((a: T, b: T) => boolean) | undefined,
  ) {
    this.heap = new GoHeap(inputs, less ? (a, b) => less(a.items[0]!, b.items[0]!) : () => false);
  }

  pop(): T | undefined {
    if (this.current && this.current.size > 0) {
      if (!this.less) return this.current.pop();
      this.heap.push(this.current);
    }
    this.current = this.heap.pop();
    return this.current?.pop();
  }

  push(item: T): void {
    this.current!.push(item);
  }
}
