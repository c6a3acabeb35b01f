/**
 * The product version, read once from package.json (the one source of the semver), and the
 * header values derived from it (spec "Versioning"; decisions.md "product name").
 */
import { readFileSync } from 'node:fs';

function findPackageVersion(): string {
  // build/server/version.js and server/version.ts both sit below the package root.
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 5; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'strata' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: keep walking up
    }
    dir = new URL('..', dir);
  }
  return '0.0.0';
}

/** Semver of this build, e.g. `0.1.0`. */
export const SERVICE_VERSION = findPackageVersion();
/** `X-Service-Version` value: `<product>-<semver>`. */
export const SERVICE_VERSION_HEADER = `strata-${SERVICE_VERSION}`;
export const SERVICE_BUILD = 'OSS';
/**
 * `X-Influxdb-Version` / `X-Influxdb-Build`: decisions.md ("product name") sends the same
 * values as the X-Service-* headers. Clients display the version; if a tool turns out to gate
 * on a 1.x-looking value (clients.md item 1), this is the one line to change.
 */
export const INFLUXDB_VERSION_HEADER = SERVICE_VERSION_HEADER;
export const INFLUXDB_BUILD_HEADER = SERVICE_BUILD;
