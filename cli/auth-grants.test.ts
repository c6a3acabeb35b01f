/**
 * First-admin bootstrap, per-database grants on /write and /query, and the verification cache's
 * invalidation (decisions.md "first admin", "per-database grants"; clients.md items 10, 12),
 * end to end on a real server and engine.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asAdmin, basic, call, errorOf, q, seed, startRealServer, type RealServer } from './test-server.js';

const CREATE_ADMIN_FIRST = 'error authorizing query: create admin user first or disable authentication';

interface QueryBody {
  results: { statement_id: number; error?: string; series?: { columns: string[]; values?: unknown[][] }[] }[];
}

function denied(user: string, stmt: string, requires: string): string {
  return `error authorizing query: ${user} not authorized to execute statement '${stmt}', requires ${requires}`;
}

describe('first-admin bootstrap', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
  });
  after(() => srv.close());

  it('with no users every protected request is 403 "create admin user first", credentials or not', async () => {
    const calls = [
      { path: q('SHOW DATABASES') },
      { method: 'POST', path: q('CREATE DATABASE db'), headers: basic('root', 'root') },
      { method: 'POST', path: q("CREATE USER bob WITH PASSWORD 'x'") },
      // Every statement of the batch must create an admin.
      { method: 'POST', path: q("CREATE USER a WITH PASSWORD 'x' WITH ALL PRIVILEGES; CREATE DATABASE db") },
      { method: 'POST', path: '/write?db=db', body: 'm v=1' },
      { method: 'POST', path: '/api/v1/chdb?db=db', body: 'q=SELECT%201' },
      { path: '/internal/status' },
    ];
    for (const c of calls) {
      const res = await call(srv, c);
      assert.equal(res.status, 403, `${c.path}: ${res.text}`);
      assert.equal(errorOf(res), CREATE_ADMIN_FIRST);
    }
    assert.equal((await call(srv, { path: '/ping' })).status, 204);
  });

  it('a parse error is still 400', async () => {
    const res = await call(srv, { method: 'POST', path: q('CREATE USER') });
    assert.equal(res.status, 400);
  });

  it('accepts an unauthenticated CREATE USER ... WITH ALL PRIVILEGES (python sends Basic root:root), then requires login', async () => {
    const res = await call(srv, { method: 'POST', path: q("CREATE USER admin WITH PASSWORD 'admin-pw' WITH ALL PRIVILEGES"), headers: basic('root', 'root') });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(JSON.parse(res.text), { results: [{ statement_id: 0 }] });
    const again = await call(srv, { method: 'POST', path: q("CREATE USER evil WITH PASSWORD 'x' WITH ALL PRIVILEGES") });
    assert.equal(again.status, 401);
    assert.equal(errorOf(again), 'unable to parse authentication credentials');
    const users = await asAdmin(srv, 'SHOW USERS');
    assert.deepEqual(users.results[0]?.series?.[0]?.values, [['admin', true]]);
  });

  it('concurrent bootstrap requests create one admin; the others must then log in', async () => {
    const other = await startRealServer({ 'auth.enabled': true });
    try {
      const create = (name: string) => call(other, { method: 'POST', path: q(`CREATE USER ${name} WITH PASSWORD 'pw' WITH ALL PRIVILEGES`) });
      const answers = await Promise.all(['a1', 'a2', 'a3'].map(create));
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 401, 401]);
      assert.equal(other.deps.users?.users().length, 1);
    } finally {
      await other.close();
    }
  });
});

describe('per-database grants', { timeout: 60_000 }, () => {
  let srv: RealServer;
  before(async () => {
    srv = await startRealServer({ 'auth.enabled': true });
    await seed(srv);
    await asAdmin(srv, 'CREATE DATABASE secret');
    const w = await call(srv, { method: 'POST', path: '/write?db=db', body: 'm,host=a v=1 1000000000\nm,host=b v=2 2000000000', headers: basic('admin', 'admin-pw') });
    assert.equal(w.status, 204, w.text);
  });
  after(() => srv.close());

  const as = (user: string, pw: string) => basic(user, pw);

  it('/write needs WRITE or ALL on the database (admins bypass); 403 with the 1.x text', async () => {
    const write = (h: Record<string, string>, db = 'db') => call(srv, { method: 'POST', path: `/write?db=${db}`, body: 'm v=3 3000000000', headers: h });
    assert.equal((await write(as('writer', 'w-pw'))).status, 204);
    assert.equal((await write(as('allp', 'a-pw'))).status, 204);
    assert.equal((await write(as('admin', 'admin-pw'))).status, 204);
    for (const [user, pw] of [['reader', 'r-pw'], ['nobody', 'n-pw']] as const) {
      const res = await write(as(user, pw));
      assert.equal(res.status, 403);
      assert.equal(errorOf(res), `"${user}" user is not authorized to write to database "db"`);
    }
    // No grant on a missing database: 403, not 404 (existence is not revealed).
    const missing = await write(as('writer', 'w-pw'), 'nope');
    assert.equal(missing.status, 403);
    assert.equal(errorOf(missing), '"writer" user is not authorized to write to database "nope"');
    assert.equal((await write(as('admin', 'admin-pw'), 'nope')).status, 404);
  });

  it('SELECT and SHOW need READ; INTO, DELETE, DROP SERIES need WRITE; CQs need both', async () => {
    const CQ = 'CREATE CONTINUOUS QUERY c ON db BEGIN SELECT mean(v) INTO m2 FROM m GROUP BY time(1h) END';
    const CQ_SECRET = 'CREATE CONTINUOUS QUERY c ON db BEGIN SELECT mean(v) INTO m2 FROM secret.autogen.m GROUP BY time(1h) END';
    const cases: [string, string, string, string, string | null][] = [
      // user, password, query, db, expected denial (null = allowed)
      ['reader', 'r-pw', 'SELECT * FROM m', 'db', null],
      ['allp', 'a-pw', 'SELECT * FROM m', 'db', null],
      ['writer', 'w-pw', 'SELECT * FROM m', 'db', denied('writer', 'SELECT * FROM m', 'READ on db')],
      ['nobody', 'n-pw', 'SELECT * FROM m', 'db', denied('nobody', 'SELECT * FROM m', 'READ on db')],
      ['reader', 'r-pw', 'SELECT * FROM secret.autogen.m', 'db', denied('reader', 'SELECT * FROM secret.autogen.m', 'READ on secret')],
      ['reader', 'r-pw', 'SELECT * FROM (SELECT * FROM secret.autogen.m)', 'db', denied('reader', 'SELECT * FROM (SELECT * FROM secret.autogen.m)', 'READ on secret')],
      ['reader', 'r-pw', 'SHOW MEASUREMENTS', 'db', null],
      ['reader', 'r-pw', 'SHOW TAG KEYS ON secret', 'db', denied('reader', 'SHOW TAG KEYS ON secret', 'READ on secret')],
      ['writer', 'w-pw', 'SHOW FIELD KEYS', 'db', denied('writer', 'SHOW FIELD KEYS', 'READ on db')],
      ['reader', 'r-pw', 'SHOW MEASUREMENTS', '', denied('reader', 'SHOW MEASUREMENTS', 'READ on ')],
      ['reader', 'r-pw', 'SELECT v INTO m2 FROM m', 'db', denied('reader', 'SELECT v INTO m2 FROM m', 'WRITE on db')],
      ['allp', 'a-pw', 'SELECT v INTO m2 FROM m', 'db', null],
      ['allp', 'a-pw', 'SELECT v INTO other.autogen.m2 FROM m', 'db', denied('allp', 'SELECT v INTO other.autogen.m2 FROM m', 'WRITE on other')],
      ['reader', 'r-pw', "DELETE FROM m WHERE host = 'zz'", 'db', denied('reader', "DELETE FROM m WHERE host = 'zz'", 'WRITE on db')],
      ['writer', 'w-pw', "DELETE FROM m WHERE host = 'zz'", 'db', null],
      ['writer', 'w-pw', "DROP SERIES FROM m WHERE host = 'zz'", 'db', null],
      ['reader', 'r-pw', 'SHOW DATABASES', '', null],
      ['reader', 'r-pw', 'SHOW GRANTS', '', null],
      ['reader', 'r-pw', 'SHOW GRANTS FOR writer', '', denied('reader', 'SHOW GRANTS FOR writer', 'admin privilege')],
      // 1.x: SHOW GRANTS FOR is admin-only even for oneself (the ruby gem's list_user_grants)
      ['reader', 'r-pw', 'SHOW GRANTS FOR reader', '', denied('reader', 'SHOW GRANTS FOR reader', 'admin privilege')],
      // CQs: READ on their database first (1.x's text), then the SELECT's sources, then WRITE
      // where they write; DROP needs WRITE (1.x).
      ['writer', 'w-pw', CQ, 'db', denied('writer', CQ, 'READ on db')],
      ['reader', 'r-pw', CQ, 'db', denied('reader', CQ, 'WRITE on db')],
      ['allp', 'a-pw', CQ_SECRET, 'db', denied('allp', CQ_SECRET, 'READ on secret')],
      ['allp', 'a-pw', CQ, 'db', null],
      ['reader', 'r-pw', 'DROP CONTINUOUS QUERY c ON db', 'db', denied('reader', 'DROP CONTINUOUS QUERY c ON db', 'WRITE on db')],
      ['writer', 'w-pw', 'DROP CONTINUOUS QUERY c ON db', 'db', null],
    ];
    for (const [user, pw, text, db, denial] of cases) {
      const res = await call(srv, { method: 'POST', path: q(text, db), headers: as(user, pw) });
      const label = `${user}: ${text} → ${res.status} ${res.text}`;
      if (denial === null) assert.equal(res.status, 200, label);
      else {
        assert.equal(res.status, 403, label);
        assert.equal(errorOf(res), denial, label);
      }
    }
  });

  it('admin-only statements are 403 "requires admin privilege" for every non-admin', async () => {
    const statements = [
      'CREATE DATABASE x',
      'DROP DATABASE db',
      'CREATE RETENTION POLICY rp ON db DURATION 1d REPLICATION 1',
      'DROP RETENTION POLICY autogen ON db',
      "CREATE USER x WITH PASSWORD [REDACTED]",
      'DROP USER writer',
      'SET PASSWORD FOR writer = [REDACTED]',
      'GRANT ALL PRIVILEGES ON db TO nobody',
      'REVOKE READ ON db FROM reader',
      'SHOW USERS',
      'DROP MEASUREMENT m',
      'KILL QUERY 1',
    ];
    const sources: Record<string, string> = {
      'CREATE USER x WITH PASSWORD [REDACTED]': "CREATE USER x WITH PASSWORD 'secret'",
      'SET PASSWORD FOR writer = [REDACTED]': "SET PASSWORD FOR writer = 'secret'",
      // 1.x's String() prints ALL as ALL PRIVILEGES (its GET warning shows it: s-k103)
      'GRANT ALL PRIVILEGES ON db TO nobody': 'GRANT ALL ON db TO nobody',
    };
    for (const printed of statements) {
      const res = await call(srv, { method: 'POST', path: q(sources[printed] ?? printed, 'db'), headers: as('allp', 'a-pw') });
      assert.equal(res.status, 403, `${printed}: ${res.text}`);
      // Password literals never appear in the answer.
      assert.equal(errorOf(res), denied('allp', printed, 'admin privilege'));
    }
  });

  it('the executor sees the user: SHOW DATABASES lists granted databases, SHOW GRANTS the own grants', async () => {
    const dbs = async (user: string, pw: string) =>
      (JSON.parse((await call(srv, { path: q('SHOW DATABASES'), headers: as(user, pw) })).text) as QueryBody).results[0]?.series?.[0]?.values ?? [];
    assert.deepEqual(await dbs('reader', 'r-pw'), [['db']]);
    assert.deepEqual(await dbs('nobody', 'n-pw'), []);
    assert.deepEqual(await dbs('admin', 'admin-pw'), [['db'], ['other'], ['secret']]);
    const grants = JSON.parse((await call(srv, { path: q('SHOW GRANTS'), headers: as('reader', 'r-pw') })).text) as QueryBody;
    assert.deepEqual(grants.results[0]?.series?.[0]?.values, [['db', 'READ']]);
  });

  it('grant changes apply to the next request (privileges are read fresh, not cached)', async () => {
    const read = () => call(srv, { path: q('SELECT * FROM m', 'db'), headers: as('nobody', 'n-pw') });
    assert.equal((await read()).status, 403);
    await asAdmin(srv, 'GRANT READ ON db TO nobody');
    assert.equal((await read()).status, 200);
    await asAdmin(srv, 'REVOKE READ ON db FROM nobody');
    assert.equal((await read()).status, 403);
    await asAdmin(srv, 'GRANT ALL PRIVILEGES TO nobody');
    assert.equal((await call(srv, { path: '/internal/x', headers: as('nobody', 'n-pw') })).status, 404);
    await asAdmin(srv, 'REVOKE ALL PRIVILEGES FROM nobody');
    assert.equal((await call(srv, { path: '/internal/x', headers: as('nobody', 'n-pw') })).status, 403);
  });

  it('SET PASSWORD and DROP USER take effect at once despite the verification cache', async () => {
    await asAdmin(srv, "CREATE USER temp WITH PASSWORD 'old'; GRANT READ ON db TO temp");
    const show = (pw: string) => call(srv, { path: q('SHOW DATABASES'), headers: as('temp', pw) });
    assert.equal((await show('old')).status, 200); // now cached
    await asAdmin(srv, "SET PASSWORD FOR temp = 'new'");
    assert.equal((await show('old')).status, 401);
    assert.equal((await show('new')).status, 200);
    await asAdmin(srv, 'DROP USER temp');
    assert.equal((await show('new')).status, 401);
    // Re-created with the old password: the cached failure for it does not stick.
    await asAdmin(srv, "CREATE USER temp WITH PASSWORD 'old'");
    assert.equal((await show('old')).status, 200);
  });
});
