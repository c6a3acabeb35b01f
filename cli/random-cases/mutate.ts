/**
 * Random state changes on a scratch database: a small random data set is written in `setup`,
 * the case's request is one or two statements that change it (DELETE, DROP SERIES, DROP
 * MEASUREMENT, retention policies, SELECT ... INTO), and `verify` reads back what is left
 * (every point, series, measurement, field key, tag value and retention policy).
 * Every timestamp is explicit and far from now(), so answers never depend on the clock.
 */
import type { Picker } from './pick.js';

const MEASUREMENTS = ['cpu', 'disk', 'm x'];
const HOSTS = ['a', 'b', 'c'];
const DCS = ['x', 'y'];
/** 2024-01-01T00:00:00Z and 2000-01-01T00:00:00Z in ns: two far-apart shard groups. */
const BASE_NS = 1_704_067_200_000_000_000n;
const OLD_NS = 946_684_800_000_000_000n;
const MINUTE_NS = 60_000_000_000n;

export interface StepWrite {
  readonly write: string;
  readonly db: string;
  readonly rp?: string;
}
export interface StepQuery {
  readonly q: string;
  readonly db?: string;
}

export interface MutationCase {
  readonly q: string;
  readonly setup: readonly (StepWrite | StepQuery)[];
  readonly verify: readonly { readonly q: string; readonly db: string; readonly params?: Record<string, string> }[];
}

const ident = (m: string): string => (/^[a-z_]+$/.test(m) ? m : `"${m}"`);
const lpName = (m: string): string => m.replace(/ /g, '\\ ');
const at = (minutes: number, old = false): string => new Date(Number((old ? OLD_NS : BASE_NS) / 1_000_000n) + minutes * 60_000).toISOString();

function fieldSet(p: Picker, m: string): string {
  // One type per field key per measurement, so no write is refused for a type conflict.
  const fields: string[] = [];
  if (p.chance(0.8)) fields.push(`v=${(p.r() * 100).toFixed(p.chance(0.2) ? 0 : 2)}`);
  if (p.chance(0.5)) fields.push(`n=${Math.floor(p.r() * 1000) - 100}i`);
  if (m !== 'disk' && p.chance(0.3)) fields.push(`s="${p.pick(['ok', 'warn', 'x y'])}"`);
  if (p.chance(0.3)) fields.push(`ok=${p.pick(['true', 'false'])}`);
  return fields.length ? fields.join(',') : 'v=1';
}

function dataSet(p: Picker): string {
  const lines: string[] = [];
  const n = 4 + Math.floor(p.r() * 12);
  for (let i = 0; i < n; i++) {
    const m = p.pick(MEASUREMENTS);
    const tags = `${p.chance(0.9) ? `,dc=${p.pick(DCS)}` : ''}${p.chance(0.85) ? `,host=${p.pick(HOSTS)}` : ''}`;
    const old = p.chance(0.15);
    const t = (old ? OLD_NS : BASE_NS) + BigInt(Math.floor(p.r() * 120)) * MINUTE_NS;
    lines.push(`${lpName(m)}${tags} ${fieldSet(p, m)} ${t}`);
  }
  return lines.join('\n');
}

function tagCond(p: Picker): string {
  const k = p.pick(['host', 'dc']);
  const v = k === 'host' ? p.pick(HOSTS) : p.pick(DCS);
  return p.pick([`${k} = '${v}'`, `${k} != '${v}'`, `${k} =~ /${v}/`, `${k} !~ /${v}/`, `${k} = ''`, `(host = 'a' OR dc = 'y')`, `host = '${p.pick(HOSTS)}' AND dc = '${p.pick(DCS)}'`]);
}

function timeCond(p: Picker): string {
  const t = at(Math.floor(p.r() * 120));
  return p.pick([`time < '${t}'`, `time >= '${t}'`, `time > '${at(10)}' AND time < '${at(70)}'`, `time < '${at(0)}'`, `time = '${at(30)}'`, 'time > 0', `time < '${at(60, true)}'`]);
}

function from(p: Picker): string {
  return p.pick(['', ` FROM ${ident(p.pick(MEASUREMENTS))}`, ' FROM /d/', ` FROM ${ident(p.pick(MEASUREMENTS))}, ${ident(p.pick(MEASUREMENTS))}`, ' FROM nosuch']);
}

function whereOf(parts: string[]): string {
  return parts.length ? ` WHERE ${parts.join(' AND ')}` : '';
}

function mutation(p: Picker, db: string): string {
  const k = p.r();
  if (k < 0.3) {
    const conds: string[] = [];
    if (p.chance(0.6)) conds.push(tagCond(p));
    if (p.chance(0.6)) conds.push(timeCond(p));
    if (p.chance(0.07)) conds.push('v > 10');
    const src = from(p);
    // A bare DELETE (or DROP SERIES) is only a syntax error.
    if (src === '' && conds.length === 0) conds.push(timeCond(p));
    return `DELETE${src}${whereOf(conds)}`;
  }
  if (k < 0.5) {
    const conds: string[] = [];
    if (p.chance(0.75)) conds.push(tagCond(p));
    if (p.chance(0.07)) conds.push(timeCond(p));
    if (p.chance(0.05)) conds.push('v > 10');
    const src = from(p);
    if (src === '' && conds.length === 0) conds.push(tagCond(p));
    return `DROP SERIES${src}${whereOf(conds)}`;
  }
  if (k < 0.6) return `DROP MEASUREMENT ${ident(p.pick([...MEASUREMENTS, 'nosuch']))}`;
  if (k < 0.78) {
    const rp = p.pick(['short', 'long', '"odd rp"']);
    const duration = p.pick(['1h', '2h', '90m', '1d', '7d', '4w', 'INF', '0s', '30m', '1s']);
    const shard = p.chance(0.4) ? ` SHARD DURATION ${p.pick(['1h', '30m', '2h', '1d', '0s', '3d', '1w'])}` : '';
    const def = p.chance(0.3) ? ' DEFAULT' : '';
    return p.pick([
      `CREATE RETENTION POLICY ${rp} ON ${db} DURATION ${duration} REPLICATION ${p.pick([1, 1, 2])}${shard}${def}`,
      `ALTER RETENTION POLICY autogen ON ${db}${p.chance(0.7) ? ` DURATION ${duration}` : ''}${shard}${def || (p.chance(0.5) ? ' REPLICATION 1' : '')}`,
      `CREATE RETENTION POLICY ${rp} ON ${db} DURATION ${duration} REPLICATION 1${shard}${def}; ALTER RETENTION POLICY ${rp} ON ${db}${p.chance(0.5) ? ` DURATION ${p.pick(['3h', 'INF', '1d'])}` : ''}${p.chance(0.5) ? ` SHARD DURATION ${p.pick(['2h', '1d'])}` : ''} DEFAULT`,
      `DROP RETENTION POLICY ${p.pick(['autogen', 'nosuch'])} ON ${db}`,
    ]);
  }
  const src = ident(p.pick(MEASUREMENTS));
  const range = `time >= '${at(0)}' AND time < '${at(120)}'`;
  return p.pick([
    `SELECT * INTO copy FROM ${src}${p.chance(0.5) ? ' GROUP BY *' : ''}`,
    `SELECT v, n INTO ${db}..copy FROM ${src}`,
    `SELECT mean(v) AS v, count(n) INTO agg FROM ${src} WHERE ${range} GROUP BY time(${p.pick(['10m', '30m', '1h'])})${p.chance(0.5) ? ', *' : ''}${p.chance(0.3) ? ' fill(0)' : ''}`,
    `SELECT max(v) INTO agg FROM /./ WHERE ${range} GROUP BY time(1h), host`,
    `SELECT last(*) INTO agg FROM ${src} GROUP BY *`,
    `SELECT * INTO ${db}..:MEASUREMENT FROM ${src} WHERE time < '${at(60)}'`,
    `SELECT host, v INTO copy FROM ${src}`,
  ]);
}

/** A scratch database `db` with random points, one mutation, and everything read back. */
export function randomMutation(p: Picker, db: string): MutationCase {
  const setup: (StepWrite | StepQuery)[] = [{ q: `DROP DATABASE ${db}` }, { q: `CREATE DATABASE ${db}` }, { write: dataSet(p), db }];
  if (p.chance(0.2)) {
    setup.push({ q: `CREATE RETENTION POLICY two ON ${db} DURATION INF REPLICATION 1`, db });
    setup.push({ write: dataSet(p), db, rp: 'two' });
  }
  const q = p.chance(0.15) ? `${mutation(p, db)}; ${mutation(p, db)}` : mutation(p, db);
  const ns = { epoch: 'ns' };
  return {
    q,
    setup,
    verify: [
      { q: 'SELECT * FROM /.*/', db, params: ns },
      { q: 'SELECT * FROM two./.*/', db, params: ns },
      { q: 'SHOW SERIES', db },
      { q: 'SHOW MEASUREMENTS', db },
      { q: 'SHOW FIELD KEYS', db },
      { q: 'SHOW TAG VALUES WITH KEY =~ /./', db },
      { q: 'SHOW RETENTION POLICIES', db },
    ],
  };
}
