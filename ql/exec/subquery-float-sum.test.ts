/**
 * Float sum() and mean() over a subquery add the inner rows as one stream, in the order the
 * outer statement receives them (reducers/stream-sum.ts), through a real engine. The data makes
 * each order give another sum (±1e17 and ±1e16 beside 2.5, 0.5 and 3); the expected values are
 * 1.6.7's answers (fixtures/conformance s-k200..s-k203). Per-series partials, as for a
 * measurement, give 8 for every statement below.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldType, type Engine } from '../../engine/index.js';
import { parseQuery } from '../index.js';
import { executeStatements } from './executor.js';
import { StreamSumReducer } from './reducers/stream-sum.js';
import { withDbEngine } from './test-support.js';

const DATA = [
  'm,host=a x=2.5 10',
  'm,host=a x=-1e17 20',
  'm,host=a x=1e17 30',
  'm,host=b x=-1e16 10',
  'm,host=b x=0.5 20',
  'm,host=b x=3 30',
  'm,host=c x=1e16 10',
  'm,host=c x=2.5 20',
  'm,host=c x=2.5 30',
].join('\n');
const W = 'WHERE time >= 0s AND time < 60s';
const AGG = `(SELECT sum(x) AS x FROM m ${W} GROUP BY time(10s), host)`;
const RAW = `(SELECT x FROM m ${W} GROUP BY host)`;
const ONE = `(SELECT x FROM m ${W})`;

/** An engine holding DATA in `db`, for `fn`. */
const withData = (fn: (engine: Engine) => Promise<void>): Promise<void> =>
  withDbEngine('strata-subsum-', async (engine) => {
    await engine.write({ db: 'db', precision: 's', body: Buffer.from(DATA) });
    await fn(engine);
  });

/** The value columns of every row of the answer's series (time left out). */
async function values(engine: Engine, q: string, hold: boolean): Promise<unknown[][]> {
  const [r] = await executeStatements(parseQuery(q), { engine, database: 'db', retentionPolicy: '', nowNs: 0n, holdSubqueries: hold });
  assert.equal(r?.error, undefined, q);
  return (r?.series ?? []).flatMap((s) => s.values.map((row) => row.slice(1)));
}

const CASES: [string, unknown[][]][] = [
  // An inner GROUP BY time aggregate: by time, rows of one time in series key order.
  [`SELECT sum(x), mean(x) FROM ${AGG} ${W}`, [[5.5, 0.6111111111111112]]],
  [`SELECT sum(x), mean(x) FROM ${AGG} ${W} ORDER BY time DESC`, [[6, 0.6666666666666666]]],
  [`SELECT sum(x), mean(x) FROM ${AGG} ${W} GROUP BY time(20s)`, [[2, 0.6666666666666666], [5.5, 0.9166666666666666], [null, null]]],
  [`SELECT sum(x), mean(x) FROM ${AGG} WHERE time >= 0s AND time < 60s AND x > -1000000000000000000`, [[5.5, 0.6111111111111112]]],
  // A raw inner statement: 1.x's heap merge of the inner series.
  [`SELECT sum(x), mean(x) FROM ${RAW} ${W}`, [[2.5, 0.2777777777777778]]],
  [`SELECT sum(x), mean(x) FROM ${RAW} ${W} ORDER BY time DESC`, [[6.5, 0.7222222222222222]]],
  // One inner series whose rows share times: the inner order (lanes).
  [`SELECT sum(x), mean(x) FROM ${ONE} ${W}`, [[2.5, 0.2777777777777778]]],
  [`SELECT sum(x) FROM ${ONE} ${W} ORDER BY time DESC`, [[6.5]]],
];

describe('float sum() and mean() over a subquery follow the order its rows arrive in (1.6.7)', () => {
  it('each statement, streamed and with the inner result held', () =>
    withData(async (engine) => {
      for (const [q, want] of CASES) {
        assert.deepEqual(await values(engine, q, false), want, q);
        assert.deepEqual(await values(engine, q, true), want, `${q} (held inner result)`);
      }
    }));

  it('a measurement keeps per-series partials', () =>
    withData(async (engine) => {
      assert.deepEqual(await values(engine, `SELECT sum(x) FROM m ${W}`, false), [[8]]);
    }));
});

describe('StreamSumReducer', () => {
  const col = (v: number[]) => ({ type: FieldType.Float, values: Float64Array.from(v) }) as const;
  /** Series a, b, c at times 1, 2 and 3 (the engine test's data), fed series after series as select-agg does. */
  const SERIES = [
    [2.5, -1e17, 1e17],
    [-1e16, 0.5, 3],
    [1e16, 2.5, 2.5],
  ];
  const make = (name: 'sum' | 'mean', order: 'series' | 'time-then-series' | 'heap', newestFirst = false): StreamSumReducer => {
    const clock = { series: 0, shard: 0n };
    const r = new StreamSumReducer(name, { order }, newestFirst, clock);
    SERIES.forEach((v, i) => {
      clock.series = i;
      r.add(0n, Float64Array.of(1, 2, 3), col(v), 0, v.length);
    });
    return r;
  };
  const plain = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);

  it('adds in the order asked for', () => {
    const [a, b, c] = SERIES as [number[], number[], number[]];
    assert.equal(make('sum', 'series').result()[0]!.value, plain([...a, ...b, ...c]));
    const byTime = [0, 1, 2].flatMap((t) => [a[t]!, b[t]!, c[t]!]);
    assert.equal(make('sum', 'time-then-series').result()[0]!.value, plain(byTime));
    assert.equal(make('sum', 'time-then-series', true).result()[0]!.value, plain([2, 1, 0].flatMap((t) => [a[t]!, b[t]!, c[t]!])));
    // Go's heap pops series a, then c, then b at the first time (merge-order.ts).
    assert.equal(make('sum', 'heap').result()[0]!.value, 2.5);
    assert.deepEqual(
      new Set(['series', 'time-then-series', 'heap'].map((o) => make('sum', o as 'heap').result()[0]!.value)).size,
      3,
      'the data tells the orders apart',
    );
  });

  it('mean() divides that sum by the count; no points, no row', () => {
    const clock = { series: 0, shard: 0n };
    assert.deepEqual(new StreamSumReducer('mean', { order: 'heap' }, false, clock).result(), []);
    assert.equal(make('mean', 'time-then-series').result()[0]!.value, 0.6111111111111112);
  });
});
