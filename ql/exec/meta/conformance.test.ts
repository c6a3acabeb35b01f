/**
 * The recorded InfluxDB 1.6.7 answers of the conformance suite's `show` and `ddl` categories
 * (fixtures/meta/conformance.json, from shared/conformance), replayed against a real engine
 * loaded with the conformance dataset. Statements that need the SELECT executor are skipped;
 * every other statement's `series` must equal the recorded one, errors must be errors.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { parseQuery } from '../../parser/query.js';
import { fixtureUrl, loadDataset, openTestEngine, run, write, type TestEngine } from './test-support.js';

interface Recorded {
  statement_id: number;
  series?: unknown[];
  error?: string;
}
interface Case {
  id: string;
  db: string;
  q: string;
  setup: ({ q: string } | { write: string; db: string })[];
  results: Recorded[];
  verify: { q: string; db: string; results: Recorded[] }[];
}

const cases = JSON.parse(await readFile(fixtureUrl('conformance.json'), 'utf8')) as Case[];
const fastHash = (p: string): Promise<string> => Promise.resolve(`plain:${p}`);

async function check(t: TestEngine, q: string, db: string, expected: readonly Recorded[], label: string): Promise<void> {
  const kinds = parseQuery(q).map((s) => s.kind);
  const got = await run(t.engine, q, { db, hashPassword: fastHash });
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] === 'Select') continue;
    const want = expected[i];
    assert.ok(want, `${label}: no recorded result ${i}`);
    if (want.error !== undefined) {
      assert.ok(got[i]?.error, `${label} #${i}: expected error ${want.error}, got ${JSON.stringify(got[i])}`);
      continue;
    }
    assert.equal(got[i]?.error, undefined, `${label} #${i}: unexpected error`);
    assert.deepEqual(got[i]?.series, want.series, `${label} #${i}`);
  }
}

describe('conformance: show and ddl answers of InfluxDB 1.6.7', () => {
  let t: TestEngine;
  before(async () => {
    t = await openTestEngine();
    await loadDataset(t.engine);
  });
  after(async () => t.close());

  for (const c of cases) {
    test(c.id, async () => {
      for (const s of c.setup) {
        if ('write' in s) await write(t.engine, s.db, s.write);
        else for (const r of await run(t.engine, s.q)) assert.equal(r.error, undefined, `setup ${s.q}`);
      }
      await check(t, c.q, c.db, c.results, c.id);
      for (const v of c.verify) await check(t, v.q, v.db, v.results, `${c.id} verify ${v.q}`);
    });
  }
});
