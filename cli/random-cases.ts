/**
 * Writes a file of random differential cases in the shared runner's format, for finding where
 * Strata and InfluxDB 1.6.7 answer differently (a search tool, not a test: record the answers
 * from the oracle, then check Strata against them):
 *
 *   node build/cli/random-cases.js --seed 7 --selects 600 --shows 200 --writes 200 --mutations 200 --typed 300 --nested 300 --dashboards 300 \
 *     --calendar 300 --clients 600 --admin 100 --selectors 300 --csv 200 --epochs 100 --intedges 200 \
 *     --typedfns 300 --into 100 --text 300 --lines 300 --http 300 --kinds 300 --fills 300 --predicates 300 --layers 300 --layerstz 200 > /tmp/cases.json
 *   ../shared/conformance/oracle.sh start 18796 18798
 *   node ../shared/conformance/run.mjs --url http://127.0.0.1:18796 --cases /tmp/cases.json --record /tmp/exp
 *   node ../shared/conformance/run.mjs --url http://STRATA --cases /tmp/cases.json --check /tmp/exp --settle-ms 1500
 *
 * Every difference found this way is either fixed with a golden script recorded from 1.6.7
 * (fixtures/queries/) or is one of the documented deviations and 1.6.7 quirks (README,
 * fixtures/conformance/README.md).
 */
import { argv, stdout } from 'node:process';
import { picker } from './random-cases/pick.js';
import { randomSelect } from './random-cases/select.js';
import { randomShow } from './random-cases/show.js';
import { randomWrite } from './random-cases/write.js';
import { randomMutation } from './random-cases/mutate.js';
import { randomTypedSelect } from './random-cases/select-typed.js';
import { randomNestedSelect } from './random-cases/select-nested.js';
import { dashboardData, randomDashboardQuery } from './random-cases/dashboard.js';
import { calendarData, randomCalendarQuery } from './random-cases/calendar.js';
import { randomClientQuery } from './random-cases/select-clients.js';
import { randomAdmin } from './random-cases/admin.js';
import { randomSelectorQuery } from './random-cases/select-selectors.js';
import { randomCsvRequest } from './random-cases/csv-answers.js';
import { randomPrecisionCase } from './random-cases/precision-epoch.js';
import { intEdgeData, randomIntEdgeQuery } from './random-cases/int-edges.js';
import { randomTypedFunction } from './random-cases/typed-functions.js';
import { randomIntoCase } from './random-cases/into.js';
import { queryTextData, randomQueryText, TEXT_RP } from './random-cases/query-text.js';
import { randomLineWrite } from './random-cases/write-lines.js';
import { randomHttpRequest } from './random-cases/http-surface.js';
import { randomStatementKinds } from './random-cases/statement-kinds.js';
import { randomFillSelect } from './random-cases/select-fills.js';
import { randomPredicateQuery } from './random-cases/select-predicates.js';
import { randomLayeredRequest, randomLayeredTzRequest } from './random-cases/select-layers.js';

interface Case {
  readonly id: string;
  readonly category: string;
  readonly [k: string]: unknown;
}

function option(name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}

function unique(n: number, make: () => string): string[] {
  const seen = new Set<string>();
  for (let tries = 0; seen.size < n && tries < n * 20; tries++) seen.add(make());
  return [...seen];
}

/** Half of the SELECTs ask for another answer layout: chunks of a random size, CSV, an epoch. */
function answerFormat(): { params?: Record<string, string>; accept?: string } {
  const k = p.r();
  if (k < 0.5) return {};
  if (k < 0.7) return { params: { chunked: 'true', chunk_size: String(p.pick([1, 2, 3, 7, 50])) } };
  if (k < 0.85) return { accept: 'application/csv' };
  return { params: { epoch: p.pick(['ns', 'ms', 's', 'h']), ...(p.chance(0.5) ? { chunked: 'true' } : {}) } };
}

/**
 * A write into a database of its own as the first case (the others need it: run them in order),
 * then the queries over it; the last one drops the database.
 */
function ownDatabaseCases(kind: string, db: string, write: Record<string, unknown>, verify: string, queries: readonly string[]): Case[] {
  const load: Case = {
    id: id(kind, 0),
    category: 'random',
    path: '/write',
    method: 'POST',
    db,
    ...write,
    setup: [{ q: `DROP DATABASE "${db}"` }, { q: `CREATE DATABASE "${db}"` }],
    verify: [{ q: verify, db }],
  };
  const cases = queries.map((text, i): Case => ({ id: id(kind, i + 1), category: 'random', db, ...JSON.parse(text) }));
  const last = cases.length - 1;
  return [load, ...cases.map((c, i) => (i === last ? { ...c, teardown: [{ q: `DROP DATABASE "${db}"` }] } : c))];
}

/** `--dashboards N`: Telegraf's write (gzip, `consistency=any`, `rp=` empty), then N requests as dashboards send them. */
function dashboardCases(n: number): Case[] {
  if (n <= 0) return [];
  const db = `rnd_dash${seed}`;
  const write = { body: dashboardData(p), gzip: true, params: { consistency: 'any', rp: '' } };
  return ownDatabaseCases('d', db, write, 'SELECT count(*) FROM /.*/', unique(n, () => JSON.stringify(randomDashboardQuery(p, db))));
}

/** `--calendar N`: points around 2024's daylight-saving changes, then N GROUP BY time / tz() queries over them. */
function calendarCases(n: number): Case[] {
  if (n <= 0) return [];
  const write = { body: calendarData(p) };
  return ownDatabaseCases('z', `rnd_cal${seed}`, write, 'SELECT count(*) FROM power', unique(n, () => JSON.stringify(randomCalendarQuery(p))));
}

/** `--intedges N`: integers at the edges of int64 and large floats, then N queries that add, average and difference them. */
function intEdgeCases(n: number): Case[] {
  if (n <= 0) return [];
  const write = { body: intEdgeData(p) };
  return ownDatabaseCases('i', `rnd_int${seed}`, write, 'SELECT count(*) FROM big', unique(n, () => JSON.stringify(randomIntEdgeQuery(p))));
}

/**
 * `--text N`: awkward names (dots, slashes, unicode, spaces, quotes, keywords, a tag and a field of
 * one name) written into autogen and a second policy, then N queries whose text varies as
 * clients and people write it (comments, case, escapes, literals, malformed input).
 */
function queryTextCases(n: number): Case[] {
  if (n <= 0) return [];
  const db = `rnd_txt${seed}`;
  const [load, ...rest] = ownDatabaseCases('x', db, { body: queryTextData('autogen') }, 'SELECT count(*) FROM /.*/', unique(n, () => JSON.stringify(randomQueryText(p, db))));
  if (!load) return [];
  const policy: Case = { ...load, setup: [...(load['setup'] as unknown[]), { q: `CREATE RETENTION POLICY ${TEXT_RP} ON "${db}" DURATION INF REPLICATION 1` }] };
  const second: Case = { id: id('x', 9999), category: 'random', path: '/write', method: 'POST', db, body: queryTextData('two'), params: { rp: TEXT_RP }, verify: [{ q: `SELECT count(*) FROM ${TEXT_RP}./.*/`, db }] };
  return [policy, second, ...rest];
}

/** A write into a scratch database `db` (dropped and created before, dropped after), then `verify` reads it back. */
function scratchWriteCase(caseId: string, db: string, body: string, precision: string | undefined, verify: readonly Record<string, unknown>[]): Case {
  return {
    id: caseId,
    category: 'random',
    path: '/write',
    method: 'POST',
    db,
    body,
    ...(precision ? { params: { precision } } : {}),
    setup: [{ q: `DROP DATABASE ${db}` }, { q: `CREATE DATABASE ${db}` }],
    teardown: [{ q: `DROP DATABASE ${db}` }],
    verify: verify.map((v) => ({ q: v['q'], db, ...v })),
  };
}

/** `--lines N`: N line-protocol bodies (after 0-2 earlier ones) into a database of their own, read back. */
function lineCases(n: number): Case[] {
  return Array.from({ length: n }, (_, i) => {
    const db = `rnd_l${seed}_${i}`;
    const w = randomLineWrite(p);
    const c = scratchWriteCase(id('l', i), db, w.body, w.precision, w.verify);
    const setup = [...(c['setup'] as unknown[]), ...w.before.map((b) => ({ ...b, db }))];
    return { ...c, setup };
  });
}

/** `--http N`: N requests on the HTTP surface (odd parameters, gzip, auth while off, methods), each on a scratch database. */
function httpCases(n: number): Case[] {
  return Array.from({ length: n }, (_, i) => ({ id: id('h', i), category: 'random', ...randomHttpRequest(p, `rnd_h${seed}_${i}`) }));
}

/** `--epochs N`: N writes with a random precision into a database of their own, read back with random epochs. */
function precisionCases(n: number): Case[] {
  return Array.from({ length: n }, (_, i) => {
    const c = randomPrecisionCase(p);
    return scratchWriteCase(id('e', i), `rnd_e${seed}_${i}`, c.body, c.precision, c.verify);
  });
}

const seed = option('seed', 1);
const p = picker(seed);
const id = (kind: string, i: number): string => `r${seed}-${kind}${String(i).padStart(4, '0')}`;
const cases: Case[] = [
  ...unique(option('selects', 400), () => randomSelect(p)).map((q, i) => ({ id: id('q', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...unique(option('typed', 0), () => randomTypedSelect(p)).map((q, i) => ({ id: id('t', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...unique(option('nested', 0), () => randomNestedSelect(p)).map((q, i) => ({ id: id('n', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...unique(option('shows', 100), () => randomShow(p)).map((q, i) => ({ id: id('s', i), category: 'random', db: 'telemetry', q })),
  ...Array.from({ length: option('writes', 100) }, (_, i) => {
    const w = randomWrite(p);
    const verify = [{ q: 'SELECT * FROM /.*/', params: { epoch: 'ns' } }, { q: 'SHOW FIELD KEYS' }, { q: 'SHOW SERIES' }];
    return scratchWriteCase(id('w', i), `rnd_w${seed}_${i}`, w.body, w.precision, verify);
  }),
  ...dashboardCases(option('dashboards', 0)),
  ...calendarCases(option('calendar', 0)),
  ...unique(option('clients', 0), () => JSON.stringify(randomClientQuery(p))).map((text, i) => ({ id: id('c', i), category: 'random', db: 'telemetry', ...JSON.parse(text) })),
  ...Array.from({ length: option('admin', 0) }, (_, i) => ({ id: id('a', i), category: 'random', method: 'POST', ...randomAdmin(p, `rnd_a${seed}_${i}`, `rnd_u${seed}_${i}`) })),
  ...unique(option('selectors', 0), () => randomSelectorQuery(p)).map((q, i) => ({ id: id('p', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...Array.from({ length: option('csv', 0) }, (_, i) => ({ id: id('v', i), category: 'random', db: 'telemetry', ...randomCsvRequest(p, `rnd_v${seed}_${i}`) })),
  ...precisionCases(option('epochs', 0)),
  ...intEdgeCases(option('intedges', 0)),
  ...unique(option('fills', 0), () => randomFillSelect(p)).map((q, i) => ({ id: id('g', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...unique(option('predicates', 0), () => randomPredicateQuery(p)).map((q, i) => ({ id: id('b', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...unique(option('layers', 0), () => JSON.stringify(randomLayeredRequest(p))).map((text, i) => ({ id: id('y', i), category: 'random', db: 'telemetry', ...JSON.parse(text) })),
  ...unique(option('layerstz', 0), () => JSON.stringify(randomLayeredTzRequest(p))).map((text, i) => ({ id: id('u', i), category: 'random', db: 'telemetry', ...JSON.parse(text) })),
  ...unique(option('typedfns', 0), () => randomTypedFunction(p)).map((q, i) => ({ id: id('f', i), category: 'random', db: 'telemetry', q, ...answerFormat() })),
  ...Array.from({ length: option('into', 0) }, (_, i) => {
    const [db, other] = [`rnd_o${seed}_${i}`, `rnd_ot${seed}_${i}`];
    return { id: id('o', i), category: 'random', method: 'POST', db, ...randomIntoCase(p, db, other), teardown: [{ q: `DROP DATABASE ${db}` }, { q: `DROP DATABASE ${other}` }] };
  }),
  ...queryTextCases(option('text', 0)),
  ...lineCases(option('lines', 0)),
  ...httpCases(option('http', 0)),
  ...Array.from({ length: option('kinds', 0) }, (_, i) => ({ id: id('k', i), category: 'random', ...randomStatementKinds(p, `rnd_k${seed}_${i}`, `rnd_ku${seed}_${i}`) })),
  ...Array.from({ length: option('mutations', 0) }, (_, i) => {
    const db = `rnd_m${seed}_${i}`;
    return { id: id('m', i), category: 'random', method: 'POST', db, ...randomMutation(p, db), teardown: [{ q: `DROP DATABASE ${db}` }] };
  }),
];
stdout.write(`${JSON.stringify(cases, null, 1)}\n`);
