import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloatF } from './go-float.js';

test('formatFloatF writes Go %f -1 text (no exponent, shortest digits)', () => {
  assert.equal(formatFloatF(1.5), '1.5');
  assert.equal(formatFloatF(-0.000123), '-0.000123');
  assert.equal(formatFloatF(1.5e21), '1500000000000000000000');
  assert.equal(formatFloatF(1e-7), '0.0000001');
  assert.equal(formatFloatF(-2.5e-8), '-0.000000025');
  assert.equal(formatFloatF(1.7976931348623157e308), '17976931348623157' + '0'.repeat(292));
  assert.equal(formatFloatF(5e-324), '0.' + '0'.repeat(323) + '5');
  assert.equal(formatFloatF(3), '3');
});

test('formatFloatF round-trips through Number() on random doubles', () => {
  for (let i = 0; i < 2000; i++) {
    const v = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 60 - 30);
    assert.equal(Number(formatFloatF(v)), v, String(v));
  }
});

test('a float -0 prints as -0 in every writer (Go formats a float64 so); 0 stays 0', async () => {
  const { goFloatText } = await import('./go-float.js');
  const { resultsToJson, chunkToJson } = await import('./json.js');
  const { resultsToCsv } = await import('./csv.js');
  assert.equal(goFloatText(-0), '-0');
  assert.equal(goFloatText(0), '0');
  assert.equal(formatFloatF(-0), '-0');
  const results = [{ statementId: 0, series: [{ name: 'm', columns: ['time', 'a', 'b'], values: [[1n, -0, 0]] }] }];
  assert.match(resultsToJson(results, { epoch: 'ns', pretty: false }), /\[1,-0,0\]/);
  assert.match(resultsToJson(results, { epoch: 'ns', pretty: true }), /1,\s*-0,\s*0\s*\]/);
  assert.match(chunkToJson(results[0]!, { epoch: 'ns', pretty: false }), /\[1,-0,0\]/);
  assert.match(resultsToCsv(results, 'ns'), /m,,1,-0,0/);
});
