/**
 * PasswordVerifier with an injected clock and a counting verify function (argon2id itself is
 * covered by ql/exec/meta/users.test.ts and the end-to-end tests in cli/auth*.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPasswordArgon2id } from '../../ql/index.js';
import { PasswordVerifier, VERIFY_CACHE_TTL_MS, type AuthUser, type UserDirectory } from './verifier.js';

class Users implements UserDirectory {
  list: AuthUser[] = [];
  users(): readonly AuthUser[] {
    return this.list;
  }
  user(name: string): AuthUser | undefined {
    return this.list.find((u) => u.name === name);
  }
}

function setup() {
  const users = new Users();
  users.list = [{ name: 'alice', hash: '$argon2id$fake-1', admin: false, privileges: {} }];
  let now = 0;
  const calls: [string, string][] = [];
  const verify = async (hash: string, password: string) => {
    calls.push([hash, password]);
    return hash === users.user('alice')?.hash && password === 'right';
  };
  const verifier = new PasswordVerifier(users, () => now, verify);
  return { users, verifier, calls, advance: (ms: number) => (now += ms) };
}

describe('PasswordVerifier', () => {
  it('returns the current user on success, undefined on a wrong password', async () => {
    const { verifier } = setup();
    assert.equal((await verifier.authenticate('alice', 'right'))?.name, 'alice');
    assert.equal(await verifier.authenticate('alice', 'wrong'), undefined);
  });

  it('caches successes and failures for the TTL, then verifies again', async () => {
    const { verifier, calls, advance } = setup();
    await verifier.authenticate('alice', 'right');
    await verifier.authenticate('alice', 'wrong');
    await verifier.authenticate('alice', 'right');
    await verifier.authenticate('alice', 'wrong');
    assert.equal(calls.length, 2);
    advance(VERIFY_CACHE_TTL_MS - 1);
    await verifier.authenticate('alice', 'right');
    assert.equal(calls.length, 2);
    advance(1);
    await verifier.authenticate('alice', 'right');
    assert.equal(calls.length, 3);
  });

  it('shares one verification between concurrent identical checks', async () => {
    const { verifier, calls } = setup();
    const all = await Promise.all([1, 2, 3].map(() => verifier.authenticate('alice', 'right')));
    assert.deepEqual(all.map((u) => u?.name), ['alice', 'alice', 'alice']);
    assert.equal(calls.length, 1);
  });

  it('a password change or drop invalidates the cached entry at once', async () => {
    const { verifier, users } = setup();
    assert.ok(await verifier.authenticate('alice', 'right'));
    users.list = [{ name: 'alice', hash: '$argon2id$fake-2', admin: false, privileges: {} }];
    // The fake verify only accepts 'right' against the current hash: re-verified, still right.
    assert.ok(await verifier.authenticate('alice', 'right'));
    users.list = [];
    assert.equal(await verifier.authenticate('alice', 'right'), undefined);
  });

  it('returns the admin flag and grants as they are now, not as cached', async () => {
    const { verifier, users } = setup();
    await verifier.authenticate('alice', 'right');
    users.list = [{ ...users.list[0]!, admin: true, privileges: { db: 'READ' } }];
    const u = await verifier.authenticate('alice', 'right');
    assert.equal(u?.admin, true);
    assert.deepEqual(u?.privileges, { db: 'READ' });
  });

  it('verifies unknown users against a dummy argon2id hash (same cost), never succeeding', async () => {
    const { verifier, calls } = setup();
    assert.equal(await verifier.authenticate('mallory', 'right'), undefined);
    assert.equal(calls.length, 1);
    assert.match(calls[0]![0], /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(calls[0]![1], 'right');
  });

  it('cached failures of an unknown user end when the user is created', async () => {
    const { verifier, users } = setup();
    assert.equal(await verifier.authenticate('bob', 'right'), undefined);
    users.list.push({ name: 'bob', hash: users.list[0]!.hash, admin: false, privileges: {} });
    assert.equal((await verifier.authenticate('bob', 'right'))?.name, 'bob');
  });

  it('does not cache a verification that threw', async () => {
    const users = new Users();
    users.list = [{ name: 'u', hash: 'h', admin: false, privileges: {} }];
    let fail = true;
    const verifier = new PasswordVerifier(users, () => 0, async () => {
      if (fail) throw new Error('wasm out of memory');
      return true;
    });
    await assert.rejects(verifier.authenticate('u', 'pw'), /out of memory/);
    fail = false;
    assert.equal((await verifier.authenticate('u', 'pw'))?.name, 'u');
  });

  it('works with real argon2id hashes', async () => {
    const users = new Users();
    users.list = [{ name: 'u', hash: await hashPasswordArgon2id('pw'), admin: true, privileges: {} }];
    const verifier = new PasswordVerifier(users, () => 0);
    assert.equal((await verifier.authenticate('u', 'pw'))?.admin, true);
    assert.equal(await verifier.authenticate('u', 'PW'), undefined);
  });
});
