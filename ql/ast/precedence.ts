/**
 * THE operator precedence table (spec "TimeseriesQL", plus 1.x's bitwise operators). Higher binds
 * tighter; binary operators are left-associative. The parser folds with it and the printer uses it
 * to place the minimal parentheses.
 */
import type { BinaryOp } from './nodes.js';

export const PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  OR: 1,
  AND: 2,
  '=': 3, '!=': 3, '<': 3, '<=': 3, '>': 3, '>=': 3, '=~': 3, '!~': 3,
  '+': 4, '-': 4, '|': 4, '^': 4,
  '*': 5, '/': 5, '%': 5, '&': 5,
};

/** Unary `-` and NOT bind tighter than every binary operator (level 6 of the spec table). */
export const UNARY_PRECEDENCE = 6;
