/** User statements and password hashing: 1.x outputs and error texts, argon2id PHC hashes. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hashPasswordArgon2id, verifyPassword } from './password.js';
import { openTestEngine, run, series1, type TestEngine } from './test-support.js';

let t: TestEngine;
before(async () => {
  t = await openTestEngine();
  await run(t.engine, 'CREATE DATABASE d1; CREATE DATABASE d3; CREATE DATABASE d4');
});
after(async () => t.close());

const fast = async (p: string) => `plain:${p}`;
const q = (text: string) => series1(t.engine, text, { hashPassword: fast });
const err = async (text: string) => (await run(t.engine, text, { hashPassword: fast }))[0]?.error;
const ok = async (text: string) => {
  for (const r of await run(t.engine, text, { hashPassword: fast })) assert.equal(r.error, undefined, text);
};
const grants = (...rows: string[][]) => [rows.length ? { columns: ['database', 'privilege'], values: rows } : { columns: ['database', 'privilege'] }];

test('argon2id PHC hashes with random salts; verify', async () => {
  const a = await hashPasswordArgon2id('secret');
  const b = await hashPasswordArgon2id('secret');
  assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.notEqual(a, b);
  assert.ok(!a.includes('secret'));
  assert.equal(await verifyPassword(a, 'secret'), true);
  assert.equal(await verifyPassword(a, 'Secret'), false);
  assert.equal(await verifyPassword('garbage', 'secret'), false);
  assert.equal(await verifyPassword('$argon2id$broken', 'secret'), false);
});

test("an empty password (1.x: WITH PASSWORD '') hashes and verifies, and only itself", async () => {
  const h = await hashPasswordArgon2id('');
  assert.equal(await verifyPassword(h, ''), true);
  for (const other of ['\u00ff', '\u0000', ' ']) assert.equal(await verifyPassword(h, other), false, JSON.stringify(other));
  assert.equal(await verifyPassword(await hashPasswordArgon2id('\u00ff'), ''), false);
  assert.deepEqual(await run(t.engine, "CREATE USER empty_pw WITH PASSWORD ''; CREATE USER empty_pw WITH PASSWORD ''"), [{}, {}]);
  assert.equal((await run(t.engine, "CREATE USER empty_pw WITH PASSWORD 'x'"))[0]?.error, 'user already exists');
  await run(t.engine, 'DROP USER empty_pw');
});

test('CREATE USER: admin flag, idempotent with the same password, errors (default hasher)', async () => {
  assert.deepEqual(await run(t.engine, "CREATE USER u1 WITH PASSWORD 'p'; CREATE USER u1 WITH PASSWORD 'p'"), [{}, {}]);
  const stored = t.engine.catalog.user('u1');
  assert.ok(stored && (await verifyPassword(stored.hash, 'p')));
  assert.equal((await run(t.engine, "CREATE USER u1 WITH PASSWORD 'q'"))[0]?.error, 'user already exists');
  assert.equal((await run(t.engine, "CREATE USER u1 WITH PASSWORD 'p' WITH ALL PRIVILEGES"))[0]?.error, 'user already exists');
  await ok("CREATE USER u2 WITH PASSWORD 'p' WITH ALL PRIVILEGES");
  assert.deepEqual(await q('SHOW USERS'), [{ columns: ['user', 'admin'], values: [['u1', false], ['u2', true]] }]);
  assert.equal(await err(`CREATE USER "" WITH PASSWORD 'x'`), 'username required');
});

test('GRANT / REVOKE per database and ALL PRIVILEGES', async () => {
  await ok("CREATE USER g WITH PASSWORD 'p'");
  await ok('GRANT READ ON d4 TO g; GRANT WRITE ON d3 TO g; GRANT ALL ON d1 TO g');
  assert.deepEqual(await q('SHOW GRANTS FOR g'), grants(['d4', 'READ'], ['d3', 'WRITE'], ['d1', 'ALL PRIVILEGES']));
  await ok('GRANT WRITE ON d4 TO g');
  assert.deepEqual(await q('SHOW GRANTS FOR g'), grants(['d4', 'WRITE'], ['d3', 'WRITE'], ['d1', 'ALL PRIVILEGES']));
  await ok('REVOKE WRITE ON d1 FROM g; REVOKE READ ON d3 FROM g; REVOKE ALL ON d4 FROM g');
  // 1.x keeps a revoked database as NO PRIVILEGES.
  assert.deepEqual(await q('SHOW GRANTS FOR g'), grants(['d4', 'NO PRIVILEGES'], ['d3', 'WRITE'], ['d1', 'READ']));
  await ok('REVOKE READ ON d1 FROM g; REVOKE WRITE ON d3 FROM g');
  const none = grants(['d4', 'NO PRIVILEGES'], ['d3', 'NO PRIVILEGES'], ['d1', 'NO PRIVILEGES']);
  assert.deepEqual(await q('SHOW GRANTS FOR g'), none);
  await ok('GRANT ALL PRIVILEGES TO g');
  assert.equal(t.engine.catalog.user('g')?.admin, true);
  await ok('REVOKE ALL PRIVILEGES FROM g');
  assert.equal(t.engine.catalog.user('g')?.admin, false);
  assert.deepEqual(await series1(t.engine, 'SHOW GRANTS', { user: { name: 'g', admin: false } }), none);
  assert.deepEqual(await series1(t.engine, 'SHOW DATABASES', { user: { name: 'g', admin: false } }), [{ name: 'databases', columns: ['name'] }]);
});

test('errors name the 1.x texts', async () => {
  assert.equal(await err('GRANT READ ON d4 TO nope'), 'user not found');
  assert.equal(await err('GRANT ALL PRIVILEGES TO nope'), 'user not found');
  assert.equal(await err('REVOKE ALL PRIVILEGES FROM nope'), 'user not found');
  assert.equal(await err('REVOKE READ ON d1 FROM nope'), 'user not found');
  assert.equal(await err('SHOW GRANTS FOR nope'), 'user not found');
  assert.equal(await err("SET PASSWORD FOR nope = 'x'"), 'user not found');
  assert.equal(await err('DROP USER nope'), 'user not found');
  await ok("CREATE USER e WITH PASSWORD 'p'");
  assert.equal(await err('GRANT READ ON nope TO e'), 'database not found: nope');
});

test('SET PASSWORD rehashes; DROP USER; SHOW USERS keeps its columns when empty', async () => {
  const fresh = await openTestEngine();
  try {
    await run(fresh.engine, "CREATE USER s WITH PASSWORD 'old'");
    assert.deepEqual(await run(fresh.engine, "SET PASSWORD FOR s = 'new'"), [{}]);
    const hash = fresh.engine.catalog.user('s')?.hash ?? '';
    assert.equal(await verifyPassword(hash, 'new'), true);
    assert.equal(await verifyPassword(hash, 'old'), false);
    assert.deepEqual(await run(fresh.engine, 'DROP USER s; SHOW USERS'), [{}, { series: [{ columns: ['user', 'admin'] }] }]);
  } finally {
    await fresh.close();
  }
});
