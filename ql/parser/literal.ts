/**
 * Literal tokens as AST nodes (influxql's parseUnaryExpr for literals), shared by the expression
 * parser and the shape cache, which rebinds a cached parse's literals from a new text's tokens
 * and must build exactly the nodes (and throw exactly where) a fresh parse would.
 */
import { parseDuration } from '../ast/duration.js';
import * as N from '../ast/nodes.js';
import type { Expr } from '../ast/nodes.js';
import { ParseError } from '../errors.js';
import { decimalValue, posAt } from './scanner.js';
import type { Token } from './scanner.js';

const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** A literal token as a node; null for non-literal tokens. Unbound `$params` are errors here. */
export function literalOf(input: string, t: Token): Expr | null {
  switch (t.type) {
    case 'STRING': return N.string(t.lit);
    case 'TRUE': case 'FALSE': return N.boolean(t.type === 'TRUE');
    case 'INTEGER': {
      const v = decimalValue(t.lit);
      if (v <= INT64_MAX) return N.integer(v);
      if (v <= UINT64_MAX) return N.unsigned(v);
      throw ParseError.at('unable to parse integer', posAt(input, t.start));
    }
    case 'NUMBER': {
      const v = Number(t.lit);
      if (!Number.isFinite(v)) throw ParseError.at('unable to parse number', posAt(input, t.start));
      return N.number(v);
    }
    case 'DURATIONVAL': {
      const d = parseDuration(t.lit);
      if (!d.ok) throw ParseError.plain(d.error);
      return N.duration(d.ns);
    }
    case 'BOUNDPARAM':
      throw ParseError.plain(t.lit === '' ? 'empty bound parameter' : `missing parameter: ${t.lit}`);
    default:
      return null;
  }
}

/** `-5`, `-1.5`, `-10s` fold into the literal (1.x); other literals after a sign are errors. */
export function negate(lit: Expr): Expr | null {
  switch (lit.kind) {
    case 'Integer': return N.integer(-lit.value);
    case 'Number': return N.number(-lit.value);
    case 'Duration': return N.duration(BigInt.asIntN(64, -lit.ns));
    case 'Unsigned':
      if (lit.value === 1n << 63n) return N.integer(-lit.value);
      throw ParseError.plain(`constant -${lit.value} underflows int64`);
    default: return null;
  }
}
