import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptsGzip } from './accept-encoding.js';

describe('acceptsGzip', () => {
  it('says yes to a listed gzip or x-gzip with a non-zero q-value, in any case', () => {
    for (const h of ['gzip', 'gzip, deflate', 'deflate, gzip', 'x-gzip', 'GZIP', ' gzip ;q=0.5', 'br;q=1.0, gzip;q=0.001', 'gzip;Q=1']) assert.equal(acceptsGzip(h), true, h);
  });
  it('says no to no header, identity, *, other codings and gzip;q=0', () => {
    for (const h of ['', 'identity', '*', 'deflate', 'br', 'gzip;q=0', 'gzip;q=0.0', 'gzip;q=x', 'xgzipx', 'gzipped']) assert.equal(acceptsGzip(h), false, h);
  });
});
