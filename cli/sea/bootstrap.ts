/**
 * Entry point of the single executable (`dist/strata`): Node 20 runs a SEA's main script as
 * CommonJS, while the program is ESM with top-level await, so this small script (bundled to
 * CommonJS by cli/sea/build.mjs) unpacks the SEA assets (the program's ESM bundle, a
 * package.json carrying the version, and the native addons) to the cache directory described
 * in cli/sea/cache.ts, registers the addons' paths, and imports the bundle, which then parses
 * process.argv exactly as build/cli/main.js does.
 */
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerAddons } from './addons.js';
import { ensureExtracted, SeaCacheError, type SeaManifest } from './cache.js';

async function boot(): Promise<void> {
  if (!isSea()) throw new Error('cli/sea/bootstrap runs only inside the strata single executable');
  const manifest = JSON.parse(getAsset('manifest.json', 'utf8')) as SeaManifest;
  const dir = ensureExtracted(manifest, (asset) => new Uint8Array(getRawAsset(asset) as ArrayBuffer), process.env);
  const paths: Record<string, string> = {};
  for (const [name, file] of Object.entries(manifest.addons)) paths[name] = join(dir, file);
  registerAddons(paths);
  await import(pathToFileURL(join(dir, manifest.entry)).href);
}

boot().catch((err: unknown) => {
  const text = err instanceof SeaCacheError ? err.message : ((err as Error).stack ?? String(err));
  process.stderr.write(`strata: ${text}\n`);
  process.exit(1);
});
