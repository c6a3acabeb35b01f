/**
 * Light queries beside heavy ones on a real server and engine (ql/exec/slices.ts): statements
 * share the one event-loop thread by least attained service, so a light statement that
 * arrives while heavy ones run, or together with them, is answered before them and in about
 * its own time; the heavy ones still finish, or still time out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { alone, sleep, timed, waitUntil } from './query-timing.js';
import { call, q, startRealServer, type RealServer } from './test-server.js';

const T0 = 1_600_000_000_000_000_000n;

/** A full scan whose condition no block statistic settles and no row meets: seconds of executor work, an empty answer. */
const HEAVY = 'SELECT * FROM heavy WHERE v + w = -1';
/** The same over 1/5 of the points: many of the old 20 ms slices, far less than a heavy one. */
const LIGHT = 'SELECT * FROM light WHERE v + w = -1';
/** A dashboard's template variable: well within one slice. */
const VARIABLE = 'SHOW TAG VALUES FROM light WITH KEY = "host"';
const EMPTY = '{"results":[{"statement_id":0}]}\n';

async function load(srv: RealServer): Promise<void> {
  assert.equal((await call(srv, { method: 'POST', path: q('CREATE DATABASE db') })).status, 200);
  for (const [m, n] of [['heavy', 300_000], ['light', 60_000]] as const) {
    const lines: string[] = [];
    for (let k = 0; k < n; k++) lines.push(`${m},host=h${k % 100} v=${k},w=${k * 2} ${T0 + BigInt(k) * 1_000_000_000n}`);
    const res = await call(srv, { method: 'POST', path: '/write?db=db', body: lines.join('\n') });
    assert.equal(res.status, 204, res.text);
  }
  // Every point in TSM files before the measurements: a flush in the middle of one round (or
  // in some rounds only) made the light statement wait seconds for it, on main too.
  await srv.deps.flush();
}

describe('a light statement beside heavy ones', { timeout: 300_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'server.query_timeout_secs': 120 });
    await load(srv);
    await timed(srv, HEAVY); // warm the code paths the measurements below run
  });
  after(() => srv.close());

  it('sent while three heavy statements run: answered before them, in about its own time; they still complete', async (t) => {
    const own = await alone(srv, LIGHT);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const heavy = [0, 1, 2].map(() => timed(srv, HEAVY));
      await waitUntil('heavy statements running', () => srv.deps.queries!.size === 3, 10_000);
      // Long enough for each heavy statement to have run more than the light one needs.
      await sleep(6 * own);
      const light = await timed(srv, LIGHT);
      assert.equal(light.status, 200, light.text);
      assert.equal(light.text, EMPTY);
      const done = await Promise.all(heavy);
      for (const h of done) {
        assert.equal(h.status, 200, h.text.slice(0, 200));
        assert.equal(h.text, EMPTY);
        assert.ok(light.at < h.at, `light answered after a heavy one (${light.ms.toFixed(0)} ms)`);
      }
      best = Math.min(best, light.ms);
    }
    // Served in turn with three heavy statements (20 ms slices, FIFO) it took about four times
    // its own time; ranked by attained service it runs ahead of them whenever it can.
    t.diagnostic(`light statement: ${best.toFixed(0)} ms behind heavy ones, ${own.toFixed(0)} ms alone`);
    assert.ok(best < 2 * own, `light statement: ${best.toFixed(0)} ms behind heavy ones, ${own.toFixed(0)} ms alone`);
  });

  it('sent together with three heavy statements: answered first, within a few short slices', async (t) => {
    const own = await alone(srv, VARIABLE);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const heavy = [0, 1, 2].map(() => timed(srv, HEAVY));
      const variable = await timed(srv, VARIABLE);
      assert.equal(variable.status, 200, variable.text);
      assert.match(variable.text, /"values":\[\["host","h0"\]/);
      for (const h of await Promise.all(heavy)) {
        assert.equal(h.status, 200, h.text.slice(0, 200));
        assert.ok(variable.at < h.at, 'the variable answered after a heavy statement');
      }
      best = Math.min(best, variable.ms);
    }
    // Each heavy statement that reached the loop first ran a first slice before it: three
    // 20 ms slices were 60 ms of wall time; three 5 ms ones leave it near its own time (plus
    // the heavy ones' planning before their first checkpoint).
    t.diagnostic(`variable: ${best.toFixed(1)} ms beside heavy ones, ${own.toFixed(1)} ms alone`);
    assert.ok(best < own + 45, `variable: ${best.toFixed(1)} ms beside heavy ones, ${own.toFixed(1)} ms alone`);
  });
});

describe('heavy statements ranked behind light ones still time out', { timeout: 120_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'server.query_timeout_secs': 1 });
    await load(srv);
    await timed(srv, HEAVY);
  });
  after(() => srv.close());

  it('the variable sent together with three heavy batches is answered at once, and the batches get 408 after about 1 s', async (t) => {
    const own = await alone(srv, VARIABLE);
    // Each batch runs for several seconds: longer than the timeout on any machine.
    const batch = Array.from({ length: 8 }, () => HEAVY).join('; ');
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const heavy = [0, 1, 2].map(() => timed(srv, batch));
      const variable = await timed(srv, VARIABLE);
      assert.equal(variable.status, 200, variable.text);
      for (const h of await Promise.all(heavy)) {
        assert.equal(h.status, 408, h.text.slice(0, 200));
        assert.deepEqual(JSON.parse(h.text), { error: 'query timeout' });
        assert.ok(h.ms >= 950 && h.ms < 5000, `answered after ${h.ms.toFixed(0)} ms`);
        assert.ok(variable.at < h.at, 'the variable waited for the heavy batches');
      }
      best = Math.min(best, variable.ms);
      await waitUntil('executors stopped', () => srv.deps.queries!.size === 0, 5000);
    }
    t.diagnostic(`variable: ${best.toFixed(1)} ms beside heavy batches, ${own.toFixed(1)} ms alone`);
    assert.ok(best < own + 45, `variable: ${best.toFixed(1)} ms beside heavy batches, ${own.toFixed(1)} ms alone`);
  });
});
