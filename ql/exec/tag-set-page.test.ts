import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageTagSets } from './tag-set-page.js';

// The shared `net` series grouped by host, iface (influxd 1.6.7, case s-c074): the series
// without a host sorts after the others in the index, first in the answer.
const groups = [['', 'eth0'], ['server01', 'eth0'], ['server01', 'eth1'], ['server02', 'eth0']].map((key) => ({ key }));

test('pages by the index key, which leaves out missing tags', () => {
  assert.deepEqual(pageTagSets(groups, ['host', 'iface'], 2, 2).map((g) => g.key), [['', 'eth0'], ['server02', 'eth0']]);
  // GROUP BY iface, host: the index key still names host first.
  const swapped = groups.map((g) => ({ key: [g.key[1]!, g.key[0]!] }));
  assert.deepEqual(pageTagSets(swapped, ['iface', 'host'], 1, 0).map((g) => g.key), [['eth0', 'server01']]);
});

test('SOFFSET without SLIMIT keeps none; neither keeps all', () => {
  assert.deepEqual(pageTagSets(groups, ['host', 'iface'], 0, 1), []);
  assert.equal(pageTagSets(groups, ['host', 'iface'], 0, 0).length, 4);
});
