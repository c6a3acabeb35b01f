/**
 * Requests answered as CSV (`Accept: application/csv`, as the influx CLI's `-format csv` and
 * some exporters ask) for every kind of statement: raw and aggregate SELECTs with tags, empty
 * answers, SHOW statements of every kind, cardinalities, administrative statements that answer
 * without changing state (or change a database of their own and undo it), statements 1.x
 * refuses at parse time or at run time, and batches of several statements mixing all of these,
 * sometimes chunked or with an epoch.
 */
import { TELEMETRY } from './dataset-shape.js';
import { timeRange, type Picker } from './pick.js';
import { failing } from './select-clients.js';

const M = ['cpu', 'mem', 'net', 'events', 'sparse'];

function select(p: Picker): string {
  const m = p.pick(M);
  const s = TELEMETRY[m]!;
  const f = p.pick(s.numeric);
  const tag = Object.keys(s.tags)[0]!;
  const range = timeRange(p, ...s.span);
  return p.pick([
    () => `SELECT * FROM ${m} WHERE ${range} LIMIT ${p.pick([1, 3])}`,
    () => `SELECT ${p.pick(s.fields)}, ${tag} FROM ${m} WHERE ${range} GROUP BY ${tag} LIMIT 2`,
    () => `SELECT mean(${f}), count(${f}) FROM ${m} WHERE ${range} GROUP BY time(${p.pick(['1h', '3h'])})${p.chance(0.5) ? `, ${tag}` : ''} fill(${p.pick(['null', 'none', '0'])})`,
    () => `SELECT max(${f}), ${tag} FROM ${m} WHERE ${range}`,
    () => `SELECT ${f} FROM ${m} WHERE ${range} AND ${tag} = 'nosuch'`,
    () => `SELECT * FROM nosuch`,
    () => `SELECT top(${f}, 2) FROM ${m} WHERE ${range} GROUP BY *`,
    () => `SELECT message FROM events WHERE ${range} AND message =~ /,|"/ LIMIT 3`,
    () => `SELECT count(*) FROM /./ WHERE ${range}`,
    () => `SELECT ${f} FROM ${m} WHERE ${range} SLIMIT 1 SOFFSET 1`,
  ])();
}

function show(p: Picker): string {
  return p.pick([
    'SHOW DATABASES', 'SHOW MEASUREMENTS', 'SHOW MEASUREMENTS WITH MEASUREMENT =~ /^c/', 'SHOW TAG KEYS', 'SHOW TAG KEYS FROM cpu',
    'SHOW TAG VALUES WITH KEY = host', 'SHOW TAG VALUES FROM cpu WITH KEY IN (host, region)', 'SHOW FIELD KEYS', 'SHOW FIELD KEYS FROM events',
    'SHOW SERIES FROM cpu', 'SHOW SERIES LIMIT 3', 'SHOW RETENTION POLICIES', 'SHOW RETENTION POLICIES ON archive', 'SHOW USERS',
    'SHOW CONTINUOUS QUERIES', 'SHOW MEASUREMENT CARDINALITY', 'SHOW SERIES EXACT CARDINALITY', 'SHOW TAG VALUES CARDINALITY WITH KEY = host',
    'SHOW FIELD KEY CARDINALITY', 'SHOW TAG KEY EXACT CARDINALITY FROM cpu', 'SHOW MEASUREMENTS ON nosuchdb', 'SHOW TAG KEYS FROM nosuch',
  ]);
}

function admin(p: Picker, db: string): string {
  return p.pick([
    'CREATE DATABASE telemetry',
    `CREATE DATABASE ${db}; DROP DATABASE ${db}`,
    `CREATE DATABASE ${db} WITH DURATION 1d NAME short; SHOW RETENTION POLICIES ON ${db}; DROP DATABASE ${db}`,
    'DROP DATABASE nosuchdb',
    'SHOW GRANTS FOR nosuchuser',
    'DROP USER nosuchuser',
    'DROP SERIES FROM nosuch',
    'DELETE FROM nosuch',
    'DROP MEASUREMENT nosuch',
    'KILL QUERY 999999',
    'DROP CONTINUOUS QUERY nosuch ON telemetry',
    `DROP RETENTION POLICY nosuch ON telemetry`,
  ]);
}

/** One request, or one whose text does not parse (1.x answers the whole request with an error). */
export function randomCsvRequest(p: Picker, db: string): { q: string; method?: 'POST'; params?: Record<string, string>; accept: string } {
  const one = (): string => {
    const k = p.r();
    if (k < 0.4) return select(p);
    if (k < 0.7) return show(p);
    if (k < 0.85) return admin(p, db);
    return failing(p);
  };
  const q = p.chance(0.06)
    ? p.pick(['SELECT FROM cpu', 'SHOW', 'SELECT * FROM cpu WHERE', "SELECT * FROM cpu; SELECT 'x"])
    : Array.from({ length: p.pick([1, 1, 1, 2, 3]) }, one).join('; ');
  const k = p.r();
  const params: Record<string, string> | undefined =
    k < 0.15 ? { chunked: 'true', chunk_size: String(p.pick([1, 2, 100])) } : k < 0.3 ? { epoch: p.pick(['s', 'ms', 'ns']) } : undefined;
  return { q, ...(/CREATE|DROP|DELETE|KILL/.test(q) ? { method: 'POST' as const } : {}), ...(params ? { params } : {}), accept: 'application/csv' };
}
