/** SQL (the `/api/v1/chdb` subset) → TimeseriesQL plans; see ./plan.ts. */
export { loadSqlParser } from './parser-loader.js';
export { parseSql, planSql, schemaStatements, schemaFromResults, SqlParseError, type SqlSelect, type SqlSchema, type SqlPlan, type OutColumn, type ColumnSource } from './plan.js';
export { shapeRows, compareCells, type SqlRows } from './rows.js';
export { SqlUnsupportedError } from './expr.js';
