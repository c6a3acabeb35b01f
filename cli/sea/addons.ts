/**
 * The native addons of the single executable. Inside `dist/strata` the bundle's imports of
 * `uWebSockets.js` and `lz4-napi` are redirected here (esbuild plugin in cli/sea/build.mjs);
 * the bootstrap (cli/sea/bootstrap.ts) has unpacked the `.node` files to the cache directory
 * and registered their paths with `registerAddons` before the bundle is imported. Worker threads
 * (bundled the same way) find the paths in the environment they inherit.
 */
const REGISTRY = Symbol.for('strata.sea.addons');
const ENV_REGISTRY = 'STRATA_SEA_ADDONS';

type Registry = Record<string, string>;

/** Record where each addon's `.node` file is (called by the bootstrap). */
export function registerAddons(paths: Readonly<Record<string, string>>): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = { ...paths };
  process.env[ENV_REGISTRY] = JSON.stringify(paths);
}

function registry(): Registry | undefined {
  const own = (globalThis as Record<symbol, unknown>)[REGISTRY] as Registry | undefined;
  if (own) return own;
  const inherited = process.env[ENV_REGISTRY];
  return inherited ? (JSON.parse(inherited) as Registry) : undefined;
}

const loaded = new Map<string, unknown>();

/** The exports of addon `name` (`uws`, `lz4`), loaded once with process.dlopen. */
export function loadAddon(name: string): unknown {
  const have = loaded.get(name);
  if (have !== undefined) return have;
  const path = registry()?.[name];
  if (!path) {
    throw new Error(`strata: native addon "${name}" was not unpacked (this bundle runs only inside the strata single executable)`);
  }
  const mod = { exports: {} as unknown };
  try {
    process.dlopen(mod, path);
  } catch (err) {
    throw new Error(`strata: cannot load native addon ${path}: ${(err as Error).message}`, { cause: err });
  }
  loaded.set(name, mod.exports);
  return mod.exports;
}
