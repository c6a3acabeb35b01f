/** Public surface of the query layer: the TimeseriesQL parser, AST and printer. */
export { parseExpr, parseQuery, parseStatement } from './parser/query.js';
export { parseParams } from './parser/params.js';
export type { ParamValue, Params } from './parser/params.js';
export { ParseError, QueryError, PARSE_ERROR_PREFIX } from './errors.js';
export type { SourcePos } from './errors.js';
export * from './ast/nodes.js';
export type * from './ast/statements.js';
export { printStatement, printQuery } from './ast/print-statement.js';
export type { PrintOptions } from './ast/print-statement.js';
export { printExpr, printSelect, printRegex } from './ast/print.js';
export { walkExpr, rewriteExpr, someExpr, exprChildren, selectExprs, statementExprs } from './ast/walk.js';
export { PRECEDENCE } from './ast/precedence.js';
export { parseDuration, formatDuration, goDurationString, NS } from './ast/duration.js';
export { compileRegex } from './ast/regex.js';
export { quoteIdent, quoteString, isKeyword } from './ast/keywords.js';
