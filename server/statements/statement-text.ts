/**
 * The printed text of a statement, for the statement summary and the running-query registry.
 * /query parses through a cache, so the same AST object comes back for a repeated query and
 * its text is printed once (a WeakMap: the text goes when the AST does).
 */
import { printStatement, type Statement } from '../../ql/index.js';

const printed = new WeakMap<Statement, string>();

export function statementText(s: Statement): string {
  let text = printed.get(s);
  if (text === undefined) printed.set(s, (text = printStatement(s)));
  return text;
}

/**
 * `q` when the statement summary may record the statements parsed from it by shape (shape.ts),
 * keeping each AST to print when the summary is read: they were parsed without bound parameters
 * (so the AST follows from the text alone) and none carries a password (no password outlives its
 * request). Undefined otherwise: the statements are printed when recorded.
 */
export function shapeableText(q: string, boundParameters: boolean, statements: readonly Statement[]): string | undefined {
  if (boundParameters) return undefined;
  for (const s of statements) if ('password' in s) return undefined;
  return q;
}
