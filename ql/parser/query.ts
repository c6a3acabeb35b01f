/**
 * parseQuery(): a query text → its statements. Statements are separated by `;` (outside strings,
 * quoted identifiers, regexes and comments, which the scanner skips as whole tokens); empty
 * statements and a trailing `;` are allowed, as in 1.x. Bound parameters come from `params`.
 */
import P from 'parsimmon';
import type { Statement } from '../ast/statements.js';
import { InvariantError, ParseError } from '../errors.js';
import type { Expr } from '../ast/nodes.js';
import { exprAt } from './expr.js';
import { eof, fatal, peek, sym, unexpectedAt } from './lexeme.js';
import { language } from './language.js';
import { withParams } from './params.js';
import type { Params } from './params.js';

const semicolons = sym(';').many();

const query = semicolons.then(
  P.notFollowedBy(eof)
    .then(language.statement)
    .skip(P.alt(sym(';').atLeast(1), P.lookahead(eof), fatal(';')))
    .many(),
).skip(eof);

/**
 * Parses `text` into statements. Throws ParseError with the 1.x text on any syntax error (the first
 * error ends the parse, as in 1.x). Never throws anything else for any input string.
 */
export function parseQuery(text: string, params?: Params): Statement[] {
  return withParams(params, () => {
    let result: P.Result<Statement[]>;
    try {
      result = query.parse(text);
    } catch (e) {
      if (e instanceof ParseError) throw e;
      if (e instanceof RangeError) throw ParseError.plain('query is too deeply nested');
      throw new InvariantError(`parser failure: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (result.status) return result.value;
    // Not reached: every committed path throws its own error. Kept as a typed fallback.
    throw unexpectedAt(text, result.index.offset, result.expected.length > 0 ? result.expected : [';']);
  });
}

/** Parses exactly one statement (1.x ParseStatement). */
export function parseStatement(text: string, params?: Params): Statement {
  const stmts = parseQuery(text, params);
  const [first] = stmts;
  if (first === undefined) throw unexpectedAt(text, text.length, ['SELECT', 'DELETE', 'SHOW', 'CREATE', 'DROP', 'EXPLAIN', 'GRANT', 'REVOKE', 'ALTER', 'SET', 'KILL']);
  if (stmts.length > 1) throw ParseError.plain('expected exactly one statement');
  return first;
}

/** Parses one expression (1.x ParseExpr), e.g. for tests and tools; the whole text must be used. */
export function parseExpr(text: string, params?: Params): Expr {
  return withParams(params, () => {
    const r = exprAt(text, 0, true);
    if (r === null) throw unexpectedAt(text, 0, ['identifier', 'string', 'number', 'bool']);
    if (peek(text, r.end).type !== 'EOF') throw unexpectedAt(text, r.end, ['EOF']);
    return r.e;
  });
}
