/**
 * The last step of an aggregate group's rows: their output order, then OFFSET and LIMIT.
 */
import type { Cell } from '../result.js';
import type { GroupRun } from './select-raw.js';
import { window as windowOf } from './window.js';

function reverseWindows(rows: Cell[][], g: GroupRun): Cell[][] {
  const spec = g.plan.window;
  if (!spec) return rows;
  const groups: Cell[][][] = [];
  let current: bigint | undefined;
  for (const r of rows) {
    const start = windowOf(r[0] as bigint, spec).start;
    if (start !== current || groups.length === 0) groups.push([]);
    current = start;
    groups[groups.length - 1]!.push(r);
  }
  return groups.reverse().flat();
}

/**
 * Order, OFFSET and LIMIT of a group's rows. Under ORDER BY time DESC, top(), bottom() and
 * sample() reverse the windows but keep each window's points in ascending time (1.x sorts a window's
 * selected points by time after choosing them).
 */
export function finish(g: GroupRun, rows: Cell[][], keepWindowOrder = false, paged = false): Cell[][] {
  let out = g.plan.ascending ? rows : keepWindowOrder ? reverseWindows(rows, g) : rows.reverse();
  const { offset, limit } = paged ? { offset: 0, limit: 0 } : g.plan.stmt;
  if (offset > 0) out = out.slice(offset);
  if (limit > 0) out = out.slice(0, limit);
  return out;
}

