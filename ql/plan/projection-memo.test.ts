/** The projection memo answers only for the same field list analyzed with equal inputs; anything else is analyzed afresh. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldType } from '../../engine/index.js';
import type { SelectStatement } from '../ast/statements.js';
import { parseStatement } from '../parser/query.js';
import { analyzeProjection, type Projection, type SchemaInfo } from './projection.js';

const schemaOf = (fields: Array<[string, FieldType]>, tags: string[], fromTags?: string[]): SchemaInfo => ({
  fields: new Map(fields),
  tags: new Set(tags),
  ...(fromTags ? { fromTags: new Set(fromTags) } : {}),
});

const fieldsOf = (q: string) => (parseStatement(q) as SelectStatement).fields;

/** The analysis on a fresh copy of the field list (no memo entry can apply). */
const fresh = (q: string, schema: SchemaInfo, dims: string[], byTime: boolean): Projection | string => {
  try {
    return analyzeProjection(fieldsOf(q), schema, new Set(dims), byTime);
  } catch (e) {
    return (e as Error).message;
  }
};

test('one field list analyzed against other schemas, GROUP BY tags and time grouping: always the fresh answer', () => {
  const inputs: Array<[SchemaInfo, string[], boolean]> = [
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer]], ['host']), [], false],
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer]], ['host']), ['host'], false],
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer], ['c', FieldType.String]], ['host']), [], false],
    [schemaOf([['b', FieldType.Integer], ['a', FieldType.Float]], ['host']), [], false],
    [schemaOf([['a', FieldType.Float], ['c', FieldType.Integer]], ['host']), [], false],
    [schemaOf([['a', FieldType.String], ['b', FieldType.Integer]], ['host']), [], false],
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer]], ['host', 'dc']), [], false],
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer]], ['host'], ['b']), [], false],
    [schemaOf([['a', FieldType.Float], ['b', FieldType.Integer]], ['host']), [], true],
  ];
  for (const q of ['SELECT * FROM m', 'SELECT count(*) FROM m', 'SELECT a + b FROM m', 'SELECT max(a), b FROM m', 'SELECT /a|c/ FROM m', 'SELECT mean(a) FROM m']) {
    const fields = fieldsOf(q);
    // Every ordered pair: the first analysis leaves its entry, the second must not misuse it.
    for (const first of inputs) {
      for (const [schema, dims, byTime] of inputs) {
        fresh(q, ...first);
        try {
          analyzeProjection(fields, first[0], new Set(first[1]), first[2]);
        } catch {
          // an invalid analysis leaves no entry
        }
        const want = fresh(q, schema, dims, byTime);
        let got: Projection | string;
        try {
          got = analyzeProjection(fields, schemaOf([...schema.fields], [...schema.tags], schema.fromTags && [...schema.fromTags]), new Set(dims), byTime);
        } catch (e) {
          got = (e as Error).message;
        }
        assert.deepEqual(got, want, `${q} ${JSON.stringify([[...schema.fields], [...schema.tags], dims, byTime])}`);
      }
    }
  }
});

test('equal inputs give the kept projection', () => {
  const fields = fieldsOf('SELECT max(usage_user) FROM cpu');
  const schema = () => schemaOf([['usage_user', FieldType.Integer]], ['hostname']);
  const a = analyzeProjection(fields, schema(), new Set(), true);
  assert.equal(analyzeProjection(fields, schema(), new Set(), true), a);
});
