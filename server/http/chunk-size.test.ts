import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CHUNK_SIZE, parseChunkSize } from './chunk-size.js';

test('chunk_size: a positive integer, else the default (1.x; a size below 1 hung the chunk writer)', () => {
  assert.equal(parseChunkSize('5'), 5);
  assert.equal(parseChunkSize('+7'), 7);
  for (const bad of [null, '', '0', '-1', '-10', '1.5', 'abc', ' 5', '1e3']) assert.equal(parseChunkSize(bad), DEFAULT_CHUNK_SIZE, String(bad));
  assert.equal(parseChunkSize('9223372036854775807'), Number.MAX_SAFE_INTEGER);
});
