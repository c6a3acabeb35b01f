/**
 * The series order of a statement whose only aggregate is one integral() call, as 1.x's
 * stream reducer gives it. 1.x reads every group of the statement through one merged input
 * (measurement, then tag set, then time) into one reducer per group, kept in a Go map: rows of
 * windows closed by a later point are sent as they come, group after group, but the window
 * still open when the input ends (the Close row) is sent only after the whole input, for every
 * group in map order, popped from a stack. A map of up to 8 groups is walked in insertion order
 * unless its random start falls on a filled slot past the first (most runs; 1.6.7 is not
 * deterministic here), so the Close rows come in reverse group order. The emitter then starts
 * a new series wherever the group changes, and LIMIT/OFFSET count each such piece apart (1.x's
 * limit iterator resets when the series changes).
 */
import type { Cell } from '../result.js';
import type { SelectPlan } from './select-plan.js';
import { aggregatesOf } from './plan-derived.js';

/** One group's rows (unpaged, in output order) and whether its last row is a Close row. */
export interface IntegralGroupRows {
  readonly name: string;
  readonly tags: Record<string, string> | undefined;
  readonly values: Cell[][];
  readonly endsWithClose: boolean;
}

export interface IntegralPiece {
  readonly name: string;
  readonly tags: Record<string, string> | undefined;
  readonly values: Cell[][];
}

/** One integral() call, alone or under math, without transforms: one 1.x stream iterator. */
export function isIntegralStream(plan: SelectPlan): boolean {
  if (plan.projection.shape === 'raw') return false;
  const { calls, transforms } = aggregatesOf(plan);
  return transforms.length === 0 && calls.length > 0 && calls.every((c) => c.reducer === 'integral' && c.key === calls[0]!.key);
}

/** `groups` in the order 1.x merges them (its map's insertion order). */
export function integralSeriesPieces(groups: readonly IntegralGroupRows[], offset: number, limit: number): IntegralPiece[] {
  const pieces: { group: IntegralGroupRows; values: Cell[][] }[] = [];
  const add = (group: IntegralGroupRows, values: Cell[][]): void => {
    if (values.length === 0) return;
    const last = pieces[pieces.length - 1];
    if (last && last.group === group) last.values.push(...values);
    else pieces.push({ group, values: [...values] });
  };
  for (const g of groups) add(g, g.endsWithClose ? g.values.slice(0, -1) : g.values);
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]!;
    if (g.endsWithClose && g.values.length > 0) add(g, g.values.slice(-1));
  }
  const out: IntegralPiece[] = [];
  for (const p of pieces) {
    let values = offset > 0 ? p.values.slice(offset) : p.values;
    if (limit > 0) values = values.slice(0, limit);
    if (values.length > 0) out.push({ name: p.group.name, tags: p.group.tags, values });
  }
  return out;
}
