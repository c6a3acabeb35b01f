import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStatement } from '../../ql/index.js';
import { chunkStyleOf } from './chunk-style.js';
import { chunkLines } from './chunks.js';

const opts = { epoch: undefined, pretty: false };
const result = {
  statementId: 0,
  series: [
    { name: 'a', columns: ['tagKey'], values: [['x'], ['y']] },
    { name: 'b', columns: ['tagKey'], values: [['z']] },
  ],
};

test('chunk styles follow 1.6.7 per statement kind', () => {
  assert.equal(chunkStyleOf(parseStatement('SELECT v FROM m')), 'rows');
  assert.equal(chunkStyleOf(parseStatement('SHOW SERIES')), 'rows');
  assert.equal(chunkStyleOf(parseStatement('SHOW TAG KEYS')), 'series');
  assert.equal(chunkStyleOf(parseStatement('SHOW TAG VALUES WITH KEY = host')), 'series');
  assert.equal(chunkStyleOf(parseStatement('SHOW MEASUREMENTS')), 'whole');
  assert.equal(chunkStyleOf(parseStatement('SHOW SERIES CARDINALITY')), 'whole');
  assert.equal(chunkStyleOf(parseStatement('SHOW SERIES EXACT CARDINALITY')), 'rows');
});

test('chunkLines lays a result out per style', () => {
  assert.deepEqual(chunkLines([result], 1, opts, 'whole'), [
    '{"results":[{"statement_id":0,"series":[{"name":"a","columns":["tagKey"],"values":[["x"],["y"]]},{"name":"b","columns":["tagKey"],"values":[["z"]]}]}]}\n',
  ]);
  assert.deepEqual(chunkLines([result], 1, opts, 'series'), [
    '{"results":[{"statement_id":0,"series":[{"name":"a","columns":["tagKey"],"values":[["x"],["y"]]}]}]}\n',
    '{"results":[{"statement_id":0,"series":[{"name":"b","columns":["tagKey"],"values":[["z"]]}]}]}\n',
  ]);
  assert.equal(chunkLines([result], 1, opts, 'rows').length, 3);
});

test('unchunked: a SELECT series of more than 10,000 rows keeps 1.x partial flag (10,000 does not)', async () => {
  const { resultsToJson } = await import('./json.js');
  const rows = (n: number) => Array.from({ length: n }, (_, i) => [BigInt(i) * 1_000_000_000n, i]);
  const body = (n: number) => JSON.parse(resultsToJson([{ statementId: 0, series: [{ name: 'm', columns: ['time', 'v'], values: rows(n) }] }], opts)) as { results: { series: { partial?: boolean }[] }[] };
  assert.equal(body(10_000).results[0]!.series[0]!.partial, undefined);
  assert.equal(body(10_001).results[0]!.series[0]!.partial, true);
});
