/** idMembership (the id filter of SHOW TAG VALUES ... WHERE) answers exactly as a Set would. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idMembership } from './show-tag-values.js';

function agreesWithSet(ids: number[], probes: number[]): void {
  const has = idMembership(ids);
  const set = new Set(ids);
  for (const p of probes) assert.equal(has(p), set.has(p), `id ${p} of [${ids.slice(0, 8).join(',')}...]`);
}

test('idMembership: empty, dense, sparse and unsorted id sets answer as a Set', () => {
  const probes = [-1, 0, 1, 2, 5, 63, 64, 99, 100, 101, 4095, 4096, 1_000_000, 1_000_001, 2 ** 31, 1.5, NaN];
  agreesWithSet([], probes);
  agreesWithSet([0], probes);
  agreesWithSet([0, 1, 2, 100], probes);
  agreesWithSet([100, 2, 0, 5, 100], probes); // unsorted, duplicate
  agreesWithSet([5, 1_000_000], probes); // sparse: Set path
  agreesWithSet([2 ** 31], probes); // huge id: Set path, no giant map
});

test('idMembership: random sets of every density agree with a Set', () => {
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let round = 0; round < 200; round++) {
    const space = 1 + rnd(200_000);
    const ids = Array.from({ length: rnd(2000) }, () => rnd(space));
    const probes = Array.from({ length: 500 }, () => rnd(space + 10));
    agreesWithSet(ids, [...probes, ...ids]);
  }
});
