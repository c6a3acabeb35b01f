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
