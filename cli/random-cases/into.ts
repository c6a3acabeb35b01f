/**
 * SELECT ... INTO on scratch databases, as downsampling jobs and continuous queries write:
 * aggregates per window and per tag into another measurement, another policy and another
 * database, `:MEASUREMENT` back-references over several sources, raw copies with tags kept
 * or turned into fields, fill, math and selectors; then the target read back (points, field
 * types, series, tag keys). Every timestamp is explicit and far from now().
 */
import type { Picker } from './pick.js';
import type { MutationCase, StepQuery, StepWrite } from './mutate.js';

/** 2024-01-01T00:00:00Z in ns. */
const BASE_NS = 1_704_067_200_000_000_000n;
const MINUTE_NS = 60_000_000_000n;
const RANGE = "time >= '2024-01-01T00:00:00Z' AND time < '2024-01-01T02:00:00Z'";

function dataSet(p: Picker): string {
  const lines: string[] = [];
  for (let i = 0; i < 12 + Math.floor(p.r() * 20); i++) {
    const m = p.pick(['cpu', 'mem', 'cpu']);
    const tags = `${p.chance(0.9) ? `,host=${p.pick(['a', 'b', 'c'])}` : ''}${p.chance(0.6) ? `,dc=${p.pick(['x', 'y'])}` : ''}`;
    const fields = m === 'cpu' ? `v=${(p.r() * 100).toFixed(2)},n=${Math.floor(p.r() * 100)}i` : `used=${Math.floor(p.r() * 1e6)}i,s="${p.pick(['ok', 'warn'])}",up=${p.pick(['true', 'false'])}`;
    lines.push(`${m}${tags} ${fields} ${BASE_NS + BigInt(Math.floor(p.r() * 120)) * MINUTE_NS}`);
  }
  return lines.join('\n');
}

function target(p: Picker, db: string, other: string): string {
  return p.pick([`down`, `"${db}"."two"."down"`, `"${other}"."autogen"."down"`, `${db}..:MEASUREMENT`, `"${other}".."d_:MEASUREMENT"`, `two.:MEASUREMENT`]);
}

function statement(p: Picker, db: string, other: string): string {
  const into = target(p, db, other);
  const from = p.pick(['cpu', 'mem', 'cpu, mem', '/./', '/^c/']);
  const by = p.pick(['', ', *', ', host', ', dc, host']);
  return p.pick([
    () => `SELECT mean(*) INTO ${into} FROM ${from} WHERE ${RANGE} GROUP BY time(${p.pick(['10m', '30m', '1h'])})${by}${p.chance(0.3) ? ` fill(${p.pick(['0', 'previous', 'none'])})` : ''}`,
    () => `SELECT max(v) AS v_max, min(n) AS n_min, count(v) INTO ${into} FROM cpu WHERE ${RANGE} GROUP BY time(30m)${by}`,
    () => `SELECT last(*) INTO ${into} FROM ${from} WHERE ${RANGE} GROUP BY *`,
    () => `SELECT * INTO ${into} FROM ${from} WHERE ${RANGE}${p.chance(0.5) ? ' GROUP BY *' : ''}`,
    () => `SELECT v * 2 AS dv, host INTO ${into} FROM cpu WHERE ${RANGE}`,
    () => `SELECT top(v, 2), host INTO ${into} FROM cpu WHERE ${RANGE} GROUP BY time(1h)`,
    () => `SELECT sum(used) / 1024 AS kb, first(s) INTO ${into} FROM mem WHERE ${RANGE} GROUP BY time(1h)${by}`,
    () => `SELECT count(up), mode(s) INTO ${into} FROM mem WHERE ${RANGE}${by ? ` GROUP BY ${by.slice(2)}` : ''}`,
  ])();
}

/** A scratch database `db` (and `other`, a second one) with points, an INTO statement or two, and every target read back. */
export function randomIntoCase(p: Picker, db: string, other: string): MutationCase {
  const setup: (StepWrite | StepQuery)[] = [
    { q: `DROP DATABASE ${db}` },
    { q: `DROP DATABASE ${other}` },
    { q: `CREATE DATABASE ${db}` },
    { q: `CREATE DATABASE ${other}` },
    { q: `CREATE RETENTION POLICY two ON ${db} DURATION INF REPLICATION 1`, db },
    { write: dataSet(p), db },
  ];
  const q = p.chance(0.2) ? `${statement(p, db, other)}; ${statement(p, db, other)}` : statement(p, db, other);
  const ns = { epoch: 'ns' };
  return {
    q,
    setup,
    verify: [
      { q: 'SELECT * FROM /^(down|cpu_|mem_|d_)|^(cpu|mem)$/ GROUP BY *', db, params: ns },
      { q: 'SELECT * FROM two./.*/ GROUP BY *', db, params: ns },
      { q: 'SELECT * FROM /.*/ GROUP BY *', db: other, params: ns },
      { q: 'SHOW FIELD KEYS', db },
      { q: 'SHOW FIELD KEYS', db: other },
      { q: 'SHOW SERIES', db: other },
      { q: 'SHOW SERIES FROM two./.*/', db },
    ],
  };
}
