/**
 * The native addons of the single executable. Inside `dist/strata` the bundle's imports of
 * `uWebSockets.js` and `lz4-napi` are redirected here (esbuild plugin in cli/sea/build.mjs);
 * the bootstrap (cli/sea/bootstrap.ts) has unpacked the `.node` files to the cache directory
 * and registered their paths with `registerAddons` before the bundle is imported.
 */
const REGISTRY = Symbol.for('strata.sea.addons');

type Registry = Record<string, string>;

/** Record where each addon's `.node` file is (called by the bootstrap). */
export function registerAddons(paths: Readonly<Record<string, string>>): void {
  (globalThis as Record<symbol, unknown>)[REGISTRY] = { ...paths };
}

const loaded = new Map<string, unknown>();

/** The exports of addon `name` (`uws`, `lz4`), loaded once with process.dlopen. */
export function loadAddon(name: string): unknown {
  const have = loaded.get(name);
  if (have !== undefined) return have;
  const registry = (globalThis as Record<symbol, unknown>)[REGISTRY] as Registry | undefined;
  const path = registry?.[name];
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
