/**
 * TLS: with server.tls_enabled the app is a uWS SSLApp serving the configured PEM files;
 * unusable files fail start-up with TlsConfigError naming the key. Uses a throwaway
 * self-signed certificate from the system openssl (skipped when openssl is absent).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from './app.js';
import { TlsConfigError } from './errors.js';
import { defaultServerOptions } from './options.js';
import { RecordingDeps } from './testing.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('TLS', { skip: !hasOpenssl() && 'openssl not installed', timeout: 30_000 }, () => {
  let dir: string;
  let cert: string;
  let key: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-tls-'));
    cert = join(dir, 'cert.pem');
    key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
      { stdio: 'ignore' },
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const options = (tls: { cert: string; key: string }) =>
    defaultServerOptions({
      server: { bind_address: '127.0.0.1', port: 0, tls_enabled: true, tls_cert_path: tls.cert, tls_key_path: tls.key },
    });

  it('serves /ping over HTTPS', async () => {
    const handle = await startServer(new RecordingDeps(), options({ cert, key }));
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: handle.port, path: '/ping', rejectUnauthorized: false, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 204);
    } finally {
      await handle.close({ drainTimeoutMs: 1000 });
    }
  });

  it('fails start-up clearly on missing, empty-path or non-PEM files', async () => {
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a certificate');
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    const cases: [{ cert: string; key: string }, RegExp][] = [
      [{ cert: join(dir, 'absent.pem'), key }, /cannot read server\.tls_cert_path ".*absent\.pem"/],
      [{ cert, key: '' }, /server\.tls_key_path is empty/],
      [{ cert, key: junk }, /server\.tls_key_path ".*junk\.pem" is not a PEM file/],
      [{ cert, key: bad }, /cannot load TLS certificate ".*cert\.pem" with key ".*bad\.pem"/],
    ];
    for (const [files, message] of cases) {
      await assert.rejects(startServer(new RecordingDeps(), options(files)), (err: unknown) => {
        assert.ok(err instanceof TlsConfigError);
        assert.match(err.message, message);
        return true;
      });
    }
  });
});
