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
