/**
 * What a SELECT derives from its compiled plan alone, kept with the plan object: the WHERE
 * split into the series selection and a row filter, the aggregate calls of the projection,
 * and the dense window layout of a group without a row filter.
 *
 * Why: these were recomputed for every request (and every group), and for a small query
 * they cost about as much as reading its data, mostly while V8 still interprets them. A
 * repeated statement gets the same plan object from the plan memo (plan-memo.ts) until the
 * schema changes or a now()-relative range moves; a new plan is a new key, so nothing here
 * outlives what it was computed from (a WeakMap: entries go with their plan).
 */
import { splitCondition, type ConditionSplit } from '../plan/condition.js';
import { collectAggregates, type AggCall, type AggTransform } from './agg-calls.js';
import { denseLayout, type DenseLayout } from './dense-windows.js';
import type { SelectPlan } from './select-plan.js';

export interface PlanAggregates {
  readonly calls: readonly AggCall[];
  readonly transforms: readonly AggTransform[];
}

interface Derived {
  split?: ConditionSplit;
  aggregates?: PlanAggregates;
  /** null: computed, and the general path answers. */
  dense?: DenseLayout | null;
}

const derived = new WeakMap<SelectPlan, Derived>();

function derivedOf(plan: SelectPlan): Derived {
  let d = derived.get(plan);
  if (d === undefined) derived.set(plan, (d = {}));
  return d;
}

/** splitCondition of the plan's condition without its time bounds. */
export function conditionOf(plan: SelectPlan): ConditionSplit {
  const d = derivedOf(plan);
  return (d.split ??= splitCondition(plan.time.rest, plan.schema));
}

/** collectAggregates of the plan's projection and GROUP BY time interval. */
export function aggregatesOf(plan: SelectPlan): PlanAggregates {
  const d = derivedOf(plan);
  return (d.aggregates ??= collectAggregates(plan.projection.columns, plan.window?.interval));
}

/**
 * Give `to` the aggregate calls already collected for `from`, a plan with the same projection
 * and window (shape-plan-memo.ts: a plan rebound to another WHERE condition).
 */
export function inheritAggregates(from: SelectPlan, to: SelectPlan): void {
  const aggregates = derived.get(from)?.aggregates;
  if (aggregates !== undefined && from.projection === to.projection && from.window === to.window) derivedOf(to).aggregates = aggregates;
}

/** denseLayout of a group of this plan that has no row filter. */
export function denseLayoutOf(plan: SelectPlan): DenseLayout | undefined {
  const d = derivedOf(plan);
  if (d.dense === undefined) {
    const { calls, transforms } = aggregatesOf(plan);
    d.dense = denseLayout(plan, calls, transforms, false) ?? null;
  }
  return d.dense ?? undefined;
}

/**
 * `plan` over [min, max] only (a slice of its windows: subquery-slices.ts), keeping what it
 * derived from its projection and condition, which the range does not change.
 */
export function planWithin(plan: SelectPlan, min: bigint, max: bigint): SelectPlan {
  const part: SelectPlan = { ...plan, time: { ...plan.time, min, max } };
  const d = derived.get(plan);
  if (d) derived.set(part, { ...(d.split && { split: d.split }), ...(d.aggregates && { aggregates: d.aggregates }) });
  return part;
}
