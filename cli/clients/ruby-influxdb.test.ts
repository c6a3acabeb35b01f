/**
 * The ruby influxdb gem 0.8.1 (Debian ruby-influxdb + ruby) against a real `strata serve`. The
 * client script fixtures/clients/ruby_influxdb_client.rb drives the gem's whole surface with its
 * defaults (auth_method 'params': u=root&p=root on every URL; every statement through GET
 * /query): databases, retention policies, users and grants, write_point(s) with each precision
 * and every value type, query with denormalize, chunk_size, epoch, params and several
 * statements, batches, schema listings, continuous queries, and each error class. Its printed
 * transcript must equal the one recorded from a fresh InfluxDB 1.6.7 (fixtures/clients/
 * ruby-influxdb.<scenario>.expected.txt), apart from the deviations listed below with their
 * reasons. To record again (gem output on stdout only; the gem logs to stderr):
 *   ../shared/conformance/oracle.sh start 19180 19181
 *   ruby fixtures/clients/ruby_influxdb_client.rb 19180 open >fixtures/clients/ruby-influxdb.open.expected.txt
 *   ../shared/conformance/oracle.sh stop 19180
 * and the same with INFLUXDB_HTTP_AUTH_ENABLED=true before oracle.sh start and scenario `auth`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { executable, FIXTURES, http, runCmd, withServer, type Server } from './harness.js';
import { compareTranscripts, type Deviation } from './transcript.js';

const RUBY = '/usr/bin/ruby';
const SCRIPT = join(FIXTURES, 'ruby_influxdb_client.rb');

function skipReason(): string | false {
  if (!executable(RUBY)) return `${RUBY} not installed (apt-get install ruby ruby-influxdb, see .ci/run)`;
  const probe = spawnSync(RUBY, ['-e', 'require "influxdb"; print InfluxDB::VERSION'], { encoding: 'utf8' });
  if (probe.status !== 0) return 'ruby gem influxdb missing (apt-get install ruby-influxdb, see .ci/run)';
  return false;
}

const raise = (cls: string, message: string) => `raise ${cls}: ${JSON.stringify(message)}`;
const body = (error: string) => `${JSON.stringify({ error })}\n`;

/** Deviations of the `open` scenario (auth off). */
function openDeviations(version: string): Deviation[] {
  const missingDb = raise('InfluxDB::Error', body('database not found: nodb'));
  return [
    {
      name: 'version',
      why: 'decisions.md "product name": X-Influxdb-Version carries Strata\'s version',
      strata: (oracle) => (oracle === '"1.6.7~rc0"' ? JSON.stringify(version) : `unexpected 1.6.7 version ${oracle}`),
    },
    {
      name: 'create_database_user again',
      why: 'README known differences: a failing statement in a batch reports its real error (1.6.7 buffered: "not executed")',
      strata: () => raise('InfluxDB::QueryError', 'user already exists'),
    },
    {
      name: 'write partly bad',
      why: 'README known differences: dropped=N counts every line not stored (1.6.7 says 0 for parse errors)',
      strata: (oracle) => oracle.replace('dropped=0', 'dropped=1'),
    },
    // decisions.md "missing database": a `db` parameter naming a missing database is a 404
    // before any statement runs, so the gem raises InfluxDB::Error where 1.6.7's 200 gave
    // QueryError (or nil from list_measurements, which ignores statement errors).
    { name: 'list_measurements missing db', why: 'decisions.md "missing database"', strata: () => missingDb },
    { name: 'query on missing db', why: 'decisions.md "missing database"', strata: () => missingDb },
  ];
}

/** Deviations of the `auth` scenario. */
const AUTH_DEVIATIONS: Deviation[] = [
  {
    name: 'write before any user',
    why: 'decisions.md "first admin": before the first user every request but the admin CREATE USER is 403 (1.6.7 lets /write reach its database check: 404)',
    strata: () => raise('InfluxDB::Error', body('error authorizing query: create admin user first or disable authentication')),
  },
  {
    name: 'bob create_continuous_query',
    why: 'server/auth/privileges.ts: a CQ also needs WRITE where it writes (1.6.7 lets a READ-only user leave a writing query behind)',
    strata: () =>
      raise(
        'InfluxDB::Error',
        body("error authorizing query: bob not authorized to execute statement 'CREATE CONTINUOUS QUERY cq ON rubydb BEGIN SELECT mean(v) INTO mm FROM m GROUP BY time(1h) END', requires WRITE on rubydb"),
      ),
  },
];

/** Runs the script's `scenario` against a fresh server started with `env`, then `check`s its stdout. */
async function run(scenario: string, env: Record<string, string>, check: (srv: Server, transcript: string) => Promise<void>): Promise<void> {
  await withServer({ env }, async (srv) => {
    const res = await runCmd(RUBY, [SCRIPT, String(srv.port), scenario], { timeoutMs: 60_000 });
    assert.equal(res.code, 0, `${res.stdout}\n${res.stderr}\n--- server log ---\n${srv.log().slice(-3000)}`);
    await check(srv, res.stdout);
  });
}

function expectSame(srv: Server, transcript: string, recorded: string, deviations: readonly Deviation[]): void {
  const problems = compareTranscripts(transcript, readFileSync(join(FIXTURES, recorded), 'utf8'), deviations);
  assert.deepEqual(problems, [], `${problems.join('\n\n')}\n--- server log ---\n${srv.log().slice(-3000)}`);
}

describe('ruby influxdb gem 0.8.1', { timeout: 180_000, skip: skipReason() }, () => {
  it('auth off, the gem\'s defaults: the transcript of InfluxDB 1.6.7', async () => {
    await run('open', {}, async (srv, transcript) => {
      const version = String((await http(srv.port, 'GET', '/ping')).headers['x-influxdb-version']);
      expectSame(srv, transcript, 'ruby-influxdb.open.expected.txt', openDeviations(version));
    });
  });

  it('auth on with u/p parameters allowed: bootstrap, params and basic_auth, a non-admin\'s 403s as 1.6.7', async () => {
    const env = { SERVICE__AUTH__ENABLED: 'true', SERVICE__AUTH__ALLOW_QUERY_PARAM_CREDENTIALS: 'true' };
    await run('auth', env, async (srv, transcript) => expectSame(srv, transcript, 'ruby-influxdb.auth.expected.txt', AUTH_DEVIATIONS));
  });

  it('auth on with Strata\'s default (u/p parameters ignored): the gem\'s default client gets AuthenticationError, basic_auth works', async () => {
    // Strata only (decisions.md "credentials in u/p", spec default false): hand-written.
    await run('params-off', { SERVICE__AUTH__ENABLED: 'true' }, async (_srv, transcript) => {
      const noCredentials = raise('InfluxDB::AuthenticationError', body('unable to parse authentication credentials'));
      assert.deepEqual(transcript.trim().split('\n').map((l) => l.replace(/^create_cluster_admin bootstrap: HTTP 200 .*/, 'create_cluster_admin bootstrap: HTTP 200')), [
        'create_cluster_admin bootstrap: HTTP 200',
        `list_users (params): ${noCredentials}`,
        `write_point (params): ${noCredentials}`,
        'list_users (basic_auth): [{"username":"root","admin":true}]',
        `list_users wrong password (basic_auth): ${raise('InfluxDB::AuthenticationError', body('authorization failed'))}`,
      ]);
    });
  });
});
