/** Unpacking the single executable's assets (cli/sea/cache.ts), without building a binary. */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cacheRoots, ensureExtracted, SeaCacheError, type SeaManifest } from './cache.js';

const ASSETS: Record<string, Uint8Array> = {
  'strata.mjs': new TextEncoder().encode('export {};\n'),
  'addons/uws.node': new Uint8Array(1000).fill(7),
};
const MANIFEST: SeaManifest = {
  version: '1.2.3',
  id: '1.2.3-0123456789abcdef',
  entry: 'strata.mjs',
  addons: { uws: 'uws.node' },
  files: [
    { asset: 'strata.mjs', name: 'strata.mjs', size: 11 },
    { asset: 'addons/uws.node', name: 'uws.node', size: 1000 },
  ],
};

describe('single executable cache directory', () => {
  let dir: string;
  let reads: string[];
  const read = (asset: string): Uint8Array => {
    reads.push(asset);
    const bytes = ASSETS[asset];
    if (!bytes) throw new Error(`no asset ${asset}`);
    return bytes;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-sea-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prefers STRATA_CACHE_DIR, then XDG_CACHE_HOME, then HOME, then a per-user temp dir', () => {
    assert.deepEqual(cacheRoots({ STRATA_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' }, 5, '/t'), { roots: ['/c'], strict: true });
    assert.deepEqual(cacheRoots({ XDG_CACHE_HOME: '/x', HOME: '/h' }, 5, '/t'), {
      roots: ['/x/strata', '/h/.cache/strata', '/t/strata-5'],
      strict: false,
    });
    assert.deepEqual(cacheRoots({}, 5, '/t'), { roots: ['/t/strata-5'], strict: false });
  });

  it('unpacks every file once into <root>/<id>/ and reuses it afterwards', () => {
    reads = [];
    const env = { XDG_CACHE_HOME: join(dir, 'xdg') };
    const out = ensureExtracted(MANIFEST, read, env, 0, dir);
    assert.equal(out, join(dir, 'xdg', 'strata', MANIFEST.id));
    assert.deepEqual(readdirSync(out).sort(), ['strata.mjs', 'uws.node']);
    assert.equal(readFileSync(join(out, 'strata.mjs'), 'utf8'), 'export {};\n');
    assert.deepEqual(reads, ['strata.mjs', 'addons/uws.node']);
    reads = [];
    assert.equal(ensureExtracted(MANIFEST, read, env, 0, dir), out);
    assert.deepEqual(reads, [], 'a complete cache is not rewritten');
  });

  it('replaces a file of the wrong size', () => {
    reads = [];
    const env = { XDG_CACHE_HOME: join(dir, 'damaged') };
    const out = join(dir, 'damaged', 'strata', MANIFEST.id);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'uws.node'), 'truncated');
    ensureExtracted(MANIFEST, read, env, 0, dir);
    assert.deepEqual(reads, ['strata.mjs', 'addons/uws.node']);
    assert.equal(readFileSync(join(out, 'uws.node')).length, 1000);
  });

  it('falls back to the next root when one is unusable', () => {
    writeFileSync(join(dir, 'not-a-dir'), '');
    const out = ensureExtracted(MANIFEST, read, { XDG_CACHE_HOME: join(dir, 'not-a-dir'), HOME: join(dir, 'home') }, 0, dir);
    assert.equal(out, join(dir, 'home', '.cache', 'strata', MANIFEST.id));
  });

  it('fails, naming STRATA_CACHE_DIR, when the explicit directory is unusable', () => {
    assert.throws(
      () => ensureExtracted(MANIFEST, read, { STRATA_CACHE_DIR: join(dir, 'not-a-dir', 'x'), HOME: join(dir, 'home') }, 0, dir),
      (err: unknown) => err instanceof SeaCacheError && /STRATA_CACHE_DIR/.test(err.message) && /not-a-dir/.test(err.message),
    );
  });

  it('refuses a per-user temp dir that others can write to', () => {
    const tmp = join(dir, 'tmp');
    mkdirSync(join(tmp, 'strata-0'), { recursive: true });
    chmodSync(join(tmp, 'strata-0'), 0o777);
    assert.throws(() => ensureExtracted(MANIFEST, read, {}, 0, tmp), /writable by others/);
  });

  it('rejects an asset whose size disagrees with the manifest', () => {
    const bad: SeaManifest = { ...MANIFEST, id: 'bad', files: [{ asset: 'strata.mjs', name: 'strata.mjs', size: 12 }] };
    assert.throws(() => ensureExtracted(bad, read, { STRATA_CACHE_DIR: join(dir, 'bad') }, 0, dir), /manifest says 12/);
  });
});
