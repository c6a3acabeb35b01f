/**
 * Random requests over the statement kinds and request details the other generators leave out:
 * writes sent with GET (1.x runs them with a warning that quotes the normalized statement),
 * SELECT ... INTO with the `rp` parameter and every target form, continuous queries whose
 * stored text 1.x rewrites (TZ(), float literals, subqueries, regexes, explicit policies), bound
 * parameters of every JSON type and number spelling, time conditions that add strings, fields
 * or booleans to a time, and `epoch` / `chunked` on statements that are not SELECTs. Each case
 * works on a scratch database (data in autogen and a second policy `r2`) and a user of its own,
 * and reads back the points, policies, continuous queries, users and grants.
 */
import type { Picker } from './pick.js';

export interface StatementKindCase {
  readonly method: 'GET' | 'POST';
  readonly q: string;
  readonly db: string;
  readonly params?: Record<string, string>;
  readonly setup: readonly ({ readonly q: string } | { readonly write: string; readonly db: string; readonly rp?: string })[];
  readonly verify: readonly { readonly q: string; readonly db?: string }[];
  readonly teardown: readonly { readonly q: string }[];
}

const BASE_S = 1_704_067_200; // 2024-01-01T00:00:00Z
const at = (minutes: number): string => new Date((BASE_S + minutes * 60) * 1000).toISOString().replace('.000Z', 'Z');
const RANGE = `time >= '${at(0)}' AND time < '${at(180)}'`;

function data(p: Picker, shift: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 6 + Math.floor(p.r() * 6); i++) {
    const m = p.pick(['m', 'm', 'm2', 'x y']).replace(' ', '\\ ');
    const tags = `${p.chance(0.8) ? `,t=${p.pick(['a', 'b', 'c'])}` : ''}${p.chance(0.4) ? `,u=${p.pick(['p', 'q'])}` : ''}`;
    const t = (BASE_S + Math.floor(p.r() * 180) * 60) * 1e9;
    lines.push(`${m}${tags} v=${shift + Math.round(p.r() * 1000) / 100},n=${Math.floor(p.r() * 50)}i ${t}`);
  }
  return lines.join('\n');
}

/** A JSON number or value as clients spell it (Python and JS write exponents for large and small floats). */
function jsonValue(p: Picker): string {
  return p.pick([
    '1', '1.0', '2.5', '1e2', '1E2', '1.5e1', '-0', '-0.0', '1.5e-400', '1.5e400', '9223372036854775807', '9223372036854775808',
    '-9223372036854775809', '"5"', '"a"', 'true', 'null', '[1]', '{"float": 1e1}', '{"float": 2}', '{"integer": 3}', '{"integer": 3.0}',
    '{"integer": 1e1}', '{"duration": "1h"}', '{"duration": 3600000000000}', '{"string": 1}', '{"identifier": "v"}', '{"regex": "^a"}',
    '{"a": 1, "b": 2}', '{"unknown": 1}',
  ]);
}

function boundSelect(p: Picker): { q: string; params: Record<string, string> } {
  const shapes = [
    'SELECT v FROM m WHERE v > $x AND RANGE',
    'SELECT v FROM m WHERE t = $x AND RANGE',
    'SELECT count(v) FROM m WHERE RANGE GROUP BY time($x)',
    'SELECT v FROM m WHERE RANGE LIMIT $x',
    'SELECT v FROM m WHERE time > now() - $x',
    'SELECT v FROM m WHERE time >= $x AND time < \'2024-01-01T03:00:00Z\'',
    'SELECT $x FROM m WHERE RANGE',
    'SELECT v FROM m WHERE t =~ $x AND RANGE',
    'SELECT mean(v) + $x FROM m WHERE RANGE',
  ];
  const q = p.pick(shapes).replace('RANGE', RANGE);
  const extra = p.chance(0.3) ? `, "y": ${jsonValue(p)}` : '';
  return { q, params: { params: `{"x": ${jsonValue(p)}${extra}}` } };
}

function timeSum(p: Picker): string {
  const side = (): string => p.pick([`'${at(30)}'`, "'1h'", "'x'", "'2024-13-45'", 'now()', '1h', '0', 'v', 'true', "'2024-01-01'", `'${at(30)}' + 'x'`]);
  const op = p.pick(['+', '-']);
  return `SELECT v FROM m WHERE time ${p.pick(['>', '<', '>='])} ${side()} ${op} ${side()}`;
}

function cqBody(p: Picker, db: string): string {
  const field = p.pick(['mean(v)', 'max(v) * 2.5', 'count(v) + 0.125', 'sum(n) / 3', 'mean(v) AS a, min(n) AS b', 'percentile(v, 90.5)', 'top(v, 2)']);
  const into = p.pick(['agg', `${db}..agg`, 'r2.agg', `"${db}".r2.agg`, `${db}..:MEASUREMENT`, '"a g"']);
  const from = p.pick(['m', 'r2.m', '/^m/', `${db}..m`, '"x y"', '(SELECT v, n FROM m WHERE v > 1.5)', 'm, m2']);
  const where = p.pick(['', ' WHERE v > 1.50', " WHERE t = 'a' AND v < -0.0625", ' WHERE t =~ /a|b/', ' WHERE n >= 2']);
  const every = p.pick(['', '', ' RESAMPLE EVERY 30m', ' RESAMPLE FOR 2h', ' RESAMPLE EVERY 1h FOR 3h']);
  const tail = p.pick(['', ' fill(0)', ' fill(1.5)', " tz('Europe/Paris')", ' LIMIT 2', ' fill(previous)']);
  return `${every} BEGIN SELECT ${field} INTO ${into} FROM ${from}${where} GROUP BY time(${p.pick(['30m', '1h', '1h, 15m'])})${p.chance(0.4) ? ', *' : ''}${tail} END`;
}

function write(p: Picker, db: string, user: string): string {
  const into = p.pick(['y', 'r2.y', `${db}..y`, `${db}.r2.y`, `${db}.autogen.y`, '"y z"']);
  const from = p.pick(['m', 'r2.m', '/^m/', `${db}..m2`, '(SELECT v FROM m)', 'm, m2', '"x y"']);
  return p.pick([
    () => `SELECT ${p.pick(['*', 'v', 'v, n', 'mean(v)', 'max(v), t'])} INTO ${into} FROM ${from} WHERE ${RANGE}${p.chance(0.3) ? ' GROUP BY *' : ''}`,
    () => `SELECT mean(v) INTO ${into} FROM ${from} WHERE ${RANGE} GROUP BY time(1h)${p.chance(0.5) ? ', t' : ''}`,
    () => `DELETE${p.pick([' FROM m', ' FROM /2$/', ''])} WHERE ${p.pick(["t = 'a'", `time < '${at(60)}'`, "t = 'b' AND time > 0"])}`,
    () => `DROP SERIES${p.pick([' FROM m', ' FROM "x y"', ''])} WHERE t = '${p.pick(['a', 'c'])}'`,
    () => `DROP MEASUREMENT ${p.pick(['m', 'm2', '"x y"', 'nosuch'])}`,
    () => `CREATE USER ${user} WITH PASSWORD '${p.pick(['pw', "o\\'k", ''])}'${p.chance(0.3) ? ' WITH ALL PRIVILEGES' : ''}`,
    () => `SET PASSWORD FOR ${user} = 'x'`,
    () => `GRANT ${p.pick(['READ', 'WRITE', 'ALL'])} ON ${db} TO ${user}`,
    () => `REVOKE ${p.pick(['READ', 'ALL PRIVILEGES'])} ON ${db} FROM ${user}`,
    () => `DROP USER ${user}`,
    () => `CREATE CONTINUOUS QUERY ${p.pick(['c1', '"c 2"'])} ON ${db}${cqBody(p, db)}`,
    () => `DROP CONTINUOUS QUERY c1 ON ${db}`,
    () => `CREATE RETENTION POLICY r3 ON ${db} DURATION ${p.pick(['1d', 'INF', '2h'])} REPLICATION 1${p.chance(0.3) ? ' DEFAULT' : ''}`,
    () => `ALTER RETENTION POLICY r2 ON ${db} ${p.pick(['DURATION 3d', 'DEFAULT', 'SHARD DURATION 2h', 'REPLICATION 2'])}`,
    () => `DROP RETENTION POLICY ${p.pick(['r2', 'nosuch'])} ON ${db}`,
    () => `CREATE DATABASE ${db}${p.pick(['', ' WITH DURATION 1d', ' WITH NAME r2'])}`,
    () => 'KILL QUERY 999999',
  ])();
}

function read(p: Picker, db: string, user: string): string {
  return p.pick([
    'SHOW CONTINUOUS QUERIES',
    `SHOW RETENTION POLICIES${p.chance(0.5) ? ` ON ${db}` : ''}`,
    'SHOW USERS',
    `SHOW GRANTS FOR ${user}`,
    `SHOW MEASUREMENTS${p.chance(0.5) ? ` ON ${db}` : ''}`,
    `SHOW SERIES${p.chance(0.5) ? ' FROM r2.m' : ''}`,
    `SHOW FIELD KEYS${p.chance(0.5) ? ' FROM r2././' : ''}`,
    `SHOW TAG VALUES WITH KEY = t`,
    `SELECT * FROM ${p.pick(['m', 'r2.m', '/./', 'r2././'])} WHERE ${RANGE}`,
  ]);
}

export function randomStatementKinds(p: Picker, db: string, user: string): StatementKindCase {
  const kind = p.r();
  let q: string;
  let params: Record<string, string> = {};
  if (kind < 0.25) {
    const b = boundSelect(p);
    q = b.q;
    params = b.params;
  } else if (kind < 0.35) {
    q = timeSum(p);
  } else {
    const n = p.pick([1, 1, 2, 3]);
    q = Array.from({ length: n }, () => (p.chance(0.75) ? write(p, db, user) : read(p, db, user))).join('; ');
  }
  if (p.chance(0.3)) params.rp = p.pick(['r2', 'autogen', 'nosuch', '']);
  if (p.chance(0.2)) params.epoch = p.pick(['ns', 'ms', 's', 'h']);
  if (p.chance(0.2)) params.chunked = 'true';
  const setup = [
    { q: `DROP DATABASE ${db}` },
    { q: `DROP USER ${user}` },
    { q: `CREATE DATABASE ${db}` },
    { q: `CREATE RETENTION POLICY r2 ON ${db} DURATION INF REPLICATION 1` },
    { write: data(p, 0), db },
    { write: data(p, 100), db, rp: 'r2' },
    ...(p.chance(0.4) ? [{ q: `CREATE USER ${user} WITH PASSWORD 'pw'` }] : []),
    ...(p.chance(0.3) ? [{ q: `CREATE CONTINUOUS QUERY c1 ON ${db} BEGIN SELECT mean(v) INTO agg FROM m GROUP BY time(1h) END` }] : []),
  ];
  return {
    method: p.chance(0.6) ? 'GET' : 'POST',
    q,
    db,
    ...(Object.keys(params).length ? { params } : {}),
    setup,
    verify: [
      { q: 'SELECT * FROM /.*/', db },
      { q: 'SELECT * FROM r2./.*/', db },
      { q: `SHOW RETENTION POLICIES ON ${db}` },
      { q: 'SHOW CONTINUOUS QUERIES' },
      { q: `SHOW GRANTS FOR ${user}` },
    ],
    teardown: [{ q: `DROP USER ${user}` }, { q: `DROP DATABASE ${db}` }],
  };
}
