/**
 * Which token each literal node of a parse came from, recorded only while the shape cache
 * (./shape-cache.ts) parses a text it may keep as a template: the cache needs to know which
 * nodes of the tree are a token's value (and may be rebound from another text's token) and
 * which literal tokens were consumed some other way (LIMIT, fill(), tz(), inside a regex) and
 * must therefore match verbatim. Parsing is synchronous; record() restores the previous state
 * on every exit path.
 */
import type { Expr } from '../ast/nodes.js';
import type { Token } from './scanner.js';

export interface LiteralOrigin {
  readonly start: number;
  readonly end: number;
  readonly type: Token['type'];
  /** The node is the token's value negated (`-5`: the sign folded into the literal). */
  readonly negated: boolean;
}

let origins: Map<Expr, LiteralOrigin> | null = null;

/** Notes that `node` is the value of `t` (negated when a leading `-` was folded in). */
export function recordLiteral(node: Expr, t: Token, negated: boolean): void {
  if (origins !== null) origins.set(node, { start: t.start, end: t.end, type: t.type, negated });
}

/** Runs `fn` with recording on; the origins of the literal nodes it built. */
export function withLiteralOrigins<T>(fn: () => T): { value: T; origins: Map<Expr, LiteralOrigin> } {
  const saved = origins;
  const mine = new Map<Expr, LiteralOrigin>();
  origins = mine;
  try {
    return { value: fn(), origins: mine };
  } finally {
    origins = saved;
  }
}
