/**
 * Random administration statements a server without authentication still answers: users,
 * privileges and passwords, continuous queries, databases created with policy options, and the
 * SHOW statements that read them back. Each case works on a scratch database and users of its
 * own and removes them in teardown (users are server-wide: run the cases one at a time).
 */
import type { Picker } from './pick.js';

export interface AdminCase {
  readonly q: string;
  readonly setup: readonly { readonly q: string }[];
  readonly verify: readonly { readonly q: string; readonly db?: string }[];
  readonly teardown: readonly { readonly q: string }[];
}

export function randomAdmin(p: Picker, db: string, user: string): AdminCase {
  const other = `${user}_b`;
  const priv = (): string => p.pick(['READ', 'WRITE', 'ALL', 'ALL PRIVILEGES']);
  const cq = `${p.pick(['cq', '"cq one"', 'cq_2'])}`;
  const cqBody = (): string =>
    p.pick([
      `BEGIN SELECT mean(v) INTO "${db}"."autogen"."m_1h" FROM "${db}"."autogen"."m" GROUP BY time(1h) END`,
      `RESAMPLE EVERY 30m FOR 2h BEGIN SELECT count(v) INTO m_c FROM m GROUP BY time(30m), * END`,
      `RESAMPLE FOR 1h BEGIN SELECT max(v) INTO m_max FROM /.*/ GROUP BY time(10m) END`,
      `BEGIN SELECT sum(v) INTO m_s FROM m GROUP BY time(1h, 15m) fill(0) END`,
    ]);
  const statements: (() => string)[] = [
    () => `CREATE USER ${user} WITH PASSWORD 'pw${p.pick([1, 2])}'${p.chance(0.4) ? ' WITH ALL PRIVILEGES' : ''}`,
    () => `CREATE USER "${other}" WITH PASSWORD 'x'`,
    () => `GRANT ${priv()} ON "${db}" TO ${user}`,
    () => `GRANT ALL PRIVILEGES TO ${user}`,
    () => `REVOKE ${priv()} ON "${db}" FROM ${user}`,
    () => `REVOKE ALL PRIVILEGES FROM ${user}`,
    () => `SET PASSWORD FOR ${user} = 'new'`,
    () => `DROP USER ${p.pick([user, `"${other}"`])}`,
    () => `SHOW GRANTS FOR ${user}`,
    () => `CREATE CONTINUOUS QUERY ${cq} ON "${db}" ${cqBody()}`,
    () => `DROP CONTINUOUS QUERY ${cq} ON "${db}"`,
    () => `CREATE DATABASE "${db}" WITH ${p.pick(['DURATION 2d', 'DURATION 1h REPLICATION 1', 'SHARD DURATION 30m', 'NAME rp2', 'DURATION 3d NAME rp3', 'DURATION INF SHARD DURATION 1w NAME "r p"'])}`,
    () => `CREATE DATABASE "${db}"`,
    () => `DROP DATABASE "${db}"`,
    () => `CREATE RETENTION POLICY rp_${p.pick(['a', 'b'])} ON "${db}" DURATION ${p.pick(['1h', '2d', 'INF', '30m'])} REPLICATION ${p.pick([1, 2])}${p.chance(0.4) ? ' DEFAULT' : ''}`,
    () => 'SHOW USERS',
    () => 'SHOW CONTINUOUS QUERIES',
    () => `SHOW DATABASES`,
  ];
  const n = p.pick([1, 1, 2, 3]);
  const q = Array.from({ length: n }, () => p.pick(statements)()).join('; ');
  const setup: { q: string }[] = [{ q: `DROP DATABASE "${db}"` }, { q: `CREATE DATABASE "${db}"` }];
  if (p.chance(0.6)) setup.push({ q: `CREATE USER ${user} WITH PASSWORD 'pw'${p.chance(0.3) ? ' WITH ALL PRIVILEGES' : ''}` });
  if (p.chance(0.3)) setup.push({ q: `GRANT ${p.pick(['READ', 'WRITE'])} ON "${db}" TO ${user}` });
  if (p.chance(0.3)) setup.push({ q: `CREATE CONTINUOUS QUERY cq ON "${db}" BEGIN SELECT mean(v) INTO m_1h FROM m GROUP BY time(1h) END` });
  return {
    q,
    setup,
    verify: [
      { q: 'SHOW USERS' },
      { q: `SHOW GRANTS FOR ${user}` },
      { q: `SHOW GRANTS FOR "${other}"` },
      { q: 'SHOW CONTINUOUS QUERIES' },
      { q: 'SHOW DATABASES' },
      { q: `SHOW RETENTION POLICIES ON "${db}"` },
    ],
    teardown: [{ q: `DROP USER ${user}` }, { q: `DROP USER "${other}"` }, { q: `DROP DATABASE "${db}"` }],
  };
}
