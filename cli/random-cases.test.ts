import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../ql/index.js';
import { picker } from './random-cases/pick.js';
import { randomSelect } from './random-cases/select.js';
import { randomShow } from './random-cases/show.js';
import { randomWrite } from './random-cases/write.js';
import { randomMutation } from './random-cases/mutate.js';
import { dashboardData, randomDashboardQuery, SHARD_BOUNDARY_SEC } from './random-cases/dashboard.js';
import { calendarData, randomCalendarQuery } from './random-cases/calendar.js';
import { randomClientQuery } from './random-cases/select-clients.js';
import { randomAdmin } from './random-cases/admin.js';
import { parseParams } from '../ql/index.js';
import { randomSelectorQuery } from './random-cases/select-selectors.js';
import { randomTypedFunction } from './random-cases/typed-functions.js';
import { intEdgeData, randomIntEdgeQuery } from './random-cases/int-edges.js';
import { randomIntoCase } from './random-cases/into.js';
import { randomPrecisionCase } from './random-cases/precision-epoch.js';
import { randomCsvRequest } from './random-cases/csv-answers.js';
import { randomLineWrite } from './random-cases/write-lines.js';
import { randomHttpRequest } from './random-cases/http-surface.js';
import { randomStatementKinds } from './random-cases/statement-kinds.js';
import { randomPredicateQuery } from './random-cases/select-predicates.js';
import { randomLayeredRequest, randomLayeredTzRequest } from './random-cases/select-layers.js';

describe('random differential cases', () => {
  it('are reproducible from the seed', () => {
    const run = (seed: number) => {
      const p = picker(seed);
      return [randomSelect(p), randomShow(p), randomWrite(p).body, JSON.stringify(randomMutation(p, 'db'))];
    };
    assert.deepEqual(run(5), run(5));
    assert.notDeepEqual(run(5), run(6));
  });

  it('are statements the parser accepts (the search is about answers, not syntax)', () => {
    const p = picker(1);
    for (let i = 0; i < 300; i++) {
      const q = i % 4 === 3 ? randomShow(p) : randomSelect(p);
      assert.doesNotThrow(() => parseQuery(q), q);
    }
  });

  it('state changes parse, and every setup write names its timestamps (no server clock)', () => {
    const p = picker(3);
    for (let i = 0; i < 200; i++) {
      const m = randomMutation(p, 'scratch');
      assert.doesNotThrow(() => parseQuery(m.q), m.q);
      for (const step of m.setup) {
        if (!('write' in step)) continue;
        for (const line of step.write.split('\n')) assert.match(line, / \d{18,19}$/, line);
      }
    }
  });

  it('bound every GROUP BY time on both sides, so answers never depend on the clock', () => {
    const p = picker(2);
    for (let i = 0; i < 300; i++) {
      const q = randomSelect(p);
      if (/GROUP BY time\(/.test(q)) assert.match(q, /time >= '[^']+' AND time < '[^']+'/, q);
    }
  });

  it('dashboard requests parse, name both time bounds and never now(), over data on both sides of a shard-group boundary', () => {
    const p = picker(4);
    for (let i = 0; i < 300; i++) {
      const { q } = randomDashboardQuery(p, 'dash');
      assert.doesNotThrow(() => parseQuery(q), q);
      assert.doesNotMatch(q, /now\(\)/i, q);
      for (const stmt of q.split(';')) if (/GROUP BY time\(/.test(stmt)) assert.match(stmt, /time >= \d+ms and time <= \d+ms/, stmt);
    }
    const times = dashboardData(picker(4)).trim().split('\n').map((line) => BigInt(line.slice(line.lastIndexOf(' ') + 1)));
    const boundary = BigInt(SHARD_BOUNDARY_SEC) * 1_000_000_000n;
    assert.ok(times.some((t) => t < boundary) && times.some((t) => t >= boundary));
    assert.equal(dashboardData(picker(4)), dashboardData(picker(4)));
  });

  it('calendar, client and admin requests parse (failures are meant at run time), GROUP BY time bounded on both sides', () => {
    const p = picker(8);
    for (let i = 0; i < 300; i++) {
      const { q } = randomCalendarQuery(p);
      assert.doesNotThrow(() => parseQuery(q), q);
      if (/GROUP BY time\(/.test(q)) assert.match(q, /time >= \S+ AND time <=? \S+/, q);
      const c = randomClientQuery(p);
      const bind = c.params?.params;
      // a value 1.x cannot bind is meant to fail, as 1.x's parse error
      try {
        parseQuery(c.q, bind === undefined ? undefined : parseParams(bind));
      } catch (e) {
        assert.ok(bind !== undefined && /^error parsing query: missing parameter: /.test((e as Error).message), `${c.q}: ${(e as Error).message}`);
      }
      const a = randomAdmin(p, 'scratch', 'someone');
      assert.doesNotThrow(() => parseQuery(a.q), a.q);
    }
    for (const line of calendarData(picker(8)).trim().split('\n')) assert.match(line, / \d{19}$/, line);
  });

  it('selector, typed-function, integer-edge and INTO statements parse and bound GROUP BY time on both sides; their data names its timestamps', () => {
    const p = picker(16);
    const bounded = (q: string) => {
      for (const stmt of q.split(';')) if (/GROUP BY time\(/.test(stmt)) assert.match(stmt, /time >= '[^']+' AND time < '[^']+'/, stmt);
    };
    for (let i = 0; i < 300; i++) {
      for (const q of [randomSelectorQuery(p), randomIntEdgeQuery(p).q, randomIntoCase(p, 'scratch', 'other').q]) {
        assert.doesNotThrow(() => parseQuery(q), q);
        bounded(q);
      }
      // Comparisons and AND between fields in SELECT are meant as 1.x's parse error.
      const typed = randomTypedFunction(p);
      assert.doesNotThrow(() => {
        try {
          parseQuery(typed);
        } catch (e) {
          if (!/operator is intended for WHERE clause/.test((e as Error).message)) throw e;
        }
      }, typed);
      bounded(typed);
      const c = randomPrecisionCase(p);
      for (const line of c.body.split('\n')) assert.match(line, / -?\d+$/, line);
      for (const v of c.verify) assert.doesNotThrow(() => parseQuery(v.q), v.q);
      const csv = randomCsvRequest(p, 'scratch');
      assert.equal(csv.accept, 'application/csv');
    }
    for (const line of intEdgeData(picker(16)).trim().split('\n')) assert.match(line, / \d{19}$/, line);
  });

  it('write-side cases name every time and stay clear of the documented deviations', () => {
    const p = picker(17);
    const stamped = (body: string) => {
      for (const line of body.split('\n')) {
        if (line.trim() === '' || line.trim().startsWith('#') || !line.includes('=')) continue; // blank, comment, no fields
        assert.match(line, / \S+$/, line); // a timestamp token (possibly malformed), never the server's clock
        assert.doesNotMatch(line, /\r|\du[, ]/, line); // no CRLF, no `u` integers
      }
    };
    for (let i = 0; i < 300; i++) {
      const w = randomLineWrite(p);
      stamped(w.body);
      for (const b of w.before) stamped(b.write);
      assert.ok(w.precision === undefined || ['s', 'ms', 'm', 'h', 'n', 'ns'].includes(w.precision), w.precision);
      const h = randomHttpRequest(p, 'scratch');
      assert.ok(!['u', 'us', 'x'].includes(h.params?.['precision'] ?? ''), 'precision');
      assert.ok(['', 'autogen', undefined].includes(h.params?.['rp']), 'rp');
      if (h.body !== undefined) stamped(h.body);
    }
  });

  it('statement-kind cases: their statements, setup and reads parse; GET and POST both occur; every write names its time', () => {
    const p = picker(19);
    const methods = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const c = randomStatementKinds(p, 'scratch', 'someone');
      methods.add(c.method);
      // a bound parameter stands for a token: parse with a value the statement takes
      const bind = c.params?.['params'] === undefined ? undefined : { x: / =~ \$x/.test(c.q) ? { regex: 'a' } : 1 };
      assert.doesNotThrow(() => parseQuery(c.q, bind), c.q);
      for (const step of c.setup) {
        if ('write' in step) for (const line of step.write.split('\n')) assert.match(line, / \d{19}$/, line);
        else assert.doesNotThrow(() => parseQuery(step.q), step.q);
      }
      for (const v of c.verify) assert.doesNotThrow(() => parseQuery(v.q), v.q);
    }
    assert.deepEqual([...methods].sort(), ['GET', 'POST']);
  });

  it('predicate statements parse, keep time a top-level AND and bound every GROUP BY time', () => {
    const p = picker(23);
    for (let i = 0; i < 400; i++) {
      const q = randomPredicateQuery(p);
      assert.doesNotThrow(() => parseQuery(q), q);
      // OR on time is a documented deviation: time appears only in the range before the tree
      for (const part of q.split(/ FROM \(|\) /)) assert.ok((part.match(/(?<!\w)time [<>]/g) ?? []).length <= 2, q);
      if (/GROUP BY time\(/.test(q)) assert.match(q, /time >= '[^']+' AND time < '[^']+'/, q);
    }
  });

  it('layered requests parse, bound every statement on both sides and chunk only with a size', () => {
    const p = picker(29);
    let batches = 0;
    for (let i = 0; i < 400; i++) {
      const r = randomLayeredRequest(p);
      assert.doesNotThrow(() => parseQuery(r.q), r.q);
      const statements = r.q.split('; ');
      if (statements.length > 1) batches++;
      // every statement (and every subquery) bounds time on both sides: no answer shows the clock
      for (const s of statements) assert.equal((s.match(/time >= '/g) ?? []).length, (s.match(/ FROM /g) ?? []).length, s);
      if (r.params?.['chunked']) assert.match(r.params['chunk_size'] ?? '', /^\d+$/);
    }
    assert.ok(batches > 50, `${batches}`);
  });

  it('layered requests under tz() parse and end with the zone', () => {
    const p = picker(30);
    for (let i = 0; i < 200; i++) {
      const r = randomLayeredTzRequest(p);
      assert.doesNotThrow(() => parseQuery(r.q), r.q);
      assert.match(r.q, / tz\('[A-Za-z_/]+'\)$/, r.q);
    }
  });
});
