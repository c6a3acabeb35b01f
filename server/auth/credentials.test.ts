import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseQuery } from '../http/query.js';
import { extractCredentials } from './credentials.js';
import { routeClass } from './routes.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('extractCredentials', () => {
  const none = parseQuery('');
  it('reads u/p only when allowed, and only when both are non-empty', () => {
    assert.deepEqual(extractCredentials(parseQuery('u=a&p=b'), '', true), { username: 'a', password: 'b' });
    assert.equal(extractCredentials(parseQuery('u=a&p=b'), '', false), undefined);
    assert.equal(extractCredentials(parseQuery('u=a'), '', true), undefined);
    assert.equal(extractCredentials(parseQuery('u=&p=b'), '', true), undefined);
  });
  it('u/p win over headers; headers are used when u/p are absent or disallowed', () => {
    const h = `Basic ${b64('h:hp')}`;
    assert.deepEqual(extractCredentials(parseQuery('u=a&p=b'), h, true), { username: 'a', password: 'b' });
    assert.deepEqual(extractCredentials(parseQuery('u=a&p=b'), h, false), { username: 'h', password: 'hp' });
  });
  it('Basic: base64 user:password, colons allowed in the password, scheme case-insensitive', () => {
    assert.deepEqual(extractCredentials(none, `Basic ${b64('u:p:q')}`, false), { username: 'u', password: 'p:q' });
    assert.deepEqual(extractCredentials(none, `basic ${b64('u:')}`, false), { username: 'u', password: '' });
    assert.deepEqual(extractCredentials(none, `Basic ${b64('ü:pässword')}`, false), { username: 'ü', password: 'pässword' });
  });
  it('Token: user:password with a single colon', () => {
    assert.deepEqual(extractCredentials(none, 'Token u:p', false), { username: 'u', password: 'p' });
    assert.equal(extractCredentials(none, 'Token u:p:q', false), undefined);
    assert.equal(extractCredentials(none, 'Token up', false), undefined);
  });
  it('malformed or unknown headers are no credentials', () => {
    for (const h of ['', 'Basic', `Basic ${b64('nocolon')}`, 'Basic %%%', 'Bearer x', `Basic ${b64('a:b')} extra`]) {
      assert.equal(extractCredentials(none, h, false), undefined, h);
    }
  });
});

describe('routeClass', () => {
  it('classifies every route family of the spec', () => {
    const cases: [string, boolean, string][] = [
      ['/write', true, 'login'],
      ['/query', true, 'login'],
      ['/api/v1/statements', true, 'login'],
      ['/api/v1/statements', false, 'public'],
      ['/ping', true, 'public'],
      ['/health', true, 'public'],
      ['/health/ready', true, 'public'],
      ['/metrics', true, 'public'],
      ['/api/v1/chdb', true, 'admin'],
      ['/api/v1/sql', true, 'admin'],
      ['/internal', true, 'admin'],
      ['/internal/replicate', true, 'admin'],
      ['/cluster/raft/append', true, 'admin'],
      ['/internals', true, 'public'],
    ];
    for (const [path, requireAuth, cls] of cases) assert.equal(routeClass(path, requireAuth), cls, path);
  });
});
