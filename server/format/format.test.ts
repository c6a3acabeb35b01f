import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultsToJson, stringify } from './json.js';
import { resultsToCsv } from './csv.js';
import { rfc3339Nano, formatTimeNs, parseEpoch } from './epoch.js';

test('JSON: Go field order, omitempty, exact int64 and epoch', () => {
  const body = resultsToJson(
    [
      { statementId: 0, series: [{ name: 'cpu', columns: ['time', 'v'], values: [[1577836800123456789n, 2n ** 62n], [0n, 1.5]] }] },
      { statementId: 1 },
      { statementId: 2, series: [{ name: 'databases', columns: ['name'], values: [] }] },
      { statementId: 3, error: 'database not found: x' },
    ],
    { epoch: 'ns', pretty: false },
  );
  assert.equal(
    body,
    '{"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","v"],"values":[[1577836800123456789,4611686018427387904],[0,1.5]]}]},' +
      '{"statement_id":1},{"statement_id":2,"series":[{"name":"databases","columns":["name"]}]},{"statement_id":3,"error":"database not found: x"}]}\n',
  );
});

test('RFC 3339 with trailing zeros trimmed, and epoch units truncate', () => {
  assert.equal(rfc3339Nano(0n), '1970-01-01T00:00:00Z');
  assert.equal(rfc3339Nano(1709942400123000000n), '2024-03-09T00:00:00.123Z');
  assert.equal(rfc3339Nano(-1n), '1969-12-31T23:59:59.999999999Z');
  assert.equal(formatTimeNs(1999n, 'u'), 1n);
  assert.equal(formatTimeNs(7_200_000_000_000n, 'h'), 2n);
  assert.equal(parseEpoch('n'), 'ns');
  assert.equal(parseEpoch(''), undefined);
  assert.equal(parseEpoch('x'), 'invalid');
});

test('pretty JSON indents with four spaces like Go MarshalIndent', () => {
  assert.equal(stringify({ a: [1, 2], b: {} }, true), '{\n    "a": [\n        1,\n        2\n    ],\n    "b": {}\n}');
});

test('CSV layout of 1.x', () => {
  const csv = resultsToCsv(
    [
      {
        statementId: 0,
        series: [
          { name: 'cpu', tags: { host: 'server01', region: 'us-east' }, columns: ['time', 'count'], values: [[0n, 144]] },
          { name: 'cpu', tags: { host: 'a' }, columns: ['time', 'count'], values: [[0n, 1]] },
        ],
      },
      { statementId: 1, series: [{ name: 'cpu', columns: ['time', 'v', 'w'], values: [[1709942400000000000n, 38.51, null]] }] },
    ],
    undefined,
  );
  assert.equal(
    csv,
    'name,tags,time,count\ncpu,"host=server01,region=us-east",0,144\ncpu,host=a,0,1\n\nname,tags,time,v,w\ncpu,,1709942400000000000,38.51,\n',
  );
});

test('CSV tags as 1.x prints the hash key: line-protocol escapes, empty values left out', () => {
  const csv = resultsToCsv(
    [{ statementId: 0, series: [{ name: 'hvac zone,east', tags: { 'room name': 'a,b=c', host: '', bldg: 'Zürich' }, columns: ['time', 'v'], values: [[0n, 1]] }] }],
    undefined,
  );
  assert.equal(csv, 'name,tags,time,v\n"hvac zone,east","bldg=Zürich,room\\ name=a\\,b\\=c",0,1\n');
});
